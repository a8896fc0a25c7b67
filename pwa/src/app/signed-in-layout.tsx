import { User } from '@buble/shared/auth'
import { Suspense, useEffect } from 'react'
import { Link, NavLink, Outlet } from 'react-router-dom'
import { DataProvider } from '../data/data-context.tsx'
import { useSignOut } from '../data/sign-out.ts'
import { useUnreadBadge } from '../data/unread-badge.ts'
import { VerificationBanner } from '../features/auth/verification-banner.tsx'
import { SyncIndicator } from '../features/sync/sync-indicator.tsx'
import { useServices, useSession } from '../session/session-context.tsx'
import { Avatar } from '../ui/avatar.tsx'
import { Spinner } from '../ui/spinner.tsx'
import { UnsyncedChangesDialog } from '../ui/unsynced-changes-dialog.tsx'

/** The signed-in screens: the user's device data, the header, and the page. */
export function SignedInLayout() {
  return (
    <DataProvider>
      <Shell />
    </DataProvider>
  )
}

function Shell() {
  const { api, session } = useServices()
  const user = useSession((state) => state.user)
  const { signOut, unsynced, keepSignedIn } = useSignOut()
  useUnreadBadge()

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
          <div className="header-meta">
            <span className="welcome">
              {/* The session's user: a new photo shows here as soon as the profile is saved with it. */}
              <Avatar name={name} url={user?.avatar_url ?? null} size={32} alt="" />
              <span className="welcome-text" title={name}>
                Welcome, <strong>{name}</strong>
              </span>
            </span>
            <SyncIndicator />
          </div>
          <nav className="app-nav" aria-label="Main">
            <NavLink to="/profile" className="nav-link">
              Profile
            </NavLink>
            {user?.role === 'admin' && (
              <NavLink to="/admin" className="nav-link">
                Admin
              </NavLink>
            )}
            <button type="button" className="btn btn-small btn-secondary" onClick={() => void signOut()}>
              Logout
            </button>
          </nav>
        </div>
      </header>
      <VerificationBanner />
      <main id="main" className="app-main">
        {/* A page's code loads on its first visit: the header stays while it comes. */}
        <Suspense fallback={<Spinner label="Loading the page…" />}>
          <Outlet />
        </Suspense>
      </main>
      <footer className="app-main muted">
        <Link to="/donate">Donate</Link> · <Link to="/privacy">Privacy</Link>
      </footer>
      {unsynced !== null && (
        <UnsyncedChangesDialog
          count={unsynced}
          onStay={keepSignedIn}
          onSignOut={() => void signOut({ discardUnsynced: true })}
        />
      )}
    </div>
  )
}
