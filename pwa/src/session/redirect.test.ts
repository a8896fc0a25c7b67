import { afterEach, expect, test, vi } from 'vitest'
import { redirectToLogin } from './redirect.ts'

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
