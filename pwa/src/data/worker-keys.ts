/** What the page and the service worker agree on to flush an outbox in the background. */

/** The background-sync tag of a user's outbox; the service worker reads the user id from it. */
export const OUTBOX_SYNC_TAG = 'buble-outbox:'
/** Where, in the user's database, the service worker finds the token to flush the outbox with. */
export const AUTH_META_KEY = 'auth'
