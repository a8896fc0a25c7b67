/**
 * The Session Expired modal (spec part 1 §2 and §4); it opens over any screen when the expiry check says so.
 * Loaded when first shown (SessionExpiredNotice): most visits never see it.
 */

import { Modal } from '../ui/modal.tsx'
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
    session.logout()
    redirectToLogin()
  }

  function signOut() {
    session.logout()
    session.dismissExpiryNotice()
    redirectToLogin()
  }

  return (
    <Modal
      title="Session Expired"
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
