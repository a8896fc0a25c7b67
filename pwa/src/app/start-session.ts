/** Builds the app's one session and API client and starts their timers (spec part 1 §4). */

import { AUTH_STORAGE_KEY } from '@buble/shared/constants'
import { createApiClient } from '../session/api-client.ts'
import { startExpiryCheck } from '../session/expiry-check.ts'
import { redirectToLogin } from '../session/redirect.ts'
import { startRefreshScheduler } from '../session/refresh-scheduler.ts'
import { createSession } from '../session/session.ts'
import type { SessionServices } from '../session/session-context.tsx'

export function startSession(): SessionServices {
  const fetchFn: typeof fetch = (input, init) => window.fetch(input, init)
  const session = createSession({ storage: window.localStorage, fetch: fetchFn })
  const api = createApiClient({ session, fetch: fetchFn, redirectToLogin })

  // Another tab signed in, out, or refreshed: follow it.
  window.addEventListener('storage', (event) => {
    if (event.key === AUTH_STORAGE_KEY || event.key === null) session.reloadFromStorage()
  })

  void session.initialize().then(() => {
    startExpiryCheck(session)
    startRefreshScheduler(session)
  })
  return { session, api, redirectToLogin }
}
