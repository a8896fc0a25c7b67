/** For a call about a buble made on this device that the server has not stored yet. */
export const BUBLE_NOT_SYNCED = 'This Buble has not reached the server yet. Try again once it is synced.'
