/** For a call about a buble made on this device that the server has not stored yet. */
export const BUBLE_NOT_SYNCED = 'This Buble has not reached the server yet. Try again once it is synced.'

/** The buble page's overflow menu (spec part 1 §2 names Generate Invite, Delete and Leave). */
export const BUBLE_ACTION_TEXTS = {
  menu: 'Buble actions',
  invite: 'Generate Invite',
  generating: 'Generating…',
  rename: 'Rename',
  renamed: 'Buble renamed',
  leave: 'Leave Buble',
  delete: 'Delete Buble',
  dismiss: 'Dismiss',
} as const
