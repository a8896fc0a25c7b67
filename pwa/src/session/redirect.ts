/** Full-page navigation to /login: a fresh page keeps nothing of a session that ended badly. */
export function redirectToLogin(): void {
  if (window.location.pathname !== '/login') window.location.assign('/login')
}
