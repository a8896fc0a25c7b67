/** Request and answer shapes of the platform admin area (CONTRACT §3.4, spec part 2 §2, §7, §8, §9). */

import { z } from 'zod'
import { AdminPassword, Email, PlatformRole, UserName } from './auth.ts'
import { BubleName, BubleRoleSchema, Uuid } from './bubles.ts'
import { UpdateEventBody } from './events.ts'
import { PollQuestion } from './polls.ts'

/** The list tabs of the admin area; each is `GET /api/admin/<tab>` and `/api/admin/<tab>/export.csv`. */
export const ADMIN_TABS = ['users', 'bubles', 'events', 'polls', 'posts', 'invites'] as const
export type AdminTab = (typeof ADMIN_TABS)[number]

/** Page size of the admin tables (spec part 2 §9) and the most one page may hold (CONTRACT §6). */
export const ADMIN_PAGE_SIZE = 20
export const ADMIN_MAX_PAGE_SIZE = 100
export const ADMIN_SEARCH_MAX = 200

/** Texts of the admin area (spec part 2 §2, §8) and the server's own answers. */
export const ADMIN_MESSAGES = {
  accessDenied: 'Access denied. Admin privileges required.',
  adminWarning: 'Changing admin permissions can affect system access',
  loadFailed: 'Failed to load admin data',
  deleteItemFailed: 'Failed to delete item',
  updateUserFailed: 'Failed to update user',
  updateEventFailed: 'Failed to update event',
  updatePollFailed: 'Failed to update poll',
  createUserFailed: 'Failed to create user',
  createBubleFailed: 'Failed to create Buble',
  resetPasswordFailed: 'Failed to reset password',
  sendResetEmailFailed: 'Failed to send reset email',
  cannotDeleteSelf: 'You cannot delete your own account',
  cannotDemoteSelf: 'You cannot remove your own admin role',
  userNotFound: 'User not found',
  bubleNotFound: 'Buble not found',
  eventNotFound: 'Event not found',
  pollNotFound: 'Poll not found',
  postNotFound: 'Post not found',
  inviteNotFound: 'Invite not found',
  ownerNotActive: 'The owner must be an active user',
  pendingAccount: 'This account has not completed its registration yet',
  passwordReset: 'Password reset successfully',
  resetEmailSent: 'Password reset email sent',
} as const

/** "Failed to load {tab}" (spec part 2 §8). */
export const loadTabFailed = (tab: string) => `Failed to load ${tab}`
/** "Failed to delete {type}" (spec part 2 §8). */
export const deleteTypeFailed = (type: string) => `Failed to delete ${type}`

const PositiveInt = (field: string) =>
  z.coerce
    .number({ error: `${field} must be a number` })
    .int({ error: `${field} must be a whole number` })
    .min(1, { error: `${field} must be at least 1` })

/**
 * `page` and `limit` of a list (page from 1; limit 20 by default, above 100 read as 100) and
 * `search`, a case-insensitive substring. A page below 1 or a non-number is a 400.
 */
export const AdminListQuery = z.object({
  page: PositiveInt('page').default(1),
  limit: PositiveInt('limit')
    .default(ADMIN_PAGE_SIZE)
    .transform((limit) => Math.min(limit, ADMIN_MAX_PAGE_SIZE)),
  search: z
    .string()
    .trim()
    .max(ADMIN_SEARCH_MAX, { error: `search must be at most ${ADMIN_SEARCH_MAX} characters` })
    .optional()
    .transform((s) => (s ? s : undefined)),
})
export type AdminListQuery = z.infer<typeof AdminListQuery>

/** The query of a CSV export: every row matching `search`. */
export const AdminExportQuery = AdminListQuery.pick({ search: true })
export type AdminExportQuery = z.infer<typeof AdminExportQuery>

export const AdminPagination = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  pages: z.number().int(),
  total: z.number().int(),
})
export type AdminPagination = z.infer<typeof AdminPagination>

/** Someone as the admin tables show them: a name and an address. */
export const AdminPersonRef = z.object({ id: z.string(), name: z.string(), email: z.string() })
export type AdminPersonRef = z.infer<typeof AdminPersonRef>

export const AdminBubleRef = z.object({ id: z.string(), name: z.string(), slug: z.string() })
export type AdminBubleRef = z.infer<typeof AdminBubleRef>

