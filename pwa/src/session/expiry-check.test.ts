import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { fakeFetch } from '../test/fake-fetch.ts'
import { alice } from '../test/fixtures.ts'
import { startExpiryCheck } from './expiry-check.ts'
import { createSession, SESSION_MESSAGES } from './session.ts'

const NOW = new Date('2025-06-01T12:00:00Z').getTime()
const MINUTE = 60 * 1000
const HOUR = 60 * MINUTE

let stop: (() => void) | undefined
beforeEach(() => {
  vi.useFakeTimers({ now: NOW })
})
afterEach(() => {
  stop?.()
  stop = undefined
})

function signedInSession() {
  const session = createSession({ storage: localStorage, fetch: fakeFetch({}).fetch })
  session.signIn({ access_token: 'jwt', user: alice })
  return session
}

test('checks at once: a session already under an hour opens the notice immediately', () => {
  const session = signedInSession()
  vi.setSystemTime(session.getState().tokenExpiry! - 30 * MINUTE)
  stop = startExpiryCheck(session)
  expect(session.getState().expiryNotice).toBe(SESSION_MESSAGES.expiringSoon)
})

test('then every 60 seconds: the notice opens on the first check past the threshold', () => {
  const session = signedInSession()
  const expiry = session.getState().tokenExpiry!
  vi.setSystemTime(expiry - HOUR - 90 * 1000) // 1 h 1.5 min left
  stop = startExpiryCheck(session)
  expect(session.getState().expiryNotice).toBeNull()
  vi.advanceTimersByTime(60 * 1000) // 1 h 0.5 min left
  expect(session.getState().expiryNotice).toBeNull()
  vi.advanceTimersByTime(60 * 1000) // 59.5 min left
  expect(session.getState().expiryNotice).toBe(SESSION_MESSAGES.expiringSoon)
})

test('an expired session gets the expired message on the next check', () => {
  const session = signedInSession()
  vi.setSystemTime(session.getState().tokenExpiry! - 30 * 1000)
  stop = startExpiryCheck(session)
  expect(session.getState().expiryNotice).toBe(SESSION_MESSAGES.expiringSoon)
  vi.advanceTimersByTime(60 * 1000)
  expect(session.getState().expiryNotice).toBe(SESSION_MESSAGES.expired)
})

test('stops while signed out and starts again with a new sign-in', () => {
  const session = signedInSession()
  const check = vi.spyOn(session, 'checkExpiry')
  stop = startExpiryCheck(session)
  expect(check).toHaveBeenCalledTimes(1)
  session.logout()
  vi.advanceTimersByTime(10 * MINUTE)
  expect(check).toHaveBeenCalledTimes(1)
  session.signIn({ access_token: 'jwt2', user: alice })
  expect(check).toHaveBeenCalledTimes(2)
  vi.advanceTimersByTime(MINUTE)
  expect(check).toHaveBeenCalledTimes(3)
})
