/** The admin area's texts (spec part 2 §2 and §8) and its tabs, in the order the tab bar shows them. */

import { ADMIN_MESSAGES, deleteTypeFailed, loadTabFailed } from '@buble/shared/admin'

export { ADMIN_PAGE_SIZE } from '@buble/shared/admin'

export const ADMIN_TABS = [
  { key: 'overview', label: 'Overview' },
  { key: 'users', label: 'Users' },
  { key: 'bubles', label: 'Bubles' },
  { key: 'events', label: 'Events' },
  { key: 'polls', label: 'Polls' },
  { key: 'posts', label: 'Posts' },
  { key: 'invites', label: 'Invites' },
  // Issue 24 §1: every buble's open reports.
  { key: 'reports', label: 'Reports' },
  { key: 'health', label: 'System Health' },
  { key: 'audit', label: 'Audit' },
] as const

export type AdminTabKey = (typeof ADMIN_TABS)[number]['key']

/** The tabs that are a paged table of rows the API lists at /api/admin/<tab>. */
export type ListTabKey = 'users' | 'bubles' | 'events' | 'polls' | 'posts' | 'invites' | 'audit'

export const isAdminTab = (value: string | null): value is AdminTabKey => ADMIN_TABS.some((tab) => tab.key === value)

/** How long the search box waits for typing to pause before it asks the server. */
export const SEARCH_DEBOUNCE_MS = 300

export const ADMIN_TEXTS = {
  accessDenied: ADMIN_MESSAGES.accessDenied,
  loadAdminData: ADMIN_MESSAGES.loadFailed,
  loadTab: loadTabFailed,
  deleteType: deleteTypeFailed,
  updateUser: ADMIN_MESSAGES.updateUserFailed,
  updateEvent: ADMIN_MESSAGES.updateEventFailed,
  updatePoll: ADMIN_MESSAGES.updatePollFailed,
  createUser: ADMIN_MESSAGES.createUserFailed,
  // '{product}' reads "Buble" (spec README), as in 'Failed to delete Buble' elsewhere.
  createBuble: ADMIN_MESSAGES.createBubleFailed,
  resetPassword: ADMIN_MESSAGES.resetPasswordFailed,
  sendResetEmail: ADMIN_MESSAGES.sendResetEmailFailed,
  /** Said in the Reset Password dialog itself, where the admin is looking: what the reset did. */
  passwordResetDone: (name: string) =>
    `Password reset successfully. ${name} is signed out everywhere and signs in with the new password; their sign-in page says why.`,
  exportCsv: 'Failed to export CSV',
  editAdminWarning: ADMIN_MESSAGES.adminWarning,
  pageOf: (page: number, pages: number, total: number) => `Showing page ${page} of ${pages} (${total} total items)`,
} as const

/** How the two platform roles read (spec part 2 §3). */
export const ROLE_LABELS = { user: 'Regular User', admin: 'Administrator' } as const
