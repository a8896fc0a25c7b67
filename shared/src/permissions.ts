/** Buble roles, the twelve custom permissions, each role's defaults (CONTRACT §4), and `can`. */

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

/** A member as the rules see them: their role and the permission list stored with it. */
export interface MemberActor {
  role: BubleRole
  permissions: readonly string[]
}

/** What a member holds in effect: the owner always holds all twelve, whatever is stored. */
export function effectivePermissions(member: MemberActor): Permission[] {
  if (member.role === 'owner') return [...PERMISSIONS]
  return PERMISSIONS.filter((permission) => member.permissions.includes(permission))
}

export const hasPermission = (member: MemberActor, permission: Permission): boolean =>
  member.role === 'owner' || member.permissions.includes(permission)

/** Actions on a buble as a whole. */
export type BubleAction = 'buble.delete' | 'invite.create' | 'buble.leave'

/** Whether a member may take an action on their buble. */
export function can(actor: MemberActor, action: BubleAction): boolean {
  switch (action) {
    case 'buble.delete':
      return hasPermission(actor, 'delete_buble')
    case 'invite.create':
      return hasPermission(actor, 'invite_members')
    case 'buble.leave':
      // The owner hands the buble over first (transfer ownership), or deletes it.
      return actor.role !== 'owner'
  }
}
