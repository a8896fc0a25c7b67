/**
 * Who may do what inside a buble (CONTRACT §4, spec part 1 §5–6): the four roles, the thirteen
 * permissions, each role's defaults, and `can`. The role sets the reach, the permission the right:
 * the owner reaches everyone, an admin admins, moderators and members, a moderator members, a
 * member nobody; nobody manages themselves; nobody grants what they do not hold (the owner
 * excepted); assigning `owner` is a transfer, and only the owner may make it.
 */

export const BUBLE_ROLES = ['owner', 'admin', 'moderator', 'member'] as const
export type BubleRole = (typeof BUBLE_ROLES)[number]

export const PERMISSIONS = [
  'manage_buble',
  'delete_buble',
  'manage_members',
  'invite_members',
  'remove_members',
  'change_roles',
  'manage_events',
  'manage_polls',
  'create_events',
  'create_polls',
  'moderate_content',
  'delete_others_content',
  // Issue 23 §5: a thirteenth, so pinning can be given without manage_buble.
  'pin_posts',
] as const
export type Permission = (typeof PERMISSIONS)[number]

/** The permission list a member gets with a role unless custom permissions are given. */
export const ROLE_DEFAULT_PERMISSIONS: Readonly<Record<BubleRole, readonly Permission[]>> = {
  owner: PERMISSIONS,
  admin: PERMISSIONS.filter((permission) => permission !== 'delete_buble'),
  moderator: [
    'invite_members',
    'change_roles',
    'remove_members',
    'manage_events',
    'manage_polls',
    'create_events',
    'create_polls',
    'moderate_content',
    'delete_others_content',
  ],
  member: ['create_events', 'create_polls'],
}

/** A member as the rules see them: who, their role, and the permission list stored with it. */
export interface MemberActor {
  userId?: string
  role: BubleRole
  permissions: readonly string[]
}

/** The member an action is aimed at. */
export interface MemberTarget {
  userId: string
  role: BubleRole
}

/** What a member holds in effect: the owner always holds all thirteen, whatever is stored. */
export function effectivePermissions(member: MemberActor): Permission[] {
  if (member.role === 'owner') return [...PERMISSIONS]
  return PERMISSIONS.filter((permission) => member.permissions.includes(permission))
}

export const hasPermission = (member: MemberActor, permission: Permission): boolean =>
  member.role === 'owner' || member.permissions.includes(permission)

/** The roles each role reaches (may manage), whatever permissions it holds. */
const REACH: Readonly<Record<BubleRole, readonly BubleRole[]>> = {
  owner: ['admin', 'moderator', 'member'],
  admin: ['admin', 'moderator', 'member'],
  moderator: ['member'],
  member: [],
}

/** The roles each role may give (`owner` is a transfer, not an assignment). */
const ASSIGNABLE: Readonly<Record<BubleRole, readonly BubleRole[]>> = {
  owner: ['admin', 'moderator', 'member'],
  admin: ['admin', 'moderator', 'member'],
  moderator: ['member'],
  member: [],
}

/** Whether `actor` reaches `target`: never themselves, never the owner, and within their role's reach. */
export function reaches(actor: MemberActor, target: MemberTarget): boolean {
  if (actor.userId !== undefined && actor.userId === target.userId) return false
  return REACH[actor.role].includes(target.role)
}

/** The roles `actor` may give to someone they reach (the owner also transfers ownership, separately). */
export const assignableRoles = (actor: MemberActor): readonly BubleRole[] =>
  hasPermission(actor, 'change_roles') ? ASSIGNABLE[actor.role] : []

/** Whether `actor` may grant or withdraw `permission`: only one they hold. */
export const mayGrant = (actor: MemberActor, permission: string): boolean =>
  actor.role === 'owner' || actor.permissions.includes(permission)

