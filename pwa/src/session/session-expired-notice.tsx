/** Shows the Session Expired modal over any screen once the expiry check leaves a notice. */

import { lazyPart } from '../ui/lazy-part.ts'
import { useSession } from './session-context.tsx'

const SessionExpiredModal = lazyPart(() => import('./session-expired-modal.tsx'), 'SessionExpiredModal')

export function SessionExpiredNotice() {
  const notice = useSession((state) => state.expiryNotice)
  // Its own boundary, no fallback (app-routes.tsx): the page under it stays while the modal loads.
  return notice ? <SessionExpiredModal notice={notice} /> : null
}