/** CONTRACT User plus what the admin table shows: the account's status and how many bubles it is in. */
export const AdminUser = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  email_verified: z.boolean(),
  role: PlatformRole,
  /** `pending`: made by an e-mail invite, registration not completed. Deleted accounts are never listed. */
  status: z.enum(['active', 'pending']),
  bio: z.string().nullable(),
  avatar_url: z.string().nullable(),
  created_at: z.string(),
  bubles_count: z.number().int(),
})
export type AdminUser = z.infer<typeof AdminUser>

/** A user's view modal: the row plus the bubles they belong to. */
export const AdminUserDetail = AdminUser.extend({
  bubles: z.array(AdminBubleRef.extend({ role: BubleRoleSchema, joined_at: z.string() })),
})
export type AdminUserDetail = z.infer<typeof AdminUserDetail>

export const AdminBuble = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  owner_id: z.string(),
  owner: AdminPersonRef,
  member_count: z.number().int(),
  created_at: z.string(),
})
export type AdminBuble = z.infer<typeof AdminBuble>

export const AdminMember = z.object({
  user_id: z.string(),
  role: BubleRoleSchema,
  joined_at: z.string(),
  user: z.object({ name: z.string(), email: z.string(), avatar_url: z.string().nullable() }),
})
export type AdminMember = z.infer<typeof AdminMember>

/** A buble's view modal: the row, every member (oldest first) and how much content it holds. */
export const AdminBubleDetail = AdminBuble.extend({
  members: z.array(AdminMember),
  counts: z.object({ posts: z.number().int(), events: z.number().int(), polls: z.number().int() }),
})
export type AdminBubleDetail = z.infer<typeof AdminBubleDetail>

export const AdminEvent = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  location: z.string().nullable(),
  event_time: z.string(),
  created_at: z.string(),
  external_url: z.string().nullable(),
  buble_id: z.string(),
  buble: AdminBubleRef,
  creator_id: z.string(),
  creator: AdminPersonRef,
  rsvps: z.object({ going: z.number().int(), maybe: z.number().int(), cant_go: z.number().int() }),
})
export type AdminEvent = z.infer<typeof AdminEvent>

export const AdminPoll = z.object({
  id: z.string(),
  question: z.string(),
  created_at: z.string(),
  buble_id: z.string(),
  buble: AdminBubleRef,
  creator_id: z.string(),
  creator: AdminPersonRef,
  /** Counts are null while the poll hides its results (docs/decisions/0098): the admin sees no more than members. */
  options: z.array(z.object({ id: z.string(), option_text: z.string(), votes_count: z.number().int().nullable() })),
  totalVotes: z.number().int().nullable(),
  votersCount: z.number().int(),
  closes_at: z.string().nullable(),
  closed: z.boolean(),
  multiple: z.boolean(),
  hide_results: z.boolean(),
  secret: z.boolean(),
})
export type AdminPoll = z.infer<typeof AdminPoll>

/** A wall post as the admin sees it; `type` is `image` with a picture, `link` with a link, else `text`. */
export const AdminPost = z.object({
  id: z.string(),
  content: z.string(),
  type: z.enum(['text', 'image', 'link']),
  image_url: z.string().nullable(),
  link_url: z.string().nullable(),
  is_edited: z.boolean(),
  commentsCount: z.number().int(),
  created_at: z.string(),
  buble_id: z.string(),
  buble_name: z.string(),
  author_id: z.string(),
  author: AdminPersonRef,
})
export type AdminPost = z.infer<typeof AdminPost>

/** An invite; `status` is `used` once someone joined with it, `expired` past its time, else `active`. */
export const AdminInvite = z.object({
  id: z.string(),
  code: z.string(),
  email: z.string().nullable(),
  buble_id: z.string(),
  buble: AdminBubleRef,
  createdBy: AdminPersonRef.nullable(),
  usedBy: AdminPersonRef.nullable(),
  used_by_id: z.string().nullable(),
  used_at: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
  status: z.enum(['active', 'used', 'expired']),
})
export type AdminInvite = z.infer<typeof AdminInvite>

