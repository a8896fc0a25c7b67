import { SESSION_ENDED_MESSAGE, SESSION_REVOKED_MESSAGE } from '@buble/shared/auth'
import { SESSION_LIFETIME_MS } from '@buble/shared/constants'
import { beforeEach, describe, expect, test, vi } from 'vitest'
import { fakeFetch, json, type Reply } from '../test/fake-fetch.ts'
import { alice } from '../test/fixtures.ts'
import { ApiError, createApiClient, messageOf } from './api-client.ts'
import { createSession, SessionError } from './session.ts'

const NOW = new Date('2025-06-01T12:00:00Z').getTime()
const MINUTE = 60 * 1000
const REFRESH = 'POST /api/auth/refresh-token'
const PROFILE = 'GET /api/users/profile'
const unauthorized = () => json(401, { message: 'Unauthorized', code: 'UNAUTHORIZED' })

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] })
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})

/** A signed-in client whose token has `left` ms to live. */
function setup(routes: Record<string, Reply | Reply[]>, left = SESSION_LIFETIME_MS, online = true) {
  const server = fakeFetch(routes)
  const session = createSession({ storage: localStorage, fetch: server.fetch, online: () => online })
  session.signIn({ access_token: 'jwt', user: alice })
  vi.setSystemTime(NOW + SESSION_LIFETIME_MS - left)
  const redirectToLogin = vi.fn()
  const api = createApiClient({ session, fetch: server.fetch, redirectToLogin, online: () => online })
  return { server, session, api, redirectToLogin }
}

describe('before a request', () => {
  test('attaches the Bearer token and sends JSON under /api', async () => {
    const { server, api } = setup({ 'PUT /api/users/profile': json(200, alice) })
    await expect(api.put('/users/profile', { name: 'Alice' })).resolves.toEqual(alice)
    expect(server.calls[0]).toMatchObject({
      url: '/api/users/profile',
      headers: { Authorization: 'Bearer jwt', 'Content-Type': 'application/json' },
      body: { name: 'Alice' },
    })
  })

  test('the live stream is fetched at low priority (a page load waits for every high-priority request), other calls as usual', async () => {
    const { server, api } = setup({ 'GET /api/stream': json(200, {}), 'GET /api/users/profile': json(200, alice) })
    await api.open('/stream')
    await api.get('/users/profile')
    expect(server.calls.map((call) => call.priority)).toEqual(['low', undefined])
  })

  test('an expired token logs out, redirects to /login and rejects with "Token expired"', async () => {
    const { server, session, api, redirectToLogin } = setup({}, -1)
    await expect(api.get('/users/profile')).rejects.toThrow(new SessionError('Token expired'))
    expect(server.calls).toHaveLength(0)
    expect(session.getState().isAuthenticated).toBe(false)
    expect(redirectToLogin).toHaveBeenCalledExactlyOnceWith('session-expired')
  })

  test('offline, an expired token keeps the session: the call fails as fetch does without a connection', async () => {
    const { server, session, api, redirectToLogin } = setup({}, -1, false)
    const failure = await api.get('/sync/pull?limit=500').catch((err: unknown) => err)
    expect(failure).toBeInstanceOf(TypeError)
    expect(server.calls).toHaveLength(0)
    expect(session.getState()).toMatchObject({ isAuthenticated: true, token: 'jwt' })
    expect(redirectToLogin).not.toHaveBeenCalled()
  })

  test('under an hour left and the refresh unanswered: the call goes with the token it has, the session stays', async () => {
    const { server, session, api, redirectToLogin } = setup(
      { [REFRESH]: new TypeError('Failed to fetch'), [PROFILE]: json(200, alice) },
      59 * MINUTE,
    )
    await expect(api.get('/users/profile')).resolves.toEqual(alice)
    expect(server.calls.map((c) => `${c.method} ${c.url}`)).toEqual([REFRESH, PROFILE])
    expect(server.calls[1]?.headers.Authorization).toBe('Bearer jwt')
    expect(session.getState()).toMatchObject({ isAuthenticated: true, token: 'jwt' })
    expect(redirectToLogin).not.toHaveBeenCalled()
  })

  test('signed out, a protected call is not sent (it could only be a 401); an open one still is', async () => {
    const { server, session, api, redirectToLogin } = setup({ 'GET /api/donations/config': json(200, {}) })
    session.logout()
    await expect(api.get('/sync/pull?limit=500')).rejects.toThrow(new SessionError('Not signed in'))
    await expect(api.get('/donations/config')).resolves.toEqual({})
    expect(server.calls.map((c) => `${c.method} ${c.url}`)).toEqual(['GET /api/donations/config'])
    expect(server.calls[0]?.headers.Authorization).toBeUndefined()
    expect(redirectToLogin).not.toHaveBeenCalled()
  })

  test('under an hour left: refreshes first, then sends with the new token', async () => {
    const { server, session, api } = setup(
      { [REFRESH]: json(200, { access_token: 'fresh' }), [PROFILE]: json(200, alice) },
      59 * MINUTE,
    )
    await api.get('/users/profile')
    expect(server.calls.map((c) => `${c.method} ${c.url}`)).toEqual([REFRESH, PROFILE])
    expect(server.calls[0]?.headers.Authorization).toBe('Bearer jwt')
    expect(server.calls[1]?.headers.Authorization).toBe('Bearer fresh')
    expect(session.getState().tokenExpiry).toBe(Date.now() + SESSION_LIFETIME_MS)
  })

  test('under an hour left and the refresh fails: logs out, redirects, rejects with "Token refresh failed"', async () => {
    const { server, session, api, redirectToLogin } = setup({ [REFRESH]: unauthorized() }, 59 * MINUTE)
    await expect(api.get('/users/profile')).rejects.toThrow(new SessionError('Token refresh failed'))
    expect(server.callsTo(PROFILE)).toHaveLength(0)
    expect(session.getState().isAuthenticated).toBe(false)
    expect(redirectToLogin).toHaveBeenCalledTimes(1)
  })

  test.each([
    ['/auth/login', 'POST /api/auth/login'],
    ['/bubles/complete-registration', 'POST /api/bubles/complete-registration'],
  ])('%s skips the token rules, even with the token expired', async (path, key) => {
    const { server, api, redirectToLogin } = setup({ [key]: json(200, { ok: true }) }, -1)
    await expect(api.post(path, {})).resolves.toEqual({ ok: true })
    expect(server.calls[0]?.headers.Authorization).toBeUndefined()
    expect(redirectToLogin).not.toHaveBeenCalled()
  })

  test('a full /api/… path (an avatar URL) is used as it is', async () => {
    const { server, api } = setup({ 'GET /api/uploads/secure/a.png': new Response('png') })
    const blob = await api.blob('/api/uploads/secure/a.png')
    expect(await blob.text()).toBe('png')
    expect(server.calls[0]?.headers.Authorization).toBe('Bearer jwt')
  })
})

