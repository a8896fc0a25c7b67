import { AUTH_STORAGE_KEY, SESSION_LIFETIME_MS } from '@buble/shared/constants'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { fakeFetch, json } from '../test/fake-fetch.ts'
import { alice } from '../test/fixtures.ts'
import { createSession, SESSION_MESSAGES } from './session.ts'
import { writeStoredSession } from './storage.ts'

const NOW = new Date('2025-06-01T12:00:00Z').getTime()
const HOUR = 60 * 60 * 1000

beforeEach(() => {
  vi.useFakeTimers({ now: NOW })
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(() => vi.useRealTimers())

const stored = () => JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY)!).state

function storeSession(tokenExpiry: number) {
  writeStoredSession(localStorage, {
    user: alice,
    token: 'old',
    isAuthenticated: true,
    tokenExpiry,
    isInitialized: false,
  })
}

describe('signing in', () => {
  test('stores user and token, marks authenticated and sets the expiry 7 days ahead', () => {
    const session = createSession({ storage: localStorage, fetch: fakeFetch({}).fetch })
    session.signIn({ access_token: 'jwt', user: alice })
    expect(session.getState()).toMatchObject({
      user: alice,
      token: 'jwt',
      isAuthenticated: true,
      isInitialized: true,
      tokenExpiry: NOW + SESSION_LIFETIME_MS,
    })
    expect(stored()).toEqual({
      user: alice,
      token: 'jwt',
      isAuthenticated: true,
      tokenExpiry: NOW + 7 * 24 * HOUR,
      isInitialized: false,
    })
  })

  test.each([
    ['no token', { user: alice }],
    ['no user', { access_token: 'jwt' }],
    ['nothing', undefined],
  ])('an answer with %s is refused with "Invalid response from server"', (_case, answer) => {
    const session = createSession({ storage: localStorage, fetch: fakeFetch({}).fetch })
    expect(() => session.signIn(answer)).toThrow('Invalid response from server')
    expect(session.getState().isAuthenticated).toBe(false)
  })
})

test('logout clears user, token, expiry and the flag', () => {
  const session = createSession({ storage: localStorage, fetch: fakeFetch({}).fetch })
  session.signIn({ access_token: 'jwt', user: alice })
  session.logout()
  expect(stored()).toEqual({ user: null, token: null, isAuthenticated: false, tokenExpiry: null, isInitialized: false })
  expect(session.getState().isInitialized).toBe(true)
})

describe('initialising on load', () => {
  test('with nothing stored: unauthenticated and initialised, no request', async () => {
    const server = fakeFetch({})
    const session = createSession({ storage: localStorage, fetch: server.fetch })
    await session.initialize()
    expect(session.getState()).toMatchObject({ isAuthenticated: false, isInitialized: true })
    expect(server.calls).toHaveLength(0)
  })

  test('with a session still valid: authenticated without a request', async () => {
    storeSession(NOW + 2 * HOUR)
    const server = fakeFetch({})
    const session = createSession({ storage: localStorage, fetch: server.fetch })
    expect(session.getState().isInitialized).toBe(false)
    await session.initialize()
    expect(session.getState()).toMatchObject({ isAuthenticated: true, isInitialized: true, user: alice })
    expect(server.calls).toHaveLength(0)
  })

  test('with the expiry passed: a successful refresh keeps the user signed in', async () => {
    storeSession(NOW - 1)
    const server = fakeFetch({ 'POST /api/auth/refresh-token': json(200, { access_token: 'new' }) })
    const session = createSession({ storage: localStorage, fetch: server.fetch })
    await session.initialize()
    expect(session.getState()).toMatchObject({
      isAuthenticated: true,
      isInitialized: true,
      token: 'new',
      tokenExpiry: NOW + SESSION_LIFETIME_MS,
    })
    expect(server.calls[0]?.headers.Authorization).toBe('Bearer old')
  })

  test('with the expiry passed and no answer (offline): still signed in, the stored session untouched', async () => {
    storeSession(NOW - 1)
    const server = fakeFetch({ 'POST /api/auth/refresh-token': new TypeError('Failed to fetch') })
    const session = createSession({ storage: localStorage, fetch: server.fetch, online: () => false })
    await session.initialize()
    expect(session.getState()).toMatchObject({ isAuthenticated: true, isInitialized: true, token: 'old', user: alice })
    expect(stored()).toMatchObject({ token: 'old', tokenExpiry: NOW - 1 })
    // Offline, the expired notice waits: the local data stays readable.
    session.checkExpiry()
    expect(session.getState().expiryNotice).toBeNull()
  })

  test('with the expiry passed: a failed refresh clears the session', async () => {
    storeSession(NOW - 1)
    const server = fakeFetch({
      'POST /api/auth/refresh-token': json(401, { message: 'Unauthorized', code: 'UNAUTHORIZED' }),
    })
    const session = createSession({ storage: localStorage, fetch: server.fetch })
    await session.initialize()
    expect(session.getState()).toMatchObject({ isAuthenticated: false, isInitialized: true, token: null, user: null })
  })
})

