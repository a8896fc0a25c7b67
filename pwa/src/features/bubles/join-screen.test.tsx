import { screen, within } from '@testing-library/react'
import { afterEach, expect, test, vi } from 'vitest'
import { json } from '../../test/fake-fetch.ts'
import { alice, bob, makeBuble, ownedBy, person } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'

/** The join page of an invite link, /join/CODE (issue 21 §4). */

const PROFILE = 'GET /api/users/profile'
const PREVIEW = 'GET /api/bubles/invites/K7M2PQ9XRT'
const ACCEPT = 'POST /api/bubles/invites/K7M2PQ9XRT/accept'
const LOGIN = 'POST /api/auth/login'
const REGISTER = 'POST /api/auth/register'
const live = json(200, {
  buble: { name: 'Climbing Crew' },
  invited_by: { name: bob.name },
  expires_at: '2026-11-30T10:00:00.000Z',
})
const dead = json(410, { message: 'Invalid invite code or code has expired', code: 'TOKEN_INVALID' })
const crew = makeBuble({ name: 'Climbing Crew', ...ownedBy(bob), members: [person(bob.name), person(alice.name)] })
// The buble page asks for a buble its device does not hold yet (just joined): by the slug the join answered.
const CREW = 'GET /api/bubles/climbing-crew'

afterEach(() => sessionStorage.clear())

const expectPreview = async () => {
  expect(await screen.findByText('Climbing Crew', { selector: '.invite-preview-name' })).toBeInTheDocument()
  expect(screen.getByText(`${bob.name} invited you`)).toBeInTheDocument()
  expect(screen.getByText('CC', { selector: '.avatar-initials' })).toBeInTheDocument()
}

async function joinAndConfirm(app: ReturnType<typeof renderApp>) {
  await app.user.click(await screen.findByRole('button', { name: 'Join' }))
  const confirm = await screen.findByRole('dialog', { name: 'Join this Buble?' })
  expect(within(confirm).getByText('Climbing Crew', { selector: '.invite-preview-name' })).toBeInTheDocument()
  expect(confirm).toHaveTextContent('You are about to join Climbing Crew with the invite code K7M2PQ9XRT.')
  expect(app.callsTo(ACCEPT)).toHaveLength(0)
  await app.user.click(within(confirm).getByRole('button', { name: 'Join Buble' }))
}

test('signed in: the page names the buble and the inviter; Join asks, then lands inside the buble', async () => {
  const app = renderApp({
    route: '/join/K7M2PQ9XRT',
    user: alice,
    api: { [PREVIEW]: live, [ACCEPT]: json(200, crew), [CREW]: json(200, crew), [PROFILE]: json(200, alice) },
  })
  expect(screen.getByRole('heading', { level: 1, name: 'Join a Buble' })).toBeInTheDocument()
  await expectPreview()
  expect(screen.getByText(/^Expires 30 Nov 2026, \d\d:\d\d$/)).toBeInTheDocument()
  await joinAndConfirm(app)
  expect(await screen.findByRole('heading', { level: 1, name: 'Climbing Crew' })).toBeInTheDocument()
  expect(app.callsTo(ACCEPT)).toHaveLength(1)
})

test('signed in: Cancel in the confirmation joins nothing', async () => {
  const app = renderApp({ route: '/join/K7M2PQ9XRT', user: alice, api: { [PREVIEW]: live } })
  await app.user.click(await screen.findByRole('button', { name: 'Join' }))
  const confirm = await screen.findByRole('dialog', { name: 'Join this Buble?' })
  await app.user.click(within(confirm).getByRole('button', { name: 'Cancel' }))
  expect(screen.queryByRole('dialog')).toBeNull()
  expect(screen.getByRole('button', { name: 'Join' })).toBeInTheDocument()
  expect(app.callsTo(ACCEPT)).toHaveLength(0)
})