describe('on a 401 answer', () => {
  test('refreshes and retries the request once with the new token', async () => {
    const { server, api, redirectToLogin } = setup({
      [PROFILE]: [unauthorized(), json(200, alice)],
      [REFRESH]: json(200, { access_token: 'fresh' }),
    })
    await expect(api.get('/users/profile')).resolves.toEqual(alice)
    expect(server.calls.map((c) => c.headers.Authorization)).toEqual(['Bearer jwt', 'Bearer jwt', 'Bearer fresh'])
    expect(redirectToLogin).not.toHaveBeenCalled()
  })

  test('a call that went out just before the token changed is retried with the new one, and the session goes on', async () => {
    const server = fakeFetch({ [PROFILE]: [unauthorized(), json(200, alice)], [REFRESH]: unauthorized() })
    const session = createSession({ storage: localStorage, fetch: server.fetch })
    session.signIn({ access_token: 'jwt', user: alice })
    const redirectToLogin = vi.fn()
    // A password change answers while the profile call is out: the old token is revoked, a new one stored.
    const racing: typeof fetch = async (input, init) => {
      const answer = await server.fetch(input, init)
      if (server.callsTo(PROFILE).length === 1) session.signIn({ access_token: 'after-password-change', user: alice })
      return answer
    }
    const api = createApiClient({ session, fetch: racing, redirectToLogin })
    await expect(api.get('/users/profile')).resolves.toEqual(alice)
    expect(server.calls.map((c) => c.headers.Authorization)).toEqual(['Bearer jwt', 'Bearer after-password-change'])
    expect(session.getState().isAuthenticated).toBe(true)
    expect(redirectToLogin).not.toHaveBeenCalled()
  })

  test('a second 401 after the retry logs out and redirects', async () => {
    const { server, session, api, redirectToLogin } = setup({
      [PROFILE]: unauthorized(),
      [REFRESH]: json(200, { access_token: 'fresh' }),
    })
    await expect(api.get('/users/profile')).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' })
    expect(server.callsTo(PROFILE)).toHaveLength(2)
    expect(session.getState().isAuthenticated).toBe(false)
    expect(redirectToLogin).toHaveBeenCalledTimes(1)
  })

  test('a token revoked by a new password sends the user to /login with the reason; other 401s without one', async () => {
    const revoked = () => json(401, { message: SESSION_REVOKED_MESSAGE, code: 'UNAUTHORIZED' })
    const { session, api, redirectToLogin } = setup({ [PROFILE]: revoked(), [REFRESH]: revoked() })
    await expect(api.get('/users/profile')).rejects.toMatchObject({ status: 401, message: SESSION_REVOKED_MESSAGE })
    expect(session.getState().isAuthenticated).toBe(false)
    expect(redirectToLogin).toHaveBeenCalledExactlyOnceWith('password-changed')

    const other = setup({ [PROFILE]: unauthorized(), [REFRESH]: unauthorized() })
    await expect(other.api.get('/users/profile')).rejects.toMatchObject({ status: 401 })
    expect(other.redirectToLogin).toHaveBeenCalledExactlyOnceWith(undefined)
  })

  test('a session signed out from another device sends the user to /login saying so', async () => {
    const ended = () => json(401, { message: SESSION_ENDED_MESSAGE, code: 'UNAUTHORIZED' })
    const { session, api, redirectToLogin } = setup({ [PROFILE]: ended(), [REFRESH]: ended() })
    await expect(api.get('/users/profile')).rejects.toMatchObject({ status: 401, message: SESSION_ENDED_MESSAGE })
    expect(session.getState().isAuthenticated).toBe(false)
    expect(redirectToLogin).toHaveBeenCalledExactlyOnceWith('signed-out')
  })

  test('the live stream refused for a new password still says why, though ending the session aborts it', async () => {
    const revoked = { message: SESSION_REVOKED_MESSAGE, code: 'UNAUTHORIZED' }
    // The stream's body can only be read while its session lasts: a failed refresh ends the session and aborts it.
    const fetchFn = vi.fn(async (url: string) => {
      if (url.endsWith('/auth/refresh-token')) return json(401, revoked)
      const res = json(401, revoked)
      const read = res.json.bind(res)
      res.json = () => (session.getState().token ? read() : Promise.reject(new DOMException('', 'AbortError')))
      return res
    }) as unknown as typeof fetch
    const session = createSession({ storage: localStorage, fetch: fetchFn, online: () => true })
    session.signIn({ access_token: 'jwt', user: alice })
    const redirectToLogin = vi.fn()
    const api = createApiClient({ session, fetch: fetchFn, redirectToLogin, online: () => true })
    await expect(api.open('/stream')).rejects.toMatchObject({ status: 401, message: SESSION_REVOKED_MESSAGE })
    expect(session.getState().token).toBeNull()
    expect(redirectToLogin).toHaveBeenCalledExactlyOnceWith('password-changed')
  })

  test('a failed refresh logs out and redirects without retrying', async () => {
    const { server, session, api, redirectToLogin } = setup({ [PROFILE]: unauthorized(), [REFRESH]: unauthorized() })
    await expect(api.get('/users/profile')).rejects.toBeInstanceOf(ApiError)
    expect(server.callsTo(PROFILE)).toHaveLength(1)
    expect(session.getState().isAuthenticated).toBe(false)
    expect(redirectToLogin).toHaveBeenCalledTimes(1)
  })

  test('a 401 from a sign-in call is just an error (wrong password), not a session failure', async () => {
    const { server, session, api, redirectToLogin } = setup({
      'POST /api/auth/login': json(401, { message: 'Invalid email or password', code: 'INVALID_CREDENTIALS' }),
    })
    await expect(api.post('/auth/login', {})).rejects.toMatchObject({ message: 'Invalid email or password' })
    expect(server.calls).toHaveLength(1)
    expect(session.getState().isAuthenticated).toBe(true)
    expect(redirectToLogin).not.toHaveBeenCalled()
  })
})