describe('refresh', () => {
  test('success replaces the token and restarts the 7-day clock', async () => {
    storeSession(NOW + HOUR)
    const session = createSession({
      storage: localStorage,
      fetch: fakeFetch({ 'POST /api/auth/refresh-token': json(200, { access_token: 'new' }) }).fetch,
    })
    vi.advanceTimersByTime(10_000)
    expect(await session.refresh()).toBe(true)
    expect(stored()).toMatchObject({ token: 'new', tokenExpiry: NOW + 10_000 + SESSION_LIFETIME_MS })
  })

  test.each([
    ['a non-OK answer', json(500, { message: 'boom', code: 'INTERNAL_ERROR' })],
    ['an answer without a token', json(200, {})],
  ])('%s logs out and is only logged', async (_case, reply) => {
    storeSession(NOW + HOUR)
    const session = createSession({
      storage: localStorage,
      fetch: fakeFetch({ 'POST /api/auth/refresh-token': reply }).fetch,
    })
    await session.initialize()
    expect(await session.refresh()).toBe(false)
    expect(session.getState()).toMatchObject({ isAuthenticated: false, token: null })
    expect(console.warn).toHaveBeenCalled()
  })

  test('no answer at all (offline) keeps the session as it was, resolves false and is only logged', async () => {
    storeSession(NOW + HOUR)
    const session = createSession({
      storage: localStorage,
      fetch: fakeFetch({ 'POST /api/auth/refresh-token': new TypeError('Failed to fetch') }).fetch,
    })
    await session.initialize()
    expect(await session.refresh()).toBe(false)
    expect(session.getState()).toMatchObject({ isAuthenticated: true, token: 'old', isRefreshing: false })
    expect(stored()).toMatchObject({ token: 'old', isAuthenticated: true, tokenExpiry: NOW + HOUR })
    expect(console.warn).toHaveBeenCalled()
  })

  test('concurrent refreshes share one request', async () => {
    storeSession(NOW + HOUR)
    const server = fakeFetch({ 'POST /api/auth/refresh-token': json(200, { access_token: 'new' }) })
    const session = createSession({ storage: localStorage, fetch: server.fetch })
    await Promise.all([session.refresh(), session.refresh(), session.refresh()])
    expect(server.calls).toHaveLength(1)
  })
})

describe('the expiry check', () => {
  async function sessionExpiringIn(ms: number) {
    storeSession(NOW + ms)
    const session = createSession({ storage: localStorage, fetch: fakeFetch({}).fetch })
    await session.initialize()
    return session
  }

  test('with more than an hour left, no notice', async () => {
    const session = await sessionExpiringIn(HOUR + 1000)
    session.checkExpiry()
    expect(session.getState().expiryNotice).toBeNull()
  })

  test('with under an hour left, the "expire soon" notice', async () => {
    const session = await sessionExpiringIn(HOUR - 1000)
    session.checkExpiry()
    expect(session.getState().expiryNotice).toBe('Your session will expire soon. Would you like to refresh it?')
  })

  test('once expired, the "expired" notice', async () => {
    const session = await sessionExpiringIn(30 * 60 * 1000)
    vi.advanceTimersByTime(30 * 60 * 1000)
    session.checkExpiry()
    expect(session.getState().expiryNotice).toBe(SESSION_MESSAGES.expired)
    expect(SESSION_MESSAGES.expired).toBe('Your session has expired. Please log in again.')
  })

  test('offline, no notice; back online, the notice', async () => {
    let online = false
    storeSession(NOW - 1000)
    const session = createSession({
      storage: localStorage,
      fetch: fakeFetch({ 'POST /api/auth/refresh-token': new TypeError('Failed to fetch') }).fetch,
      online: () => online,
    })
    await session.initialize()
    session.checkExpiry()
    expect(session.getState().expiryNotice).toBeNull()
    online = true
    session.checkExpiry()
    expect(session.getState().expiryNotice).toBe(SESSION_MESSAGES.expired)
  })

  test('signed out, nothing happens', () => {
    const session = createSession({ storage: localStorage, fetch: fakeFetch({}).fetch })
    session.checkExpiry()
    expect(session.getState().expiryNotice).toBeNull()
  })
})

test('a change written by another tab is picked up', () => {
  const session = createSession({ storage: localStorage, fetch: fakeFetch({}).fetch })
  session.signIn({ access_token: 'jwt', user: alice })
  const other = createSession({ storage: localStorage, fetch: fakeFetch({}).fetch })
  other.logout()
  session.reloadFromStorage()
  expect(session.getState()).toMatchObject({ isAuthenticated: false, token: null })
})
