/** Route guards of spec part 1 §2: signed-in only, signed-out only, and the / redirect. */

import { Navigate, Outlet } from 'react-router-dom'
import { loginPath } from '../session/redirect.ts'
import { signedInLanding } from '../session/return-to.ts'
import { useSession } from '../session/session-context.tsx'
import { FullPageSpinner } from '../ui/spinner.tsx'

function useAuthStatus() {
  const initialized = useSession((state) => state.isInitialized)
  const signedIn = useSession((state) => state.isAuthenticated)
  return { initialized, signedIn }
}

export function RequireAuth() {
  const { initialized, signedIn } = useAuthStatus()
  if (!initialized) return <FullPageSpinner />
  // A session that has just ended goes where redirectToLogin sends it, its reason included.
  return signedIn ? <Outlet /> : <Navigate to={loginPath()} replace />
}

export function SignedOutOnly() {
  const { initialized, signedIn } = useAuthStatus()
  if (!initialized) return <FullPageSpinner />
  // Where the sign-in just made chose to land (a join link, an invite's buble), else the dashboard.
  return signedIn ? <Navigate to={signedInLanding()} replace /> : <Outlet />
}

export function HomeRedirect() {
  const { initialized, signedIn } = useAuthStatus()
  if (!initialized) return <FullPageSpinner />
  return <Navigate to={signedIn ? '/dashboard' : '/login'} replace />
}
