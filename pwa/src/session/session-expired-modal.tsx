/**
 * The Session Expired modal (spec part 1 §2 and §4); it opens over any screen when the expiry check says so.
 * Loaded when first shown (SessionExpiredNotice): most visits never see it.
 */

import { Modal } from '../ui/modal.tsx'
import { SESSION_MESSAGES, SESSION_NOTICE_TITLES } from './session.ts'
import { useServices, useSession } from './session-context.tsx'

export function SessionExpiredModal({ notice }: { notice: string }) {
  const { session, redirectToLogin } = useServices()
  const refreshing = useSession((state) => state.isRefreshing)

  async function tryRefresh() {
    let refreshed = false
    try {
      refreshed = await session.refresh()
    } catch (err) {
      console.warn('Session refresh failed', err)
    }
    if (refreshed) return session.dismissExpiryNotice()
    // Unanswered (the connection went): the session is kept and the notice stays, to try again.
    if (!navigator.onLine && session.getState().token) return
    session.logout()
    redirectToLogin(notice === SESSION_MESSAGES.expired ? 'session-expired' : undefined)
  }

  function signOut() {
    session.logout()
    session.dismissExpiryNotice()
    redirectToLogin(notice === SESSION_MESSAGES.expired ? 'session-expired' : undefined)
  }

  return (
    <Modal
      title={SESSION_NOTICE_TITLES[notice] ?? 'Session Expired'}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={signOut} disabled={refreshing}>
            Sign Out
          </button>
          <button type="button" className="btn btn-primary" onClick={tryRefresh} disabled={refreshing} data-autofocus>
            {refreshing ? 'Refreshing...' : 'Try to Refresh Session'}
          </button>
        </>
      }
    >
      <p>{notice}</p>
    </Modal>
  )
}
