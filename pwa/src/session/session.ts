/**
 * The sign-in session of spec part 1 §4: state, persistence, refresh and the expiry notice.
 * No React here; components read it through session-context.tsx.
 */

import { AuthResponse, RefreshResponse, type User } from '@buble/shared/auth'
import { API_BASE, REFRESH_THRESHOLD_MS, SESSION_LIFETIME_MS } from '@buble/shared/constants'
import { EMPTY_SESSION, type PersistedSession, readStoredSession, writeStoredSession } from './storage.ts'

export const SESSION_MESSAGES = {
  expired: 'Your session has expired. Please log in again.',
  expiringSoon: 'Your session will expire soon. Would you like to refresh it?',
  invalidResponse: 'Invalid response from server',
  tokenExpired: 'Token expired',
  refreshFailed: 'Token refresh failed',
  signedOut: 'Not signed in',
} as const

/**
 * The Session Expired modal's title for each notice, so that title and text agree: the spec's 'Session Expired'
 * once the token has expired, and before that a title that says it has not yet (decision 87).
 */
export const SESSION_NOTICE_TITLES: Readonly<Record<string, string>> = {
  [SESSION_MESSAGES.expired]: 'Session Expired',
  [SESSION_MESSAGES.expiringSoon]: 'Session Expiring Soon',
}

export interface SessionState extends PersistedSession {
  isRefreshing: boolean
  /** The Session Expired modal is open while this holds its message. */
  expiryNotice: string | null
}

/** A failure the client decides on its own (no server answer behind it); its message is for the user. */
export class SessionError extends Error {
  override name = 'SessionError'
}

export interface SessionDeps {
  storage: Storage
  fetch: typeof fetch
  now?: () => number
  /** Whether the device has a connection (navigator.onLine); offline, the expiry notice waits. */
  online?: () => boolean
}

/** The browser's word on the connection; true where there is none to ask (tests, workers without navigator). */
export const browserOnline = (): boolean => globalThis.navigator?.onLine !== false

export type Session = ReturnType<typeof createSession>

export function createSession({ storage, fetch: fetchFn, now = Date.now, online = browserOnline }: SessionDeps) {
  let state: SessionState = { ...readStoredSession(storage), isRefreshing: false, expiryNotice: null }
  const listeners = new Set<() => void>()
  let refreshing: Promise<boolean> | null = null

  function set(patch: Partial<SessionState>, persist = true) {
    state = { ...state, ...patch }
    if (persist) writeStoredSession(storage, state)
    for (const listener of listeners) listener()
  }

  function logout() {
    set({ ...EMPTY_SESSION, isInitialized: true, isRefreshing: false, expiryNotice: null })
  }

  async function requestRefresh(): Promise<boolean> {
    const { token } = state
    if (!token) return false
    set({ isRefreshing: true }, false)
    let res: Response
    try {
      // refresh-token lives under /auth/ yet needs the Bearer token (CONTRACT §2), so it bypasses the client rules.
      res = await fetchFn(`${API_BASE}/auth/refresh-token`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
      })
    } catch (err) {
      // No answer at all (offline, say): nobody refused the session, so it stays, with the device's data and
      // queue, until the server can be asked again. The caller sees false with the token still there.
      console.warn('Session refresh failed: the server could not be reached', err)
      set({ isRefreshing: false }, false)
      return false
    }
    try {
      if (!res.ok) throw new Error(`refresh answered ${res.status}`)
      const { access_token } = RefreshResponse.parse(await res.json())
      set({ token: access_token, tokenExpiry: now() + SESSION_LIFETIME_MS, isRefreshing: false })
      return true
    } catch (err) {
      // Spec part 1 §8: refresh failures are only logged.
      console.warn('Session refresh failed', err)
      logout()
      return false
    }
  }

  function refresh(): Promise<boolean> {
    refreshing ??= requestRefresh().finally(() => {
      refreshing = null
    })
    return refreshing
  }

  return {
    getState: (): SessionState => state,

    subscribe(listener: () => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },

    /** Milliseconds until the token expires (negative once it has), or null without a session. */
    timeLeft(): number | null {
      return state.tokenExpiry === null ? null : state.tokenExpiry - now()
    },

    /** Stores the answer of login, register or complete-registration; refuses one without token or user. */
    signIn(response: unknown): User {
      const parsed = AuthResponse.safeParse(response)
      if (!parsed.success) throw new SessionError(SESSION_MESSAGES.invalidResponse)
      const { access_token, user } = parsed.data
      set({
        user,
        token: access_token,
        isAuthenticated: true,
        tokenExpiry: now() + SESSION_LIFETIME_MS,
        isInitialized: true,
        expiryNotice: null,
      })
      return user
    },

    logout,

    /**
     * Swaps the token for a new one and restarts the 7-day clock. Resolves false when it fails: logged out when
     * the server refused, the session kept as it was (token still there) when the server could not be reached.
     */
    refresh,

    /** A fresh token from another call (a password change revokes the old ones). */
    replaceToken(token: string) {
      set({ token, tokenExpiry: now() + SESSION_LIFETIME_MS })
    },

    updateUser(user: User) {
      if (state.isAuthenticated) set({ user })
    },

    async initialize(): Promise<void> {
      const { token, user, tokenExpiry } = state
      if (!token || !user || tokenExpiry === null) return logout()
      if (tokenExpiry <= now()) {
        // refresh() logs out when refused, which also marks the session initialised. Unanswered (offline),
        // the expired session stays: the device's data stays readable and its queue waits, and the sign-in
        // is asked for once the server can be reached (checkExpiry, the API client).
        if ((await refresh()) || state.token !== null) set({ isAuthenticated: true, isInitialized: true })
        return
      }
      set({ isAuthenticated: true, isInitialized: true })
    },

    /**
     * Opens the Session Expired modal when the token has expired or less than an hour is left. Offline it
     * waits (neither refreshing nor signing in again could work yet); expiry-check.ts checks again on `online`.
     */
    checkExpiry() {
      if (!state.isAuthenticated || state.tokenExpiry === null || !online()) return
      const left = state.tokenExpiry - now()
      const notice =
        left <= 0 ? SESSION_MESSAGES.expired : left < REFRESH_THRESHOLD_MS ? SESSION_MESSAGES.expiringSoon : null
      if (notice && notice !== state.expiryNotice) set({ expiryNotice: notice }, false)
    },

    dismissExpiryNotice() {
      if (state.expiryNotice !== null) set({ expiryNotice: null }, false)
    },

    /** Picks up a change another tab wrote to storage. */
    reloadFromStorage() {
      const stored = readStoredSession(storage)
      const sameSession = stored.token === state.token
      set(
        {
          ...stored,
          isAuthenticated: stored.isAuthenticated && stored.token !== null,
          isInitialized: state.isInitialized,
          expiryNotice: sameSession ? state.expiryNotice : null,
        },
        false,
      )
    },
  }
}