test('signed out: sign in first, then the page again, then Join lands inside the buble', async () => {
  const app = renderApp({
    route: '/join/K7M2PQ9XRT',
    api: {
      [PREVIEW]: live,
      [LOGIN]: json(200, { access_token: 'jwt', user: alice }),
      [ACCEPT]: json(200, crew),
      [CREW]: json(200, crew),
      [PROFILE]: json(200, alice),
    },
  })
  await expectPreview()
  expect(screen.queryByRole('button', { name: 'Join' })).toBeNull()
  expect(screen.getByText('Sign in or create an account first. You come back here to join.')).toBeInTheDocument()
  await app.user.click(screen.getByRole('link', { name: 'Sign in to join' }))

  expect(await screen.findByRole('heading', { name: 'Sign in to Buble' })).toBeInTheDocument()
  await app.user.type(screen.getByLabelText('Email'), alice.email)
  await app.user.type(screen.getByLabelText('Password'), 'Secret-password1')
  await app.user.click(screen.getByRole('button', { name: 'Sign in' }))

  // Back on the join page, signed in.
  await expectPreview()
  await joinAndConfirm(app)
  expect(await screen.findByRole('heading', { level: 1, name: 'Climbing Crew' })).toBeInTheDocument()
})

test('signed out: creating an account comes back to the join page too', async () => {
  const app = renderApp({
    route: '/join/K7M2PQ9XRT',
    api: { [PREVIEW]: live, [REGISTER]: json(201, { access_token: 'jwt', user: alice }), [PROFILE]: json(200, alice) },
  })
  await expectPreview()
  await app.user.click(screen.getByRole('link', { name: 'Create an account' }))
  await app.user.type(await screen.findByLabelText('Full name'), alice.name)
  await app.user.type(screen.getByLabelText('Email'), alice.email)
  await app.user.type(screen.getByLabelText('Password'), 'Secret-password1')
  await app.user.click(screen.getByRole('button', { name: 'Create account' }))
  await expectPreview()
  expect(await screen.findByRole('button', { name: 'Join' })).toBeInTheDocument()
})

test('a sign-in that did not start at a join link still lands on the dashboard', async () => {
  const app = renderApp({
    route: '/login',
    api: { [LOGIN]: json(200, { access_token: 'jwt', user: alice }), [PROFILE]: json(200, alice) },
  })
  await app.user.type(screen.getByLabelText('Email'), alice.email)
  await app.user.type(screen.getByLabelText('Password'), 'Secret-password1')
  await app.user.click(screen.getByRole('button', { name: 'Sign in' }))
  expect(await screen.findByRole('heading', { level: 1, name: 'Your Bubles' })).toBeInTheDocument()
})

test.each([
  ['signed in', alice, 'Go to your Bubles', '/dashboard'],
  ['signed out', undefined, 'Back to sign in', '/login'],
])(
  'a dead code says "Invalid invite code or code has expired" (%s), and offers no Join',
  async (_who, user, label, href) => {
    renderApp({ route: '/join/K7M2PQ9XRT', ...(user ? { user } : {}), api: { [PREVIEW]: dead } })
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Invalid invite code or code has expired$/)
    expect(screen.getByRole('link', { name: label })).toHaveAttribute('href', href)
    expect(screen.queryByRole('button', { name: 'Join' })).toBeNull()
    expect(screen.queryByRole('link', { name: 'Sign in to join' })).toBeNull()
  },
)

test('a code a user could not have been given is dead without asking the server', async () => {
  const app = renderApp({ route: '/join/%20', api: {} })
  expect(await screen.findByRole('alert')).toHaveTextContent(/^Invalid invite code or code has expired$/)
  expect(app.calls).toHaveLength(0)
})

test('offline, the page says the code can only be checked online, and checks it once back online', async () => {
  const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)
  const app = renderApp({ route: '/join/K7M2PQ9XRT', api: { [PREVIEW]: live } })
  expect(await screen.findByRole('alert')).toHaveTextContent(
    /^You are offline\. An invite code can only be checked online\.$/,
  )
  expect(app.callsTo(PREVIEW)).toHaveLength(0)
  onLine.mockReturnValue(true)
  window.dispatchEvent(new Event('online'))
  await expectPreview()
})

test('a code that joins no more by the time of the join says so on the page', async () => {
  const app = renderApp({ route: '/join/K7M2PQ9XRT', user: alice, api: { [PREVIEW]: live, [ACCEPT]: dead } })
  await joinAndConfirm(app)
  expect(await screen.findByRole('alert')).toHaveTextContent(/^Invalid invite code or code has expired$/)
  expect(screen.queryByRole('dialog')).toBeNull()
})
