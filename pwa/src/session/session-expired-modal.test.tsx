import { act, screen, within } from '@testing-library/react'
import { beforeEach, expect, test, vi } from 'vitest'
import { json } from '../test/fake-fetch.ts'
import { alice } from '../test/fixtures.ts'
import { renderApp } from '../test/render-app.tsx'

const REFRESH = 'POST /api/auth/refresh-token'
const PROFILE = 'GET /api/users/profile'

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})

/** Moves the clock to `left` before expiry and runs the expiry check (tested on its own), which opens the modal. */
function openModal(app: ReturnType<typeof renderApp>, left = 30 * 60 * 1000) {
  vi.setSystemTime(app.session.getState().tokenExpiry! - left)
  act(() => app.session.checkExpiry())
  return screen.getByRole('dialog', { name: left > 0 ? 'Session Expiring Soon' : 'Session Expired' })
}

test('shows the message with its two buttons, the refresh button focused', async () => {
  const app = renderApp({ route: '/dashboard', user: alice, api: { [PROFILE]: json(200, alice) } })
  const dialog = openModal(app)
  expect(dialog).toHaveAttribute('aria-modal', 'true')
  expect(dialog).toHaveTextContent('Your session will expire soon. Would you like to refresh it?')
  expect(within(dialog).getByRole('button', { name: 'Try to Refresh Session' })).toHaveFocus()
  expect(within(dialog).getByRole('button', { name: 'Sign Out' })).toBeInTheDocument()
})

test('an expired session shows the expired message under the spec’s title; before expiry the title says soon', () => {
  const app = renderApp({ route: '/dashboard', user: alice, api: { [PROFILE]: json(200, alice) } })
  expect(openModal(app)).toHaveTextContent('Your session will expire soon. Would you like to refresh it?')
  expect(screen.queryByRole('dialog', { name: 'Session Expired' })).toBeNull()
  expect(openModal(app, -1000)).toHaveTextContent('Your session has expired. Please log in again.')
  expect(screen.queryByRole('dialog', { name: 'Session Expiring Soon' })).toBeNull()
})

test('a successful refresh says "Refreshing..." while working, then closes the modal', async () => {
  let answer: (response: Response) => void = () => {}
  const app = renderApp({
    route: '/dashboard',
    user: alice,
    api: { [PROFILE]: json(200, alice), [REFRESH]: () => new Promise<Response>((resolve) => (answer = resolve)) },
  })
  const dialog = openModal(app)
  await app.user.click(within(dialog).getByRole('button', { name: 'Try to Refresh Session' }))
  expect(within(dialog).getByRole('button', { name: 'Refreshing...' })).toBeDisabled()
  await act(async () => answer(json(200, { access_token: 'fresh' })))
  await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  expect(app.session.getState()).toMatchObject({ token: 'fresh', isAuthenticated: true })
  expect(app.redirectToLogin).not.toHaveBeenCalled()
})

test('a failed refresh logs out and goes to /login', async () => {
  const app = renderApp({
    route: '/dashboard',
    user: alice,
    api: { [PROFILE]: json(200, alice), [REFRESH]: json(401, { message: 'Unauthorized', code: 'UNAUTHORIZED' }) },
  })
  await app.user.click(within(openModal(app)).getByRole('button', { name: 'Try to Refresh Session' }))
  await vi.waitFor(() => expect(app.redirectToLogin).toHaveBeenCalledTimes(1))
  expect(app.session.getState()).toMatchObject({ isAuthenticated: false, token: null })
  expect(screen.queryByRole('dialog')).toBeNull()
})

test('Sign Out logs out, closes the modal and goes to /login', async () => {
  const app = renderApp({ route: '/dashboard', user: alice, api: { [PROFILE]: json(200, alice) } })
  await app.user.click(within(openModal(app)).getByRole('button', { name: 'Sign Out' }))
  expect(app.session.getState()).toMatchObject({ isAuthenticated: false, token: null, expiryNotice: null })
  expect(screen.queryByRole('dialog')).toBeNull()
  expect(app.redirectToLogin).toHaveBeenCalledTimes(1)
  expect(app.callsTo(REFRESH)).toHaveLength(0)
})

test('Escape does not dismiss it: the session needs an answer', async () => {
  const app = renderApp({ route: '/dashboard', user: alice, api: { [PROFILE]: json(200, alice) } })
  openModal(app)
  await app.user.keyboard('{Escape}')
  expect(screen.getByRole('dialog', { name: 'Session Expiring Soon' })).toBeInTheDocument()
})
