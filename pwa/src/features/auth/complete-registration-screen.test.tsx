import { AUTH_STORAGE_KEY } from '@buble/shared/constants'
import { screen, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import { json } from '../../test/fake-fetch.ts'
import { alice, bob, bubleChange, makeBuble, ownedBy } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'

const COMPLETE = 'POST /api/bubles/complete-registration'
const PREVIEW = 'GET /api/bubles/complete-registration?token=inv'
/** The link's preview before the server has answered (it never does): the form does not wait for it. */
const never = () => new Promise<Response>(() => {})

async function choose(app: ReturnType<typeof renderApp>, password: string, confirm: string) {
  await app.user.type(screen.getByLabelText('New password'), password)
  await app.user.type(screen.getByLabelText('Confirm new password'), confirm)
  await app.user.click(screen.getByRole('button', { name: 'Complete registration' }))
}

test('without a token it shows "Invalid registration link" and how to get a new one', () => {
  renderApp({ route: '/complete-registration' })
  expect(screen.getByRole('heading', { name: 'Invalid registration link' })).toBeInTheDocument()
  expect(screen.getByText(/send a new invite/)).toBeInTheDocument()
  expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/login')
})

test('the passwords are checked with the shared rules', async () => {
  const app = renderApp({ route: '/complete-registration?token=inv', api: { [PREVIEW]: never } })
  await choose(app, 'Secret-password1', 'Secret-password2')
  expect(screen.getByRole('alert')).toHaveTextContent('Passwords do not match')
  expect(app.callsTo(COMPLETE)).toHaveLength(0)
})

test('success stores the session and opens the dashboard', async () => {
  const app = renderApp({
    route: '/complete-registration?token=inv',
    api: {
      [PREVIEW]: never,
      [COMPLETE]: json(200, { access_token: 'jwt', user: alice }),
      'GET /api/users/profile': json(200, alice),
    },
  })
  await choose(app, 'Secret-password1', 'Secret-password1')
  expect(await screen.findByRole('heading', { name: 'Your Bubles' })).toBeInTheDocument()
  expect(app.callsTo(COMPLETE)[0]?.body).toEqual({ token: 'inv', password: 'Secret-password1' })
  expect(JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY)!).state.token).toBe('jwt')
})

test('once registered, the dashboard shows the buble that sent the invite', async () => {
  const invitedTo = makeBuble({ name: 'Garden Club', ...ownedBy(bob) })
  const app = renderApp({
    route: '/complete-registration?token=inv',
    api: {
      [PREVIEW]: never,
      [COMPLETE]: json(200, { access_token: 'jwt', user: alice }),
      'GET /api/users/profile': json(200, alice),
    },
    server: { seed: [bubleChange(invitedTo)] },
  })
  await choose(app, 'Secret-password1', 'Secret-password1')
  const grid = await screen.findByRole('list', { name: 'Your bubles' })
  expect(within(grid).getByRole('link', { name: 'Garden Club' })).toHaveAttribute('href', '/bubles/garden-club')
  expect(app.session.getState()).toMatchObject({ isAuthenticated: true, token: 'jwt', user: { id: alice.id } })
  // Nothing more was asked of the API: the device pulled the buble after sign-in.
  expect(
    app.calls.map((call) => `${call.method} ${call.url}`).filter((key) => key !== 'GET /api/users/profile'),
  ).toEqual([PREVIEW, COMPLETE])
})

test('an unusable link (410) shows the invalid-link screen; other failures the fallback', async () => {
  const app = renderApp({
    route: '/complete-registration?token=inv',
    api: {
      [PREVIEW]: never,
      [COMPLETE]: [new Response('', { status: 500 }), json(410, { message: 'Link expired', code: 'TOKEN_INVALID' })],
    },
  })
  await choose(app, 'Secret-password1', 'Secret-password1')
  expect(await screen.findByRole('alert')).toHaveTextContent(/^Failed to complete registration$/)
  await app.user.click(screen.getByRole('button', { name: 'Complete registration' }))
  expect(await screen.findByRole('heading', { name: 'Invalid registration link' })).toBeInTheDocument()
  expect(screen.getByText('Link expired')).toBeInTheDocument()
})

test('the page names the buble and the inviter, and the new member lands inside that buble', async () => {
  const invitedTo = makeBuble({ name: 'Garden Club', ...ownedBy(bob) })
  const app = renderApp({
    route: '/complete-registration?token=inv',
    api: {
      [PREVIEW]: json(200, {
        email: alice.email,
        buble: { name: 'Garden Club', slug: invitedTo.slug },
        invited_by: { name: bob.name },
      }),
      [COMPLETE]: json(200, { access_token: 'jwt', user: alice }),
      'GET /api/users/profile': json(200, alice),
    },
    server: { seed: [bubleChange(invitedTo)] },
  })
  expect(await screen.findByText(`${bob.name} invited you`)).toBeInTheDocument()
  expect(screen.getByText('Garden Club', { selector: '.invite-preview-name' })).toBeInTheDocument()
  expect(screen.getByText('Choose a password to join Garden Club.')).toBeInTheDocument()
  expect(screen.getByText(alice.email)).toBeInTheDocument()
  await choose(app, 'Secret-password1', 'Secret-password1')
  expect(await screen.findByRole('heading', { level: 1, name: 'Garden Club' })).toBeInTheDocument()
})

test('a dead link says so before the password is asked', async () => {
  renderApp({
    route: '/complete-registration?token=inv',
    api: {
      [PREVIEW]: json(410, { message: 'This registration link is invalid or has expired', code: 'TOKEN_INVALID' }),
    },
  })
  expect(await screen.findByRole('heading', { name: 'Invalid registration link' })).toBeInTheDocument()
  expect(screen.getByText('This registration link is invalid or has expired')).toBeInTheDocument()
  expect(screen.queryByLabelText('New password')).toBeNull()
})
