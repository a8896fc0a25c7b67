import { AUTH_STORAGE_KEY } from '@buble/shared/constants'
import { screen } from '@testing-library/react'
import { expect, test } from 'vitest'
import { json } from '../../test/fake-fetch.ts'
import { alice } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'
import { AUTH_TEXTS } from './auth-texts.ts'

const LOGIN = 'POST /api/auth/login'

async function signIn(app: ReturnType<typeof renderApp>, email = 'alice@example.com', password = 'Secret-password1') {
  await app.user.type(screen.getByLabelText('Email'), email)
  await app.user.type(screen.getByLabelText('Password'), password)
  await app.user.click(screen.getByRole('button', { name: 'Sign in' }))
}

test('the sign-in page has its title, required email and password fields and its links', () => {
  renderApp({ route: '/login' })
  expect(screen.getByRole('heading', { name: 'Sign in to Buble' })).toBeInTheDocument()
  expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email')
  expect(screen.getByLabelText('Email')).toBeRequired()
  expect(screen.getByLabelText('Password')).toBeRequired()
  expect(screen.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute('href', '/forgot-password')
  expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/register')
})

test('the first screen says in one line what Buble is, above the sign-in form', () => {
  renderApp({ route: '/login' })
  const line = screen.getByText(AUTH_TEXTS.tagline)
  expect(AUTH_TEXTS.tagline).toBe(
    'Buble is a private space for your small groups: posts, chat, events and polls, even offline.',
  )
  const form = screen.getByLabelText('Email').closest('form')!
  expect(line.compareDocumentPosition(form) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
})

test.each([
  ['password-changed', 'You were signed out because your password was changed or reset'],
  ['session-expired', 'Your session has expired'],
  ['signed-out', 'You were signed out from another device'],
])('sent here with reason=%s, the page says why', (reason, text) => {
  renderApp({ route: `/login?reason=${reason}` })
  expect(screen.getByRole('status')).toHaveTextContent(text)
})

test('an unknown reason says nothing', () => {
  renderApp({ route: '/login?reason=whatever' })
  expect(screen.queryByRole('status')).toBeNull()
})

test('a refused sign-in shows the server message', async () => {
  const app = renderApp({
    route: '/login',
    api: { [LOGIN]: json(401, { message: 'Invalid email or password', code: 'INVALID_CREDENTIALS' }) },
  })
  await signIn(app)
  expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password')
  expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled()
})

test('a failure without a server message shows "Login failed"', async () => {
  const app = renderApp({ route: '/login', api: { [LOGIN]: new TypeError('Failed to fetch') } })
  await signIn(app)
  expect(await screen.findByRole('alert')).toHaveTextContent(/^Login failed$/)
})

test('an answer without token or user shows "Invalid response from server"', async () => {
  const app = renderApp({ route: '/login', api: { [LOGIN]: json(200, { user: alice }) } })
  await signIn(app)
  expect(await screen.findByRole('alert')).toHaveTextContent('Invalid response from server')
  expect(localStorage.getItem(AUTH_STORAGE_KEY)).not.toContain('"isAuthenticated":true')
})

test('empty fields are caught before any request', async () => {
  const app = renderApp({ route: '/login' })
  await app.user.click(screen.getByRole('button', { name: 'Sign in' }))
  expect(screen.getByRole('alert')).toHaveTextContent('Email is required')
  expect(app.calls).toHaveLength(0)
})

test('a successful sign-in stores the session and lands on the dashboard', async () => {
  const app = renderApp({
    route: '/login',
    api: { [LOGIN]: json(200, { access_token: 'jwt', user: alice }), 'GET /api/users/profile': json(200, alice) },
  })
  await signIn(app, ' Alice@Example.com ')
  expect(await screen.findByRole('heading', { name: 'Your Bubles' })).toBeInTheDocument()
  expect(app.callsTo(LOGIN)[0]?.body).toEqual({ email: 'alice@example.com', password: 'Secret-password1' })
  expect(JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY)!).state).toMatchObject({
    token: 'jwt',
    isAuthenticated: true,
  })
})
