/** Error texts of spec part 1 §8 and part 2 §8 that more than one screen shows (a form, and the not-saved list of the sync status). */
export const ERROR_TEXTS = {
  createBuble: 'Failed to create Buble. Please try again.',
  deleteBuble: 'Failed to delete Buble',
  performAction: 'Failed to perform action',
  generateInvite: 'Failed to generate invite',
  revokeInvite: 'Failed to revoke invite code',
  updateProfile: 'Failed to update profile',
  createEvent: 'Failed to create event',
  updateEvent: 'Failed to update event',
  createPoll: 'Failed to create poll',
  updatePoll: 'Failed to update poll',
} as const