describe('failures', () => {
  test('a non-2xx answer becomes ApiError {status, code, message, issues}', async () => {
    const issues = [{ path: 'name', message: 'Name must be at least 2 characters' }]
    const { api } = setup({
      'PUT /api/users/profile': json(400, { message: issues[0]!.message, code: 'VALIDATION_ERROR', issues }),
    })
    const error = await api.put('/users/profile', { name: 'A' }).catch((err: unknown) => err)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', message: issues[0]!.message, issues })
  })

  test('a body that is not the error shape keeps the status with an empty message', async () => {
    const { api } = setup({ [PROFILE]: new Response('<html>Bad gateway</html>', { status: 502 }) })
    const error = await api.get('/users/profile').catch((err: unknown) => err)
    expect(error).toMatchObject({ status: 502, code: 'HTTP_502', message: '' })
  })

  test('a 204 answer resolves to undefined', async () => {
    const { api } = setup({ 'DELETE /api/bubles/1': new Response(null, { status: 204 }) })
    await expect(api.delete('/bubles/1')).resolves.toBeUndefined()
  })

  test.each([
    ['a server message', new ApiError(409, 'CONFLICT', 'Email already registered'), 'Email already registered'],
    ['an empty server message', new ApiError(502, 'HTTP_502', ''), 'Fallback'],
    ['a client-side session failure', new SessionError('Token expired'), 'Token expired'],
    ['a network error', new TypeError('Failed to fetch'), 'Fallback'],
  ])('messageOf shows %s', (_case, err, shown) => {
    expect(messageOf(err, 'Fallback')).toBe(shown)
  })
})
