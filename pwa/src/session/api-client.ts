/**
 * The one way the app calls the API, with the request rules of spec part 1 §7: the token check
 * before a request, the Bearer header, one refresh-and-retry on a 401, and ApiError for failures.
 */

import { SESSION_ENDED_MESSAGE, SESSION_REVOKED_MESSAGE } from '@buble/shared/auth'
import { API_BASE, REFRESH_THRESHOLD_MS } from '@buble/shared/constants'
import { ErrorBody } from '@buble/shared/errors'
import type { LoginReason } from './redirect.ts'
import { browserOnline, SESSION_MESSAGES, type Session, SessionError } from './session.ts'

/** A non-2xx answer. `message` is the server's text, or '' when it sent none. */
export class ApiError extends Error {
  override name = 'ApiError'
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: ErrorBody['issues'] = undefined,
    /** The answer's Retry-After header (a 429, or a 503 while the server's database is down). */
    readonly retryAfter: string | null = null,
  ) {
    super(message)
  }
}

/** What a screen shows for a failure: the server's message when it gave one, else the screen's fallback. */
export function messageOf(err: unknown, fallback: string): string {
  if (err instanceof ApiError || err instanceof SessionError) return err.message || fallback
  return fallback
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** Sent as JSON. */
  json?: unknown
  /** Sent as multipart; the browser sets the boundary. */
  form?: FormData
  signal?: AbortSignal
  /**
   * The fetch's priority. The live stream asks for 'low': it never ends, and a page load (and
   * Lighthouse) waits for every high-priority request to finish.
   */
  priority?: RequestPriority
  /** The request outlives the page (a sign-out told to the server as the app moves on). */
  keepalive?: boolean
  /** Headers of the caller's own (the buble a file belongs to, say); never the token or Accept. */
  headers?: Record<string, string>
}

export interface ApiClientDeps {
  session: Session
  fetch: typeof fetch
  /** A full-page move to /login: nothing of the failed session should survive in memory. The reason is shown there. */
  redirectToLogin: (reason?: LoginReason) => void
  /** Whether the device has a connection (navigator.onLine). */
  online?: () => boolean
}

/** What a call made offline with an expired token throws: like fetch without a connection, so callers wait. */
export const OFFLINE_EXPIRED = 'Offline: the expired session waits for a connection'

export type ApiClient = ReturnType<typeof createApiClient>

// The auth calls and complete-registration work without a session (spec part 1 §6).
// Calls anyone may make: no token is sent, so an expired session does not end on the way (the public /donate page).
// An invite code's preview too (not its /accept).
const isOpenPath = (path: string) =>
  path.includes('/auth/') ||
  path.includes('/bubles/complete-registration') ||
  path.includes('/donations/') ||
  /\/bubles\/invites\/[^/]+$/.test(path)

// Accepts '/users/profile' as well as '/api/uploads/secure/…' (how the server writes avatar URLs).
const urlOf = (path: string) => (path.startsWith(`${API_BASE}/`) ? path : `${API_BASE}${path}`)

async function toApiError(res: Response): Promise<ApiError> {
  let body: unknown = null
  try {
    body = await res.json()
  } catch {
    // Not JSON (a proxy's error page, say): fall back to the status alone.
  }
  const parsed = ErrorBody.safeParse(body)
  const retryAfter = res.headers.get('retry-after')
  if (parsed.success)
    return new ApiError(res.status, parsed.data.code, parsed.data.message, parsed.data.issues, retryAfter)
  return new ApiError(res.status, `HTTP_${res.status}`, '', undefined, retryAfter)
}

