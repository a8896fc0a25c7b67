import { afterEach, expect, test, vi } from 'vitest'
import { loginPath, redirectToLogin } from './redirect.ts'

const assign = vi.fn()

function at(path: string) {
  const url = new URL(path, 'http://localhost')
  vi.stubGlobal('location', { pathname: url.pathname, search: url.search, assign })
}

afterEach(() => {
  vi.unstubAllGlobals()
  assign.mockReset()
})

test('from a signed-in page: to /login, with the reason when there is one', () => {
  at('/dashboard')
  redirectToLogin()
  redirectToLogin('password-changed')
  expect(assign.mock.calls).toEqual([['/login'], ['/login?reason=password-changed']])
})

test('on /login already: only to add a reason it lacks, never in a loop', () => {
  at('/login')
  redirectToLogin()
  expect(assign).not.toHaveBeenCalled()
  redirectToLogin('session-expired')
  expect(assign).toHaveBeenCalledExactlyOnceWith('/login?reason=session-expired')
  at('/login?reason=session-expired')
  redirectToLogin('session-expired')
  expect(assign).toHaveBeenCalledTimes(1)
})

test('the signed-in guard sends a session just ended to the same page, reason included, for a few seconds', () => {
  at('/dashboard')
  redirectToLogin('password-changed', 1_000)
  expect(loginPath(1_000)).toBe('/login?reason=password-changed')
  expect(loginPath(5_999)).toBe('/login?reason=password-changed')
  expect(loginPath(6_000)).toBe('/login')
  redirectToLogin(undefined, 7_000)
  expect(loginPath(7_000)).toBe('/login')
})
