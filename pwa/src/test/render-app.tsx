import type { User } from '@buble/shared/auth'
import { SESSION_LIFETIME_MS } from '@buble/shared/constants'
import { render } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router-dom'
import { vi } from 'vitest'
import { AppRoutes } from '../app/app-routes.tsx'
import { DeviceOpenerContext } from '../data/data-context.tsx'
import { createApiClient } from '../session/api-client.ts'
import { createSession } from '../session/session.ts'
import { SessionProvider } from '../session/session-context.tsx'
import { writeStoredSession } from '../session/storage.ts'
import { fakeFetch, type Reply } from './fake-fetch.ts'
import { type TestServer, testDeviceOpener } from './test-device.ts'

interface RenderAppOptions {
  route: string
  /** What the device's sync server does (rows to start with, answers to pushes). */
  server?: TestServer
  /** Signed in as this user (a fresh 7-day session); signed out when left out. */
  user?: User
  api?: Record<string, Reply | Reply[]>
  /** False: the session is stored but initialize() has not run yet (the app is still loading). */
  initialized?: boolean
  /** Fake timers need user-event to advance them. */
  advanceTimers?: (ms: number) => unknown
}

/** The whole app at one route, with a scripted API and a spy in place of the full-page redirect. */
export function renderApp({ route, user, api = {}, server, initialized = true, advanceTimers }: RenderAppOptions) {
  const rest = fakeFetch(api)
  if (user && !initialized) {
    const tokenExpiry = Date.now() + SESSION_LIFETIME_MS
    writeStoredSession(localStorage, {
      user,
      token: 'token-1',
      isAuthenticated: true,
      tokenExpiry,
      isInitialized: false,
    })
  }
  const session = createSession({ storage: localStorage, fetch: rest.fetch })
  if (initialized && user) session.signIn({ access_token: 'token-1', user })
  else if (initialized) session.logout()
  const redirectToLogin = vi.fn()
  const client = createApiClient({ session, fetch: rest.fetch, redirectToLogin })
  const device = testDeviceOpener(server)
  const view = render(
    <SessionProvider services={{ session, api: client, redirectToLogin }}>
      <DeviceOpenerContext value={device.open}>
        <MemoryRouter initialEntries={[route]}>
          <AppRoutes />
        </MemoryRouter>
      </DeviceOpenerContext>
    </SessionProvider>,
  )
  return {
    ...rest,
    ...view,
    session,
    redirectToLogin,
    device: device.handle,
    user: userEvent.setup(advanceTimers ? { advanceTimers } : {}),
  }
}
