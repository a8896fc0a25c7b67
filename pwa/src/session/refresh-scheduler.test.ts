import { SESSION_LIFETIME_MS } from '@buble/shared/constants'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { fakeFetch, json } from '../test/fake-fetch.ts'
import { alice } from '../test/fixtures.ts'
import { startRefreshScheduler } from './refresh-scheduler.ts'
import { createSession } from './session.ts'

const NOW = new Date('2025-06-01T12:00:00Z').getTime()
const MINUTE = 60 * 1000
const HOUR = 60 * MINUTE
const REFRESH = 'POST /api/auth/refresh-token'

let stop: (() => void) | undefined
beforeEach(() => {
  vi.useFakeTimers({ now: NOW })
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(() => {
  stop?.()
  stop = undefined
})

function setup(replies: Parameters<typeof fakeFetch>[0] = {}) {
  const server = fakeFetch(replies)
  const session = createSession({ storage: localStorage, fetch: server.fetch })
  return { server, session }
}

test('refreshes one hour before expiry, not earlier', async () => {
  const { server, session } = setup({ [REFRESH]: json(200, { access_token: 'new' }) })
  session.signIn({ access_token: 'jwt', user: alice })
  stop = startRefreshScheduler(session)
  await vi.advanceTimersByTimeAsync(SESSION_LIFETIME_MS - HOUR - 1)
  expect(server.callsTo(REFRESH)).toHaveLength(0)
  await vi.advanceTimersByTimeAsync(1)
  expect(server.callsTo(REFRESH)).toHaveLength(1)
  expect(session.getState().token).toBe('new')
})

test('refreshes at once when that hour has already begun', async () => {
  const { server, session } = setup({ [REFRESH]: json(200, { access_token: 'new' }) })
  session.signIn({ access_token: 'jwt', user: alice })
  vi.setSystemTime(session.getState().tokenExpiry! - 30 * MINUTE)
  stop = startRefreshScheduler(session)
  await vi.advanceTimersByTimeAsync(0)
  expect(server.callsTo(REFRESH)).toHaveLength(1)
})

test('after a refresh, plans the next one for an hour before the new expiry', async () => {
  const { server, session } = setup({ [REFRESH]: json(200, { access_token: 'new' }) })
  session.signIn({ access_token: 'jwt', user: alice })
  stop = startRefreshScheduler(session)
  await vi.advanceTimersByTimeAsync(SESSION_LIFETIME_MS - HOUR)
  expect(server.callsTo(REFRESH)).toHaveLength(1)
  await vi.advanceTimersByTimeAsync(SESSION_LIFETIME_MS - HOUR - 1)
  expect(server.callsTo(REFRESH)).toHaveLength(1)
  await vi.advanceTimersByTimeAsync(1)
  expect(server.callsTo(REFRESH)).toHaveLength(2)
})

test('signed out, it looks again every 5 minutes and picks up a session found then', async () => {
  const { server, session } = setup({ [REFRESH]: json(200, { access_token: 'new' }) })
  session.logout()
  stop = startRefreshScheduler(session)
  const getState = vi.spyOn(session, 'getState')
  await vi.advanceTimersByTimeAsync(5 * MINUTE - 1)
  expect(getState).not.toHaveBeenCalled()
  await vi.advanceTimersByTimeAsync(1)
  expect(getState).toHaveBeenCalledTimes(1)
  await vi.advanceTimersByTimeAsync(5 * MINUTE)
  expect(getState).toHaveBeenCalledTimes(2)
  expect(server.calls).toHaveLength(0)
})

test('stops after a failed refresh has logged the user out', async () => {
  const { server, session } = setup({ [REFRESH]: json(401, { message: 'Unauthorized', code: 'UNAUTHORIZED' }) })
  session.signIn({ access_token: 'jwt', user: alice })
  vi.setSystemTime(session.getState().tokenExpiry! - 30 * MINUTE)
  stop = startRefreshScheduler(session)
  await vi.advanceTimersByTimeAsync(0)
  expect(server.callsTo(REFRESH)).toHaveLength(1)
  expect(session.getState().isAuthenticated).toBe(false)
  expect(vi.getTimerCount()).toBe(0)
})

test('a new sign-in after it stopped starts it again', async () => {
  const { server, session } = setup({
    [REFRESH]: [json(401, { message: 'Unauthorized', code: 'UNAUTHORIZED' }), json(200, { access_token: 'new' })],
  })
  session.signIn({ access_token: 'jwt', user: alice })
  vi.setSystemTime(session.getState().tokenExpiry! - 30 * MINUTE)
  stop = startRefreshScheduler(session)
  await vi.advanceTimersByTimeAsync(0)
  session.signIn({ access_token: 'jwt2', user: alice })
  await vi.advanceTimersByTimeAsync(SESSION_LIFETIME_MS - HOUR)
  expect(server.callsTo(REFRESH)).toHaveLength(2)
  expect(server.calls[1]?.headers.Authorization).toBe('Bearer jwt2')
})

test('an unexpected error makes it try again after 5 minutes', async () => {
  const { server, session } = setup({ [REFRESH]: json(200, { access_token: 'new' }) })
  session.signIn({ access_token: 'jwt', user: alice })
  vi.setSystemTime(session.getState().tokenExpiry! - 30 * MINUTE)
  const refresh = vi.spyOn(session, 'refresh').mockRejectedValueOnce(new Error('storage broke'))
  stop = startRefreshScheduler(session)
  await vi.advanceTimersByTimeAsync(0)
  expect(refresh).toHaveBeenCalledTimes(1)
  expect(server.calls).toHaveLength(0)
  await vi.advanceTimersByTimeAsync(5 * MINUTE - 1)
  expect(refresh).toHaveBeenCalledTimes(1)
  await vi.advanceTimersByTimeAsync(1)
  expect(refresh).toHaveBeenCalledTimes(2)
  expect(server.callsTo(REFRESH)).toHaveLength(1)
})

test('an unanswered refresh (offline) keeps the session and is tried again 5 minutes later', async () => {
  const { server, session } = setup({
    [REFRESH]: [new TypeError('Failed to fetch'), json(200, { access_token: 'new' })],
  })
  session.signIn({ access_token: 'jwt', user: alice })
  vi.setSystemTime(session.getState().tokenExpiry! - 30 * MINUTE)
  stop = startRefreshScheduler(session)
  await vi.advanceTimersByTimeAsync(0)
  expect(server.callsTo(REFRESH)).toHaveLength(1)
  expect(session.getState()).toMatchObject({ isAuthenticated: true, token: 'jwt' })
  await vi.advanceTimersByTimeAsync(5 * MINUTE)
  expect(server.callsTo(REFRESH)).toHaveLength(2)
  expect(session.getState().token).toBe('new')
})
