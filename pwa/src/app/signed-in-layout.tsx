import { User } from '@buble/shared/auth'
import { avatarColour, initials } from '@buble/shared/text'
import { useEffect } from 'react'
import { Link, NavLink, Outlet, useNavigate } from 'react-router-dom'
import { VerificationBanner } from '../features/auth/verification-banner.tsx'
import { useServices, useSession } from '../session/session-context.tsx'

export function SignedInLayout() {
  const { api, session } = useServices()
  const navigate = useNavigate()
  const user = useSession((state) => state.user)

  // Keep the stored user fresh (verified elsewhere, promoted to admin…); offline, the stored copy serves.
  useEffect(() => {
    if (!navigator.onLine) return
    const controller = new AbortController()
    api
      .get('/users/profile', controller.signal)
      .then((answer) => {
        const fresh = User.safeParse(answer)
        if (fresh.success) session.updateUser(fresh.data)
      })
      .catch((err: unknown) => {
        if (!controller.signal.aborted) console.warn('Could not refresh the user', err)
      })
    return () => controller.abort()
  }, [api, session])

  function logout() {
    session.logout()
    navigate('/login', { replace: true })
  }

  const name = user?.name ?? ''
  return (
    <div className="app-shell">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="app-header">
        <div className="app-header-inner">
          <Link to="/dashboard" className="brand" aria-label="Buble, your bubles">
            <img src="/icons/icon.svg" alt="" width="32" height="32" />
            <span>Buble</span>
          </Link>
          <span className="welcome">
            <span className="mini-avatar" style={{ background: avatarColour(name) }} aria-hidden="true">
              {initials(name)}
            </span>
            <span className="welcome-text">
              Welcome, <strong>{name}</strong>
            </span>
          </span>
          <nav className="app-nav" aria-label="Main">
            <NavLink to="/profile" className="nav-link">
              Profile
            </NavLink>
            {user?.role === 'admin' && (
              <NavLink to="/admin" className="nav-link">
                Admin
              </NavLink>
            )}
            <button type="button" className="btn btn-small btn-secondary" onClick={logout}>
              Logout
            </button>
          </nav>
        </div>
      </header>
      <VerificationBanner />
      <main id="main" className="app-main">
        <Outlet />
      </main>
    </div>
  )
}
