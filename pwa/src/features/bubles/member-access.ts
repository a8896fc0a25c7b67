/** The role and permissions being edited in the member modal, and the call that would save them. */

import type { Member } from '@buble/shared/bubles'
import type { UpdateRoleBody } from '@buble/shared/members'
import { MEMBER_MESSAGES } from '@buble/shared/members'
import {
  assignableRoles,
  BUBLE_ROLES,
  type BubleRole,
  can,
  type MemberActor,
  mayGrant,
  PERMISSIONS,
  type Permission,
  ROLE_DEFAULT_PERMISSIONS,
  refuseMemberUpdate,
} from '@buble/shared/permissions'
import { useState } from 'react'

const REFUSALS: Record<NonNullable<ReturnType<typeof refuseMemberUpdate>>, string> = {
  'not-reached': MEMBER_MESSAGES.notReached,
  'no-change-roles': MEMBER_MESSAGES.noChangeRoles,
  'role-not-assignable': MEMBER_MESSAGES.roleNotAssignable,
  'no-manage-members': MEMBER_MESSAGES.noManageMembers,
  'grant-not-held': MEMBER_MESSAGES.grantNotHeld,
}

const sameSet = (a: ReadonlySet<string>, b: readonly string[]) => a.size === new Set(b).size && b.every((p) => a.has(p))

export interface MemberAccess {
  role: BubleRole
  granted: ReadonlySet<Permission>
  /** The roles the select offers: those the actor may give, and the member's own. */
  roles: readonly BubleRole[]
  canChangeRole: boolean
  canChangePermissions: boolean
  /** Whether the actor may tick or untick this permission. */
  editable(permission: Permission): boolean
  chooseRole(role: BubleRole): void
  toggle(permission: Permission, on: boolean): void
  /** Whether anything differs from the member as stored. */
  dirty: boolean
  /** Why the server would refuse this change, or null. */
  refusal: string | null
  body: UpdateRoleBody
}

export function useMemberAccess(actor: MemberActor, member: Member): MemberAccess {
  const target = { userId: member.user_id, role: member.role }
  const canChangeRole = can(actor, 'member.changeRole', target)
  const canChangePermissions = can(actor, 'member.changePermissions', target)
  const [role, setRole] = useState<BubleRole>(member.role)
  const [granted, setGranted] = useState<ReadonlySet<Permission>>(
    () => new Set(PERMISSIONS.filter((p) => member.permissions.includes(p))),
  )

  const editable = (permission: Permission) => canChangePermissions && mayGrant(actor, permission)
  const offered = new Set<BubleRole>([...(canChangeRole ? assignableRoles(actor) : []), member.role])
  const roles = BUBLE_ROLES.filter((r) => offered.has(r))

  function chooseRole(next: BubleRole) {
    setRole(next)
    // A new role brings its defaults; what the actor may not grant or withdraw stays as it is.
    const defaults = ROLE_DEFAULT_PERMISSIONS[next]
    setGranted(
      (current) => new Set(PERMISSIONS.filter((p) => (mayGrant(actor, p) ? defaults.includes(p) : current.has(p)))),
    )
  }

  function toggle(permission: Permission, on: boolean) {
    setGranted((current) => {
      const next = new Set(current)
      if (on) next.add(permission)
      else next.delete(permission)
      return next
    })
  }

  const list = PERMISSIONS.filter((p) => granted.has(p))
  const custom = !sameSet(granted, ROLE_DEFAULT_PERMISSIONS[role])
  // Without the right to change roles, only an explicit list keeps the role call from being a role change.
  const sendList = canChangePermissions && (custom || !canChangeRole)
  const body: UpdateRoleBody = sendList
    ? { userId: member.user_id, role, customPermissions: list }
    : { userId: member.user_id, role }
  const dirty = role !== member.role || !sameSet(granted, member.permissions)
  const refused = dirty ? refuseMemberUpdate(actor, { ...target, permissions: member.permissions }, body) : null

  return {
    role,
    granted,
    roles,
    canChangeRole,
    canChangePermissions,
    editable,
    chooseRole,
    toggle,
    dirty,
    refusal: refused ? REFUSALS[refused] : null,
    body,
  }
}