/** Actions on the buble itself. */
export type BubleAction =
  | 'buble.delete'
  | 'buble.rename'
  | 'buble.leave'
  | 'invite.create'
  | 'tools.manage'
  | 'ownership.transfer'
  /** Delete posts, comments, chat messages and stories made by others (their authors always may). */
  | 'content.deleteOthers'
  | 'event.create'
  /** Edit and delete events made by others (their creators always may). */
  | 'event.manageOthers'
  | 'poll.create'
  /** Edit and delete polls made by others (their creators always may). */
  | 'poll.manageOthers'
  /** Pin and unpin posts of the wall (up to MAX_PINNED_POSTS, shared/wall.ts). */
  | 'post.pin'

/** Actions aimed at another member. */
export type MemberAction = 'member.changeRole' | 'member.changePermissions' | 'member.remove' | 'ownership.transferTo'

export type Action = BubleAction | MemberAction

export const BUBLE_ACTIONS: readonly BubleAction[] = [
  'buble.delete',
  'buble.rename',
  'buble.leave',
  'invite.create',
  'tools.manage',
  'ownership.transfer',
  'content.deleteOthers',
  'event.create',
  'event.manageOthers',
  'poll.create',
  'poll.manageOthers',
  'post.pin',
]
export const MEMBER_ACTIONS: readonly MemberAction[] = [
  'member.changeRole',
  'member.changePermissions',
  'member.remove',
  'ownership.transferTo',
]

/** Whether a member may take an action on their buble. */
export function can(actor: MemberActor, action: BubleAction): boolean
/** Whether a member may take an action aimed at another member of their buble. */
export function can(actor: MemberActor, action: MemberAction, target: MemberTarget): boolean
export function can(actor: MemberActor, action: Action, target?: MemberTarget): boolean {
  switch (action) {
    case 'buble.delete':
      return hasPermission(actor, 'delete_buble')
    case 'buble.rename':
      return hasPermission(actor, 'manage_buble')
    case 'invite.create':
      return hasPermission(actor, 'invite_members')
    case 'content.deleteOthers':
      return hasPermission(actor, 'delete_others_content')
    case 'event.create':
      return hasPermission(actor, 'create_events')
    case 'event.manageOthers':
      return hasPermission(actor, 'manage_events')
    case 'poll.create':
      return hasPermission(actor, 'create_polls')
    case 'poll.manageOthers':
      return hasPermission(actor, 'manage_polls')
    case 'post.pin':
      return hasPermission(actor, 'manage_buble') || hasPermission(actor, 'pin_posts')
    // Spec part 2 §6: adding and removing overview tools is the owner's alone.
    case 'tools.manage':
    case 'ownership.transfer':
      return actor.role === 'owner'
    case 'buble.leave':
      // The owner hands the buble over first (transfer ownership), or deletes it.
      return actor.role !== 'owner'
    case 'member.changeRole':
      return !!target && reaches(actor, target) && hasPermission(actor, 'change_roles')
    case 'member.changePermissions':
      return !!target && reaches(actor, target) && hasPermission(actor, 'manage_members')
    case 'member.remove':
      return !!target && reaches(actor, target) && hasPermission(actor, 'remove_members')
    case 'ownership.transferTo':
      return !!target && actor.role === 'owner' && target.userId !== actor.userId && target.role !== 'owner'
  }
}

/**
 * Whether `actor` may mute `target` (issue 24 §2): it takes moderate_content (the owner always holds
 * it) and the reach of removal: nobody mutes the owner or themselves, a moderator mutes members only.
 */
export const canMute = (actor: MemberActor, target: MemberTarget): boolean =>
  reaches(actor, target) && hasPermission(actor, 'moderate_content')

