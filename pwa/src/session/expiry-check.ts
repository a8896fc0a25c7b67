/** Checks the session expiry at once and every 60 s while signed in (spec part 1 §4), and on coming back online. */

import { EXPIRY_CHECK_INTERVAL_MS } from '@buble/shared/constants'
import type { Session } from './session.ts'

export function startExpiryCheck(session: Session): () => void {
  let timer: ReturnType<typeof setInterval> | null = null

  const sync = () => {
    const { isAuthenticated } = session.getState()
    if (isAuthenticated && timer === null) {
      // Set the timer first: checkExpiry notifies subscribers, which lands back here.
      timer = setInterval(() => session.checkExpiry(), EXPIRY_CHECK_INTERVAL_MS)
      session.checkExpiry()
    } else if (!isAuthenticated && timer !== null) {
      clearInterval(timer)
      timer = null
    }
  }

  sync()
  const unsubscribe = session.subscribe(sync)
  // Offline the check waits (session.ts); back online, it looks at once.
  const onOnline = () => session.checkExpiry()
  globalThis.addEventListener?.('online', onOnline)
  return () => {
    unsubscribe()
    globalThis.removeEventListener?.('online', onOnline)
    if (timer !== null) clearInterval(timer)
  }
}
