/**
 * The admin calls of spec part 2 §7 and CONTRACT §3.4, online only (admin data is never synced).
 * Answers are checked against the shared schemas, so a screen never renders a half-understood row.
 */

import {
  ADMIN_PAGE_SCHEMAS,
  AdminBubleDetail,
  type AdminCreateUserBody,
  AdminDashboard,
  AdminHealth,
  AdminSendResetEmailResponse,
  type AdminUpdateEventBody,
  type AdminUpdatePollBody,
  type AdminUpdateUserBody,
  AdminUserDetail,
} from '@buble/shared/admin'
import type { ApiClient } from '../../session/api-client.ts'
import { ADMIN_PAGE_SIZE, type ListTabKey } from './admin-texts.ts'
import type { AdminRows, Pagination } from './admin-types.ts'

export interface ListQuery {
  page: number
  search: string
}

const PAGES = ADMIN_PAGE_SCHEMAS

const listPath = (tab: ListTabKey, { page, search }: ListQuery) => {
  const params = new URLSearchParams({ page: String(page), limit: String(ADMIN_PAGE_SIZE) })
  if (search) params.set('search', search)
  return `/admin/${tab}?${params}`
}

/** `<tab>-YYYY-MM-DD.csv`, by the local date. */
export function csvFileName(tab: string, now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${tab}-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.csv`
}

/** Hands a blob to the browser as a download named `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
  // Revoked on a later turn: Chromium starts the download after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

export function adminApi(api: ApiClient) {
  return {
    dashboard: async (signal?: AbortSignal) => AdminDashboard.parse(await api.get('/admin/dashboard', signal)),
    health: async (signal?: AbortSignal) => AdminHealth.parse(await api.get('/admin/health', signal)),
    async list<K extends ListTabKey>(
      tab: K,
      query: ListQuery,
      signal?: AbortSignal,
    ): Promise<{ rows: AdminRows[K][]; pagination: Pagination }> {
      const answer = PAGES[tab].parse(await api.get(listPath(tab, query), signal)) as Record<string, unknown>
      return { rows: answer[tab] as AdminRows[K][], pagination: answer.pagination as Pagination }
    },
    user: async (id: string, signal?: AbortSignal) =>
      AdminUserDetail.parse(await api.get(`/admin/users/${id}`, signal)),
    buble: async (id: string, signal?: AbortSignal) =>
      AdminBubleDetail.parse(await api.get(`/admin/bubles/${id}`, signal)),
    remove: (tab: Exclude<ListTabKey, 'audit'>, id: string) => api.delete<void>(`/admin/${tab}/${id}`),
    createUser: (body: AdminCreateUserBody) => api.post<unknown>('/admin/users', body),
    updateUser: (id: string, body: AdminUpdateUserBody) => api.put<unknown>(`/admin/users/${id}`, body),
    createBuble: (body: { name: string; ownerId?: string }) => api.post<unknown>('/admin/bubles', body),
    updateEvent: (id: string, body: AdminUpdateEventBody) => api.put<unknown>(`/admin/events/${id}`, body),
    updatePoll: (id: string, body: AdminUpdatePollBody) => api.put<unknown>(`/admin/polls/${id}`, body),
    resetPassword: (id: string, newPassword: string) =>
      api.post<unknown>(`/admin/users/${id}/reset-password`, { newPassword }),
    sendResetEmail: async (id: string) =>
      AdminSendResetEmailResponse.parse(await api.post(`/admin/users/${id}/send-reset-email`)),
    /** All matching rows as CSV, fetched with the session's token, saved as `<tab>-YYYY-MM-DD.csv`. */
    async exportCsv(tab: Exclude<ListTabKey, 'audit'>, search: string): Promise<void> {
      const blob = await api.blob(`/admin/${tab}/export.csv?${new URLSearchParams({ search })}`)
      saveBlob(blob, csvFileName(tab))
    },
  }
}

export type AdminApi = ReturnType<typeof adminApi>