/** Why a role or permission change is refused, or null when `actor` may make it. */
export function refuseMemberUpdate(
  actor: MemberActor,
  target: MemberTarget & { permissions: readonly string[] },
  change: { role: BubleRole; customPermissions?: readonly string[] | undefined },
): 'not-reached' | 'no-change-roles' | 'role-not-assignable' | 'no-manage-members' | 'grant-not-held' | null {
  if (!reaches(actor, target)) return 'not-reached'
  const roleChanges = change.role !== target.role || change.customPermissions === undefined
  if (roleChanges) {
    if (!hasPermission(actor, 'change_roles')) return 'no-change-roles'
    if (!ASSIGNABLE[actor.role].includes(change.role)) return 'role-not-assignable'
  }
  if (change.customPermissions !== undefined && !hasPermission(actor, 'manage_members')) return 'no-manage-members'
  const next = change.customPermissions ?? ROLE_DEFAULT_PERMISSIONS[change.role]
  // Only permissions that change hands count: what the target keeps or lacks either way is not granted.
  const changed = PERMISSIONS.filter((p) => next.includes(p) !== target.permissions.includes(p))
  if (!changed.every((permission) => mayGrant(actor, permission))) return 'grant-not-held'
  return null
}

/** The synced content of a buble that someone made: what `content.edit` and `content.delete` judge. */
export const CONTENT_KINDS = ['post', 'comment', 'chat_message', 'story', 'event', 'poll'] as const
export type ContentKind = (typeof CONTENT_KINDS)[number]

/** One piece of content as the content rules see it: its kind and who made it. */
export interface ContentTarget {
  kind: ContentKind
  authorId: string
}

export type ContentAction = 'content.edit' | 'content.delete'
export const CONTENT_ACTIONS: readonly ContentAction[] = ['content.edit', 'content.delete']

/**
 * The content rules (CONTRACT §3.3, §4), one place for the API and the PWA's Edit / Delete:
 * - posts, comments and chat messages: their author edits; the author or a holder of
 *   delete_others_content deletes;
 * - stories cannot be edited; the author or a holder of delete_others_content deletes;
 * - events and polls: their creator, or a holder of manage_events / manage_polls, edits and deletes.
 */
export function mayOnContent(actor: MemberActor, action: ContentAction, target: ContentTarget): boolean {
  const own = actor.userId !== undefined && actor.userId === target.authorId
  switch (target.kind) {
    case 'event':
      return own || can(actor, 'event.manageOthers')
    case 'poll':
      return own || can(actor, 'poll.manageOthers')
    case 'story':
      return action === 'content.delete' && (own || can(actor, 'content.deleteOthers'))
    case 'post':
    case 'comment':
    case 'chat_message':
      return action === 'content.edit' ? own : own || can(actor, 'content.deleteOthers')
  }
}

/**
 * Whether a member may edit or delete an event or poll made by `creatorId`: its creator, the owner
 * (who holds every permission) or a holder of manage_events / manage_polls (CONTRACT §3.3).
 */
export const mayManageContent = (actor: MemberActor, kind: 'event' | 'poll', creatorId: string): boolean =>
  mayOnContent(actor, 'content.edit', { kind, authorId: creatorId })

// ---- Reports (issue 24 §1, decision 101) ---------------------------------------------------------

/** Whether a member handles the buble's reports: the Reports queue and its actions (moderate_content). */
export const canModerate = (actor: MemberActor): boolean => hasPermission(actor, 'moderate_content')

/** What a moderator may do with an item's open reports. */
export type ReportResolution = 'dismiss' | 'delete' | 'mute'

/**
 * Whether `actor` may take `action` on the reports of `content`: every action needs moderate_content;
 * deleting also needs the content rules' delete (delete_others_content, manage_events or manage_polls
 * for someone else's); muting needs the mute rule on the author as a member (`author`, null when they
 * are no longer one).
 */
export function mayResolveReport(
  actor: MemberActor,
  action: ReportResolution,
  content: ContentTarget,
  author: MemberTarget | null,
): boolean {
  if (!canModerate(actor)) return false
  switch (action) {
    case 'dismiss':
      return true
    case 'delete':
      return mayOnContent(actor, 'content.delete', content)
    case 'mute':
      return author !== null && canMute(actor, author)
  }
}
