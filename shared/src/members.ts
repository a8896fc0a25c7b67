/** Member management calls (CONTRACT §3.2): role and permission changes, removal, ownership transfer. */

import { z } from 'zod'
import { BubleRoleSchema, Member, PermissionSchema, Uuid } from './bubles.ts'

export const MEMBER_MESSAGES = {
  roleUpdated: 'Member role updated successfully',
  removed: 'Member removed successfully',
  transferred: 'Ownership transferred successfully',
  memberNotFound: 'Member not found',
  notYourself: 'You cannot manage your own membership',
  alreadyOwner: 'You already own this Buble',
  onlyOwnerTransfers: 'Only the owner can transfer ownership',
  notReached: 'You cannot manage this member',
  noChangeRoles: 'You are not allowed to change roles',
  roleNotAssignable: 'You cannot give this role',
  noManageMembers: 'You are not allowed to change permissions',
  grantNotHeld: 'You cannot grant or withdraw a permission you do not hold',
  noRemove: 'You are not allowed to remove members',
  // The spec's fallbacks when the server gives no message (part 1 §8).
  updateFailed: 'Failed to update member role',
  removeFailed: 'Failed to remove member',
  transferFailed: 'Failed to transfer ownership',
  /** Shown while editing an admin (spec part 1 §2). */
  adminWarning: 'Changing admin permissions can affect system access',
} as const

export const UpdateRoleBody = z.object({
  userId: Uuid('userId must be a UUID'),
  role: BubleRoleSchema,
  // Given: the member's list becomes exactly this (duplicates dropped); left out: the role's defaults.
  customPermissions: z
    .array(PermissionSchema)
    .max(24)
    .transform((list) => [...new Set(list)])
    .optional(),
})
export type UpdateRoleBody = z.infer<typeof UpdateRoleBody>

export const UpdateRoleResponse = z.object({ message: z.string(), member: Member })
export type UpdateRoleResponse = z.infer<typeof UpdateRoleResponse>

export const RemoveMemberBody = z.object({ userId: Uuid('userId must be a UUID') })
export type RemoveMemberBody = z.infer<typeof RemoveMemberBody>

export const TransferOwnershipBody = z.object({ newOwnerId: Uuid('newOwnerId must be a UUID') })
export type TransferOwnershipBody = z.infer<typeof TransferOwnershipBody>
