/**
 * Background refresh (spec part 1 §4): one hour before expiry, or at once when that has passed;
 * without a session, or after an unexpected error, it looks again in 5 minutes. A refused refresh
 * logs the user out and stops it until a new session starts; an unanswered one (offline) is tried again in 5 minutes.
 */

import { REFRESH_THRESHOLD_MS, SCHEDULER_RETRY_MS } from '@buble/shared/constants'
import type { Session } from './session.ts'

// setTimeout fires at once for delays above 2^31 - 1 ms (~24.8 days); longer waits are taken in steps.
const MAX_DELAY_MS = 2 ** 31 - 1

export function startRefreshScheduler(session: Session, now: () => number = Date.now): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null
  let expiry = session.getState().tokenExpiry

  function schedule(delay: number) {
    if (timer !== null) clearTimeout(timer)
    timer = setTimeout(tick, Math.min(Math.max(delay, 0), MAX_DELAY_MS))
  }

  async function tick() {
    timer = null
    try {
      const { isAuthenticated, tokenExpiry } = session.getState()
      if (!isAuthenticated || tokenExpiry === null) return schedule(SCHEDULER_RETRY_MS)
      const wait = tokenExpiry - REFRESH_THRESHOLD_MS - now()
      if (wait > 0) return schedule(wait)
      if (!(await session.refresh())) {
        // Logged out (refused): stop. Unanswered (offline), the session stays: try again later.
        if (session.getState().isAuthenticated) schedule(SCHEDULER_RETRY_MS)
        return
      }
      const renewed = session.getState().tokenExpiry
      schedule(renewed === null ? SCHEDULER_RETRY_MS : renewed - REFRESH_THRESHOLD_MS - now())
    } catch (err) {
      console.warn('Session refresh scheduler failed; retrying in 5 minutes', err)
      schedule(SCHEDULER_RETRY_MS)
    }
  }

  // A new session (login, a refresh from elsewhere, a password change) moves the plan.
  const unsubscribe = session.subscribe(() => {
    const { tokenExpiry } = session.getState()
    if (tokenExpiry === expiry) return
    expiry = tokenExpiry
    if (tokenExpiry !== null) schedule(tokenExpiry - REFRESH_THRESHOLD_MS - now())
  })

  void tick()
  return () => {
    unsubscribe()
    if (timer !== null) clearTimeout(timer)
  }
}
