/**
 * The platform admin area (CONTRACT §3.4, spec part 2 §2, §7): the reads (queries.ts) and the
 * writes (account-writes.ts, content-writes.ts), which go through the owning features' services.
 */

import {
  ADMIN_MESSAGES,
  type AdminBubleDetail,
  type AdminDashboard,
  type AdminHealth,
  type AdminListQuery,
  type AdminPagination,
  type AdminUserDetail,
} from '@buble/shared/admin'
import type { Deps } from '../../deps.ts'
import { notFound } from '../../lib/errors.ts'
import { answerBytes, type JsonAnswer, jsonAnswer } from '../../lib/json-answers.ts'
import type { AuthService } from '../auth/service.ts'
import type { UsersService } from '../profile/service.ts'
import { accountWrites } from './account-writes.ts'
import { type ContentServices, contentWrites } from './content-writes.ts'
import type { AdminListCache } from './list-cache.ts'
import { bubleDetail, counters, type ListName, type ListRows, listBatches, listPage, userDetail } from './queries.ts'

export interface AdminServices extends ContentServices {
  auth: AuthService
  users: UsersService
  adminLists: AdminListCache
}

const RECENT = 5

/**
 * When a page stops being true by the clock alone: an invite shown active turns expired at its
 * `expires_at` (the only field of a list computed from the time). Lists without one: never.
 */
function expiresAt<N extends ListName>(name: N, rows: ListRows[N][]): number | undefined {
  if (name !== 'invites') return undefined
  let at: number | undefined
  for (const row of rows as ListRows['invites'][])
    if (row.status === 'active') at = Math.min(at ?? Infinity, Date.parse(row.expires_at))
  return at
}

/** `writes`, each forgetting the kept lists when it settles (committed or not: forgetting is always safe). */
function forgettingAfter<W extends Record<string, (...args: never[]) => Promise<unknown>>>(
  writes: W,
  forget: () => void,
): W {
  const wrapped: Record<string, unknown> = {}
  for (const [name, write] of Object.entries(writes))
    wrapped[name] = (...args: never[]) => write(...args).finally(forget)
  return wrapped as W
}

export type AdminService = ReturnType<typeof adminService>

export function adminService(deps: Deps, s: AdminServices) {
  const { db, now, log } = deps
  // An admin who writes and reloads at once sees the write: this process forgets its kept lists
  // when the write returns, not when the NOTIFY of the write comes back.
  const forget = () => s.adminLists.forget()

  async function list<N extends ListName>(
    name: N,
    query: AdminListQuery,
  ): Promise<{ rows: ListRows[N][]; pagination: AdminPagination }> {
    const { rows, total } = await listPage(db, name, { ...query, now: now() })
    // At least one page, so "page 1 of 1" reads right for an empty table.
    const pages = Math.max(1, Math.ceil(total / query.limit))
    return { rows, pagination: { page: query.page, limit: query.limit, pages, total } }
  }

  return {
    ...forgettingAfter(accountWrites(deps, s), forget),
    ...forgettingAfter(contentWrites(deps, s), forget),

    /**
     * A page of a list as the answer's bytes, `{ [name]: rows, pagination }`, kept in memory until
     * something it was read from changes (list-cache.ts).
     */
    listAnswer<N extends ListName>(name: N, query: AdminListQuery): Promise<JsonAnswer> {
      const key = JSON.stringify([name, query.search ?? null, query.page, query.limit])
      return s.adminLists.getOrLoad(key, name, async () => {
        const { rows, pagination } = await list(name, query)
        const value = jsonAnswer(JSON.stringify({ [name]: rows, pagination }))
        return { value, bytes: answerBytes(value), until: expiresAt(name, rows) }
      })
    },

    /** Every row of a list matching `search`, in keyset batches (CSV exports). */
    exportBatches: <N extends ListName>(name: N, search: string | undefined, at: Date) =>
      listBatches(db, name, { search, now: at }),

    async dashboard(): Promise<AdminDashboard> {
      const at = now()
      const [{ expiredInvites: _expired, ...stats }, recentUsers, recentBubles] = await Promise.all([
        counters(db, at),
        listPage(db, 'users', { page: 1, limit: RECENT, now: at }),
        listPage(db, 'bubles', { page: 1, limit: RECENT, now: at }),
      ])
      return { stats, recentUsers: recentUsers.rows, recentBubles: recentBubles.rows }
    },

    /** `issues` when the database does not answer; the counts otherwise. */
    async health(): Promise<AdminHealth> {
      const at = now()
      const stamp = { timestamp: at.toISOString(), lastUpdated: at.toISOString(), database: deps.database.kind }
      try {
        const c = await counters(db, at)
        return {
          status: 'healthy',
          ...stamp,
          metrics: {
            usersCount: c.totalUsers,
            bublesCount: c.totalBubles,
            eventsCount: c.totalEvents,
            pollsCount: c.totalPolls,
            activeInvitesCount: c.activeInvites,
            expiredInvitesCount: c.expiredInvites,
          },
        }
      } catch (err) {
        log.error('admin health: database did not answer', { err })
        return { status: 'issues', ...stamp, metrics: null }
      }
    },

    async user(id: string): Promise<AdminUserDetail> {
      const found = await userDetail(db, id)
      if (!found) throw notFound(ADMIN_MESSAGES.userNotFound)
      return found
    },

    async buble(id: string): Promise<AdminBubleDetail> {
      const found = await bubleDetail(db, id)
      if (!found) throw notFound(ADMIN_MESSAGES.bubleNotFound)
      return found
    },
  }
}
