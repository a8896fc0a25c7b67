/** Why the app sends the user to /login; the sign-in page says it in a line (features/auth/auth-texts.ts). */
export const LOGIN_REASON_KEYS = ['password-changed', 'session-expired'] as const
export type LoginReason = (typeof LOGIN_REASON_KEYS)[number]

/** Full-page navigation to /login: a fresh page keeps nothing of a session that ended badly. */
export function redirectToLogin(reason?: LoginReason): void {
  if (window.location.pathname !== '/login') window.location.assign(reason ? `/login?reason=${reason}` : '/login')
}
