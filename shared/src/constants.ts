/** Business constants of spec part 1 §9 and CONTRACT §4/§6/§7, in one place for server and client. */

/** Session lifetime: set at login, register and after every refresh. */
export const SESSION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000
/** Under this much time left, the client refreshes before a request and warns in the modal. */
export const REFRESH_THRESHOLD_MS = 60 * 60 * 1000
/** How often the client checks the session expiry while authenticated. */
export const EXPIRY_CHECK_INTERVAL_MS = 60 * 1000
/** How long the background refresh scheduler waits before it looks again. */
export const SCHEDULER_RETRY_MS = 5 * 60 * 1000
/** localStorage key of the persisted session. */
export const AUTH_STORAGE_KEY = 'auth-storage'
/** Base path of every API call. */
export const API_BASE = '/api'

/** Lifetimes of the one-time tokens mailed to users. */
export const VERIFY_TOKEN_TTL_MS = 24 * 60 * 60 * 1000
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000
export const REGISTRATION_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000
/** Account deletion grace period. */
export const DELETION_GRACE_DAYS = 7
/** Success messages clear themselves after this long; the member modal closes after MODAL_CLOSE_MS. */
export const SUCCESS_MESSAGE_MS = 3000
export const MODAL_CLOSE_MS = 1500

/** Text limits of CONTRACT §7. */
export const LIMITS = {
  userNameMin: 2,
  userNameMax: 80,
  bio: 500,
  bubleName: 80,
  post: 10_000,
  comment: 2_000,
  chatMessage: 4_000,
  eventTitle: 200,
  eventDescription: 5_000,
  location: 200,
  pollQuestion: 300,
  pollOption: 200,
  pledgeMessage: 1_000,
  email: 254,
  jsonBodyBytes: 1024 * 1024,
  avatarBytes: 5 * 1024 * 1024,
  imageBytes: 10 * 1024 * 1024,
  videoBytes: 50 * 1024 * 1024,
} as const
