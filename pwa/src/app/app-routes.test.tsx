import { act, screen } from '@testing-library/react'
import { expect, test } from 'vitest'
import { json } from '../test/fake-fetch.ts'
import { alice } from '../test/fixtures.ts'
import { renderApp } from '../test/render-app.tsx'

const PROFILE = 'GET /api/users/profile'

test.each([
  ['/', 'Sign in to Buble'],
  ['/dashboard', 'Sign in to Buble'],
  ['/profile', 'Sign in to Buble'],
])('signed out, %s leads to the sign-in page', (route, heading) => {
  renderApp({ route })
  expect(screen.getByRole('heading', { name: heading })).toBeInTheDocument()
})

test.each([
  '/',
  '/login',
  '/register',
  '/forgot-password',
  '/reset-password?token=t',
  '/complete-registration?token=t',
])('signed in, %s leads to the dashboard', async (route) => {
  renderApp({ route, user: alice, api: { [PROFILE]: json(200, alice) } })
  expect(await screen.findByRole('heading', { name: 'Your Bubles' })).toBeInTheDocument()
})

test('the header welcomes the user and links Profile; Admin only for platform admins; Logout signs out', async () => {
  const app = renderApp({
    route: '/dashboard',
    user: alice,
    api: {
      [PROFILE]: json(200, alice),
      'DELETE /api/users/sessions/current': json(200, { message: 'Signed out', ended: 1 }),
    },
  })
  expect(screen.getByText('Welcome,').parentElement).toHaveTextContent('Welcome, Alice Example')
  expect(screen.getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/profile')
  expect(screen.queryByRole('link', { name: 'Admin' })).toBeNull()
  act(() => app.session.updateUser({ ...alice, role: 'admin' }))
  expect(screen.getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin')
  await app.user.click(screen.getByRole('button', { name: 'Logout' }))
  expect(await screen.findByRole('heading', { name: 'Sign in to Buble' })).toBeInTheDocument()
  expect(app.session.getState().isAuthenticated).toBe(false)
  // The server ends this session too: a copy of its token is dead.
  expect(app.callsTo('DELETE /api/users/sessions/current')[0]?.headers.Authorization).toMatch(/^Bearer /)
})

test('a spinner shows until the session is initialised', async () => {
  const app = renderApp({ route: '/dashboard', user: alice, initialized: false, api: { [PROFILE]: json(200, alice) } })
  expect(screen.getByRole('status')).toHaveTextContent('Loading…')
  expect(screen.queryByRole('heading', { name: 'Your Bubles' })).toBeNull()
  await act(() => app.session.initialize())
  expect(screen.getByRole('heading', { name: 'Your Bubles' })).toBeInTheDocument()
})

test('the dashboard shows its empty state once synced, with Join and Create ready to open their dialogs', async () => {
  const app = renderApp({ route: '/dashboard', user: alice, api: { [PROFILE]: json(200, alice) } })
  expect(await screen.findByRole('heading', { name: 'No bubles yet' })).toBeInTheDocument()
  await app.user.click(screen.getByRole('button', { name: 'Join Buble' }))
  expect(screen.getByRole('dialog', { name: 'Join Buble' })).toBeInTheDocument()
  await app.user.keyboard('{Escape}')
  await app.user.click(screen.getByRole('button', { name: 'Create New Buble' }))
  expect(screen.getByRole('dialog', { name: 'Create New Buble' })).toBeInTheDocument()
})

test('the privacy policy is public and states age, deletion and no selling', () => {
  renderApp({ route: '/privacy' })
  expect(screen.getByRole('heading', { name: 'Privacy policy' })).toBeInTheDocument()
  expect(screen.getByText(/at least 13 years old/)).toBeInTheDocument()
  expect(screen.getByText(/removed within 30 days/)).toBeInTheDocument()
  expect(screen.getByText(/never sell/)).toBeInTheDocument()
})

test('an unknown route shows the 404 page', () => {
  renderApp({ route: '/no/such/page' })
  expect(screen.getByRole('heading', { name: 'Page not found' })).toBeInTheDocument()
  expect(screen.getByRole('link', { name: 'Go home' })).toHaveAttribute('href', '/')
})
