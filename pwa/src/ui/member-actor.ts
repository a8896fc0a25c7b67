import type { MemberActor } from '@buble/shared/permissions'
import type { LocalBuble, LocalMember } from '../data/bubles.ts'

/**
 * The signed-in user as the permission rules see them: their own member row, or, until that row
 * is on the device, what the buble says of them.
 */
export function memberActorFor(
  buble: LocalBuble,
  members: readonly LocalMember[] | undefined,
  userId: string,
): MemberActor {
  const own = members?.find((member) => member.user_id === userId)
  if (own) return { userId, role: own.role, permissions: own.permissions }
  return { userId, role: buble.my_role, permissions: buble.my_permissions }
}
