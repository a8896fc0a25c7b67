/** Why the app sends the user to /login; the sign-in page says it in a line (features/auth/auth-texts.ts). */
export const LOGIN_REASON_KEYS = ['password-changed', 'session-expired'] as const
export type LoginReason = (typeof LOGIN_REASON_KEYS)[number]

/**
 * Full-page navigation to /login: a fresh page keeps nothing of a session that ended badly. With a reason it
 * goes there even from /login itself, where the guards may already have moved the page when the session ended.
 */
export function redirectToLogin(reason?: LoginReason): void {
  const { pathname, search } = window.location
  const target = reason ? `/login?reason=${reason}` : '/login'
  if (pathname !== '/login' || (reason && search !== `?reason=${reason}`)) window.location.assign(target)
}
