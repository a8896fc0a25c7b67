/**
 * The persisted `auth-storage` record (spec part 1 §3). Stored as `{"state": {...}, "version": 0}`,
 * the shape zustand's persist middleware writes, so a later switch to it keeps sessions.
 */

import { User } from '@buble/shared/auth'
import { AUTH_STORAGE_KEY } from '@buble/shared/constants'

export interface PersistedSession {
  user: User | null
  token: string | null
  isAuthenticated: boolean
  /** Epoch milliseconds. */
  tokenExpiry: number | null
  /** Written as false: a fresh page always initialises again. */
  isInitialized: boolean
}

export const STORAGE_VERSION = 0

export const EMPTY_SESSION: PersistedSession = Object.freeze({
  user: null,
  token: null,
  isAuthenticated: false,
  tokenExpiry: null,
  isInitialized: false,
})

/** The stored session, or an empty one when nothing (or something unreadable) is stored. */
export function readStoredSession(storage: Storage): PersistedSession {
  try {
    const raw = storage.getItem(AUTH_STORAGE_KEY)
    if (!raw) return EMPTY_SESSION
    const state = (JSON.parse(raw) as { state?: Record<string, unknown> }).state ?? {}
    const user = User.safeParse(state.user)
    return {
      user: user.success ? user.data : null,
      token: typeof state.token === 'string' && state.token ? state.token : null,
      isAuthenticated: state.isAuthenticated === true,
      tokenExpiry:
        typeof state.tokenExpiry === 'number' && Number.isFinite(state.tokenExpiry) ? state.tokenExpiry : null,
      isInitialized: false,
    }
  } catch {
    // A hand-edited or foreign value must not break the app: start signed out.
    return EMPTY_SESSION
  }
}

export function writeStoredSession(storage: Storage, session: PersistedSession): void {
  const state: PersistedSession = {
    user: session.user,
    token: session.token,
    isAuthenticated: session.isAuthenticated,
    tokenExpiry: session.tokenExpiry,
    isInitialized: false,
  }
  try {
    storage.setItem(AUTH_STORAGE_KEY, JSON.stringify({ state, version: STORAGE_VERSION }))
  } catch (err) {
    // Private mode or a full quota: the session still works for this page.
    console.warn('Could not persist the session', err)
  }
}
