import { screen } from '@testing-library/react'
import { expect, test } from 'vitest'
import { json } from '../../test/fake-fetch.ts'
import { alice } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'

const REGISTER = 'POST /api/auth/register'

async function fill(app: ReturnType<typeof renderApp>, name: string, email: string, password: string) {
  if (name) await app.user.type(screen.getByLabelText('Full name'), name)
  if (email) await app.user.type(screen.getByLabelText('Email'), email)
  if (password) await app.user.type(screen.getByLabelText('Password'), password)
  await app.user.click(screen.getByRole('button', { name: 'Create account' }))
}

test.each([
  ['a one-letter name', ['A', 'a@example.com', 'Secret-password1'], 'Name must be at least 2 characters'],
  ['an address without a domain', ['Alice', 'alice@example', 'Secret-password1'], 'Please enter a valid email address'],
  ['a short password', ['Alice', 'a@example.com', 'abc'], 'Password must be at least 6 characters'],
  ['an 8-character password', ['Alice', 'a@example.com', 'abcdefgh'], 'Password must be at least 12 characters long'],
  [
    'no uppercase letter',
    ['Alice', 'a@example.com', 'lowercase-only-1'],
    'Password must contain at least one uppercase letter',
  ],
  ['no number', ['Alice', 'a@example.com', 'No-Numbers-Here'], 'Password must contain at least one number'],
])('%s is refused before sending', async (_case, [name, email, password], message) => {
  const app = renderApp({ route: '/register' })
  await fill(app, name!, email!, password!)
  expect(screen.getByText(message)).toBeInTheDocument()
  expect(app.calls).toHaveLength(0)
})

test('empty fields each say what is missing', async () => {
  const app = renderApp({ route: '/register' })
  await fill(app, '', '', '')
  expect(screen.getByText('Name must be at least 2 characters')).toBeInTheDocument()
  expect(screen.getByText('Email is required')).toBeInTheDocument()
  expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument()
})

test('the server message is shown when registration is refused', async () => {
  const app = renderApp({
    route: '/register',
    api: { [REGISTER]: json(409, { message: 'An account with this email already exists', code: 'CONFLICT' }) },
  })
  await fill(app, 'Alice Example', 'alice@example.com', 'Secret-password1')
  expect(await screen.findByRole('alert')).toHaveTextContent('An account with this email already exists')
})

test('without a server message it says "Registration failed"', async () => {
  const app = renderApp({ route: '/register', api: { [REGISTER]: new Response('oops', { status: 500 }) } })
  await fill(app, 'Alice Example', 'alice@example.com', 'Secret-password1')
  expect(await screen.findByRole('alert')).toHaveTextContent(/^Registration failed$/)
})

test('a successful registration lands on the dashboard with the verification banner', async () => {
  const fresh = { ...alice, email_verified: false }
  const app = renderApp({
    route: '/register',
    api: { [REGISTER]: json(201, { access_token: 'jwt', user: fresh }), 'GET /api/users/profile': json(200, fresh) },
  })
  await fill(app, 'Alice Example', 'alice@example.com', 'Secret-password1')
  expect(await screen.findByRole('heading', { name: 'Your Bubles' })).toBeInTheDocument()
  expect(screen.getByRole('region', { name: 'Email verification' })).toBeInTheDocument()
  expect(app.callsTo(REGISTER)[0]?.body).toEqual({
    name: 'Alice Example',
    email: 'alice@example.com',
    password: 'Secret-password1',
  })
})
