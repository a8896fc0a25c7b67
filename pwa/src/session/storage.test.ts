import { AUTH_STORAGE_KEY } from '@buble/shared/constants'
import { expect, test } from 'vitest'
import { alice } from '../test/fixtures.ts'
import { EMPTY_SESSION, readStoredSession, writeStoredSession } from './storage.ts'

test('the session is stored under auth-storage as {state, version: 0}, isInitialized written as false', () => {
  writeStoredSession(localStorage, {
    user: alice,
    token: 'abc',
    isAuthenticated: true,
    tokenExpiry: 1_700_000_000_000,
    isInitialized: true,
  })
  expect(JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY)!)).toEqual({
    state: { user: alice, token: 'abc', isAuthenticated: true, tokenExpiry: 1_700_000_000_000, isInitialized: false },
    version: 0,
  })
})

test('a stored session reads back, never as initialised', () => {
  writeStoredSession(localStorage, {
    user: alice,
    token: 'abc',
    isAuthenticated: true,
    tokenExpiry: 5,
    isInitialized: true,
  })
  expect(readStoredSession(localStorage)).toEqual({
    user: alice,
    token: 'abc',
    isAuthenticated: true,
    tokenExpiry: 5,
    isInitialized: false,
  })
})

test.each([
  ['nothing stored', null],
  ['not JSON', '{oops'],
  ['no state', '{"version":0}'],
  ['wrong types', '{"state":{"user":"bob","token":7,"isAuthenticated":"yes","tokenExpiry":"soon"},"version":0}'],
])('%s reads as an empty session', (_case, raw) => {
  if (raw !== null) localStorage.setItem(AUTH_STORAGE_KEY, raw)
  expect(readStoredSession(localStorage)).toEqual(EMPTY_SESSION)
})
