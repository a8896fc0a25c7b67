/** The admin answers (CONTRACT §3.4), as the shared schemas describe them, plus the audit tab's rows. */

import type { AdminAuditEntry, AdminPagination, AdminRows as ListRows } from '@buble/shared/admin'

export type {
  AdminAuditEntry,
  AdminBuble,
  AdminBubleDetail,
  AdminDashboard,
  AdminEvent,
  AdminHealth,
  AdminInvite,
  AdminPersonRef,
  AdminPoll,
  AdminPost,
  AdminUser,
  AdminUserDetail,
} from '@buble/shared/admin'

export type Pagination = AdminPagination

/** The row type of every paged admin table, the audit log included. */
export interface AdminRows extends ListRows {
  audit: AdminAuditEntry
}
