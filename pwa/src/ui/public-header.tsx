import { Link } from 'react-router-dom'
import { useSession } from '../session/session-context.tsx'

/** The header of the public pages (/privacy, /donate): the brand home link, and the way back in or to sign in. */
export function PublicHeader() {
  const signedIn = useSession((state) => state.isAuthenticated)
  return (
    <header className="public-header">
      <Link to="/" className="brand" aria-label="Buble home">
        <img src="/icons/icon.svg" alt="" width="32" height="32" />
        <span>Buble</span>
      </Link>
      <Link to={signedIn ? '/dashboard' : '/login'} className="btn btn-secondary btn-small">
        {signedIn ? 'Back to your bubles' : 'Sign in'}
      </Link>
    </header>
  )
}