/** One admin write (issue 12): who did what to which row; never a password. */
export const AdminAuditEntry = z.object({
  id: z.string(),
  admin_id: z.string().nullable(),
  admin_email: z.string(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string(),
  target_label: z.string(),
  detail: z.record(z.string(), z.unknown()),
  created_at: z.string(),
})
export type AdminAuditEntry = z.infer<typeof AdminAuditEntry>

const page = <Key extends string, Row extends z.ZodType>(key: Key, row: Row) =>
  z.object({ [key]: z.array(row), pagination: AdminPagination } as { [K in Key]: z.ZodArray<Row> } & {
    pagination: typeof AdminPagination
  })

export const AdminUsersPage = page('users', AdminUser)
export type AdminUsersPage = z.infer<typeof AdminUsersPage>
export const AdminBublesPage = page('bubles', AdminBuble)
export type AdminBublesPage = z.infer<typeof AdminBublesPage>
export const AdminEventsPage = page('events', AdminEvent)
export type AdminEventsPage = z.infer<typeof AdminEventsPage>
export const AdminPollsPage = page('polls', AdminPoll)
export type AdminPollsPage = z.infer<typeof AdminPollsPage>
export const AdminPostsPage = page('posts', AdminPost)
export type AdminPostsPage = z.infer<typeof AdminPostsPage>
export const AdminInvitesPage = page('invites', AdminInvite)
export type AdminInvitesPage = z.infer<typeof AdminInvitesPage>
export const AdminAuditPage = page('audit', AdminAuditEntry)
export type AdminAuditPage = z.infer<typeof AdminAuditPage>

/** Each list's answer schema, by tab (the API's tests and the PWA read answers through it). */
export const ADMIN_PAGE_SCHEMAS = {
  users: AdminUsersPage,
  bubles: AdminBublesPage,
  events: AdminEventsPage,
  polls: AdminPollsPage,
  posts: AdminPostsPage,
  invites: AdminInvitesPage,
  audit: AdminAuditPage,
} as const

/** The row type of each list tab. */
export interface AdminRows {
  users: AdminUser
  bubles: AdminBuble
  events: AdminEvent
  polls: AdminPoll
  posts: AdminPost
  invites: AdminInvite
}

export const AdminStats = z.object({
  totalUsers: z.number().int(),
  totalBubles: z.number().int(),
  totalEvents: z.number().int(),
  totalPolls: z.number().int(),
  activeInvites: z.number().int(),
})
export type AdminStats = z.infer<typeof AdminStats>

/** The Overview tab: the counts and the five newest users and bubles. */
export const AdminDashboard = z.object({
  stats: AdminStats,
  recentUsers: z.array(AdminUser),
  recentBubles: z.array(AdminBuble),
})
export type AdminDashboard = z.infer<typeof AdminDashboard>

/** The System Health tab: `issues` when the database did not answer (then `metrics` is null). */
export const AdminHealth = z.object({
  status: z.enum(['healthy', 'issues']),
  timestamp: z.string(),
  lastUpdated: z.string(),
  database: z.enum(['pglite', 'postgres']),
  metrics: z
    .object({
      usersCount: z.number().int(),
      bublesCount: z.number().int(),
      eventsCount: z.number().int(),
      pollsCount: z.number().int(),
      activeInvitesCount: z.number().int(),
      expiredInvitesCount: z.number().int(),
    })
    .nullable(),
})
export type AdminHealth = z.infer<typeof AdminHealth>

/** A user id read from a body (the owner of a new buble). */
const UserId = Uuid('ownerId must be a user id')

export const AdminCreateUserBody = z.object({
  name: UserName,
  email: Email,
  password: AdminPassword,
  role: PlatformRole.default('user'),
})
export type AdminCreateUserBody = z.infer<typeof AdminCreateUserBody>

/** Any of the three; a changed address must be verified again. */
export const AdminUpdateUserBody = z.object({
  name: UserName.optional(),
  email: Email.optional(),
  role: PlatformRole.optional(),
})
export type AdminUpdateUserBody = z.infer<typeof AdminUpdateUserBody>

export const AdminCreateBubleBody = z.object({
  name: BubleName,
  ownerId: UserId.nullish().transform((id) => id ?? undefined),
})
export type AdminCreateBubleBody = z.infer<typeof AdminCreateBubleBody>

/** The same fields as a member's edit: the fields sent change, the rest stay. */
export const AdminUpdateEventBody = UpdateEventBody.omit({ scope: true, occurrence: true, new_id: true })
export type AdminUpdateEventBody = z.infer<typeof AdminUpdateEventBody>

export const AdminUpdatePollBody = z.object({ question: PollQuestion })
export type AdminUpdatePollBody = z.infer<typeof AdminUpdatePollBody>

export const AdminResetPasswordBody = z.object({ newPassword: AdminPassword })
export type AdminResetPasswordBody = z.infer<typeof AdminResetPasswordBody>

export const AdminSendResetEmailResponse = z.object({ message: z.string(), temporaryPassword: z.string() })
export type AdminSendResetEmailResponse = z.infer<typeof AdminSendResetEmailResponse>
