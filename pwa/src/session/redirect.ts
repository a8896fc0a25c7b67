/** Why the app sends the user to /login; the sign-in page says it in a line (features/auth/auth-texts.ts). */
export const LOGIN_REASON_KEYS = ['password-changed', 'session-expired', 'signed-out'] as const
export type LoginReason = (typeof LOGIN_REASON_KEYS)[number]

/** How long the signed-in guard carries a reason just given (it renders within the same few ticks). */
const REASON_TTL_MS = 5000
let given: { reason: LoginReason; at: number } | null = null

const target = (reason?: LoginReason) => (reason ? `/login?reason=${reason}` : '/login')

/**
 * Full-page navigation to /login: a fresh page keeps nothing of a session that ended badly. With a reason it
 * goes there even from /login itself, where the guards may already have moved the page when the session ended.
 */
export function redirectToLogin(reason?: LoginReason, now: number = Date.now()): void {
  given = reason ? { reason, at: now } : null
  const { pathname, search } = window.location
  if (pathname !== '/login' || (reason && search !== `?reason=${reason}`)) window.location.assign(target(reason))
}

/**
 * Where the signed-in guard sends a session that has just ended: /login with the reason just given, if any.
 * The guard may render after the full-page navigation above has started, and Chromium drops a pending
 * navigation when the page then changes its own address: both must name the same page.
 */
export function loginPath(now: number = Date.now()): string {
  return target(given && now - given.at < REASON_TTL_MS ? given.reason : undefined)
}