export function createApiClient({ session, fetch: fetchFn, redirectToLogin, online = browserOnline }: ApiClientDeps) {
  function endSession(message: string, reason?: LoginReason): never {
    session.logout()
    redirectToLogin(reason)
    throw new SessionError(message)
  }

  async function tokenFor(path: string): Promise<string | null> {
    if (isOpenPath(path)) return null
    const { token } = session.getState()
    // Signed out (a sync call or a stream that outlived the sign-out, say): nothing to send, since
    // the server could only answer 401, and the browser would log it as an error.
    if (!token) throw new SessionError(SESSION_MESSAGES.signedOut)
    const left = session.timeLeft() ?? 0
    if (left <= 0) {
      // Offline nothing could be refreshed or signed in: the session (and the queue) waits for a connection,
      // and the call fails as fetch would without one (a TypeError: the sync engine retries later).
      if (!online()) throw new TypeError(OFFLINE_EXPIRED)
      endSession(SESSION_MESSAGES.tokenExpired, 'session-expired')
    }
    if (left < REFRESH_THRESHOLD_MS) {
      if (await session.refresh()) return session.getState().token
      // Unanswered (the session and its token are still there): the token still holds for a while.
      const kept = session.getState().token
      if (kept) return kept
      endSession(SESSION_MESSAGES.refreshFailed)
    }
    return token
  }

  function send(path: string, options: RequestOptions, token: string | null): Promise<Response> {
    const headers: Record<string, string> = { ...options.headers, Accept: 'application/json' }
    if (token) headers.Authorization = `Bearer ${token}`
    let body: BodyInit | undefined
    if (options.form) body = options.form
    else if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json'
      body = JSON.stringify(options.json)
    }
    const { signal, priority, keepalive } = options
    return fetchFn(urlOf(path), {
      method: options.method ?? 'GET',
      headers,
      body,
      signal,
      ...(priority ? { priority } : {}),
      ...(keepalive ? { keepalive } : {}),
    })
  }

  /** The raw answer of a successful call; throws ApiError or SessionError otherwise. */
  async function exchange(path: string, options: RequestOptions = {}): Promise<Response> {
    const used = await tokenFor(path)
    let res = await send(path, options, used)
    if (res.status === 401 && !isOpenPath(path)) {
      // The token changed while this call was out (a password change issues a new one and revokes
      // the old): the call is retried with the new one, and the session goes on.
      const current = session.getState().token
      if (current && current !== used) res = await send(path, options, current)
      // Read before the refresh: a failed refresh ends the session, which aborts a call tied to it (the live
      // stream), and its body, which says why, could not be read any more.
      let error = res.status === 401 ? await toApiError(res) : null
      if (error && (await session.refresh())) {
        res = await send(path, options, session.getState().token)
        error = res.status === 401 ? await toApiError(res) : null
      }
      if (error) {
        session.logout()
        // A new password revoked the token (set here, elsewhere or by an admin), or this session was
        // signed out from another device: the sign-in page says so.
        redirectToLogin(
          error.message === SESSION_REVOKED_MESSAGE
            ? 'password-changed'
            : error.message === SESSION_ENDED_MESSAGE
              ? 'signed-out'
              : undefined,
        )
        throw error
      }
    }
    if (!res.ok) throw await toApiError(res)
    return res
  }

  async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
    const res = await exchange(path, options)
    const text = await res.text()
    return (text ? JSON.parse(text) : undefined) as T
  }

  return {
    request,
    get: <T>(path: string, signal?: AbortSignal) => request<T>(path, { signal }),
    post: <T>(path: string, json?: unknown) => request<T>(path, { method: 'POST', json }),
    put: <T>(path: string, json?: unknown) => request<T>(path, { method: 'PUT', json }),
    patch: <T>(path: string, json?: unknown) => request<T>(path, { method: 'PATCH', json }),
    delete: <T>(path: string, json?: unknown) => request<T>(path, { method: 'DELETE', json }),
    upload: <T>(path: string, form: FormData) => request<T>(path, { method: 'POST', form }),
    /**
     * A protected file (an avatar, say) as a Blob: an <img src> could not send the Bearer header.
     * `headers` say more of it to the service worker (file-cache.ts: the buble it belongs to).
     */
    blob: async (path: string, signal?: AbortSignal, headers?: Record<string, string>) =>
      (await exchange(path, { signal, ...(headers ? { headers } : {}) })).blob(),
    /** The raw answer of a long-lived call (the live stream), after the same token rules. */
    open: (path: string, signal?: AbortSignal) => exchange(path, { signal, priority: 'low' }),
    /**
     * The raw answer of a successful call, its body unread: for a caller that must tell an answer
     * cut off while read (the sync engine: the server answered) from no answer at all.
     */
    exchange: (path: string, options: RequestOptions = {}) => exchange(path, options),
    /**
     * Ends on the server the session `token` belonged to, once this device has let it go: no call of
     * the app can carry that token after the server ended it (its 401 would read as a sign-out from
     * another device). Nothing to wait for: a failure (offline) leaves it to expire (decision 103).
     */
    endServerSession: (token: string): Promise<void> =>
      send('/users/sessions/current', { method: 'DELETE', keepalive: true }, token).then(
        () => {},
        () => {},
      ),
  }
}
