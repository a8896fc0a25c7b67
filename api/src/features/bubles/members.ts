/** Member management (CONTRACT §3.2, §4): role and permission changes, removal, ownership transfer. */

import type { Member } from '@buble/shared/bubles'
import {
  MEMBER_MESSAGES,
  type RemoveMemberBody,
  type TransferOwnershipBody,
  type UpdateRoleBody,
} from '@buble/shared/members'
import { can, ROLE_DEFAULT_PERMISSIONS, reaches, refuseMemberUpdate } from '@buble/shared/permissions'
import type { Executor } from '../../db/client.ts'
import type { Deps } from '../../deps.ts'
import type { UserRow } from '../../lib/accounts.ts'
import { AppError, forbidden } from '../../lib/errors.ts'
import { findMembership, memberActorOf, memberKey, memberNotFound, requireMembership } from '../../lib/memberships.ts'
import { type SyncWriter, syncWrite } from '../../lib/sync-writes.ts'
import { loadMembersByKey } from './queries.ts'
import type { MembershipWrites } from './writes.ts'

const REFUSALS = {
  'not-reached': MEMBER_MESSAGES.notReached,
  'no-change-roles': MEMBER_MESSAGES.noChangeRoles,
  'role-not-assignable': MEMBER_MESSAGES.roleNotAssignable,
  'no-manage-members': MEMBER_MESSAGES.noManageMembers,
  'grant-not-held': MEMBER_MESSAGES.grantNotHeld,
} as const

export type MembersService = ReturnType<typeof membersService>

export function membersService(deps: Deps, writes: MembershipWrites) {
  const { db } = deps

  /**
   * The actor's and the target's rows: 404 when the caller is not in the buble (it does not
   * exist for them) or the target is not; 403 for managing oneself (leaving is separate).
   */
  async function parties(w: SyncWriter, bubleId: string, user: UserRow, userId: string) {
    const actor = await requireMembership(w.tx, bubleId, user.id)
    const target = await findMembership(w.tx, bubleId, userId)
    if (!target) throw memberNotFound()
    if (target.userId === actor.userId) throw forbidden(MEMBER_MESSAGES.notYourself)
    return { actor, target }
  }

  const memberOf = async (tx: Executor, bubleId: string, userId: string) =>
    (await loadMembersByKey(tx, [memberKey(bubleId, userId)])).get(memberKey(bubleId, userId)) as Member

  return {
    /** Changes a member's role, their permissions, or both; giving `owner` is a transfer. */
    changeRole(user: UserRow, bubleId: string, body: UpdateRoleBody): Promise<{ message: string; member: Member }> {
      return syncWrite(db, async (w) => {
        const { actor, target } = await parties(w, bubleId, user, body.userId)
        if (body.role === 'owner') {
          if (!can(memberActorOf(actor), 'ownership.transferTo', target))
            throw forbidden(MEMBER_MESSAGES.onlyOwnerTransfers)
          await writes.transferOwnership(w, bubleId, actor.userId, target.userId)
        } else {
          const refusal = refuseMemberUpdate(memberActorOf(actor), target, body)
          if (refusal) throw forbidden(REFUSALS[refusal])
          await writes.updateMember(w, bubleId, target.userId, {
            role: body.role,
            permissions: body.customPermissions ?? ROLE_DEFAULT_PERMISSIONS[body.role],
          })
        }
        return { message: MEMBER_MESSAGES.roleUpdated, member: await memberOf(w.tx, bubleId, target.userId) }
      })
    },

    removeMember(user: UserRow, bubleId: string, body: RemoveMemberBody): Promise<{ message: string }> {
      return syncWrite(db, async (w) => {
        const { actor, target } = await parties(w, bubleId, user, body.userId)
        if (!can(memberActorOf(actor), 'member.remove', target))
          throw forbidden(reaches(memberActorOf(actor), target) ? MEMBER_MESSAGES.noRemove : MEMBER_MESSAGES.notReached)
        await writes.removeMember(w, bubleId, target.userId)
        return { message: MEMBER_MESSAGES.removed }
      })
    },

    /** Hands the buble to another member; the owner becomes a plain member. */
    transferOwnership(user: UserRow, bubleId: string, body: TransferOwnershipBody): Promise<{ message: string }> {
      return syncWrite(db, async (w) => {
        const actor = await requireMembership(w.tx, bubleId, user.id)
        if (!can(memberActorOf(actor), 'ownership.transfer')) throw forbidden(MEMBER_MESSAGES.onlyOwnerTransfers)
        if (body.newOwnerId === actor.userId)
          throw new AppError('VALIDATION_ERROR', MEMBER_MESSAGES.alreadyOwner, [
            { path: 'newOwnerId', message: MEMBER_MESSAGES.alreadyOwner },
          ])
        const target = await findMembership(w.tx, bubleId, body.newOwnerId)
        if (!target) throw memberNotFound()
        await writes.transferOwnership(w, bubleId, actor.userId, target.userId)
        return { message: MEMBER_MESSAGES.transferred }
      })
    },
  }
}
