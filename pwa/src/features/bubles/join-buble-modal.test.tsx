import { screen, within } from '@testing-library/react'
import { expect, test, vi } from 'vitest'
import { json } from '../../test/fake-fetch.ts'
import { alice, bob, makeBuble, ownedBy, person } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'

/** The dashboard's Join Buble dialog (spec part 1 §3; issue 21 §4: the code is checked before the confirmation). */

const PROFILE = 'GET /api/users/profile'
const signedIn = { route: '/dashboard', user: alice }
const ACCEPT = 'POST /api/bubles/invites/K7M2PQ9XRT/accept'
const PREVIEW = 'GET /api/bubles/invites/K7M2PQ9XRT'
const live = json(200, {
  buble: { name: 'Climbing Crew' },
  invited_by: { name: bob.name },
  expires_at: '2026-11-30T10:00:00.000Z',
})
const dead = json(410, { message: 'Invalid invite code or code has expired', code: 'TOKEN_INVALID' })

const goOffline = () => vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)

async function enterCode(app: ReturnType<typeof renderApp>, code: string) {
  await app.user.click(await screen.findByRole('button', { name: 'Join Buble' }))
  const dialog = screen.getByRole('dialog', { name: 'Join Buble' })
  await app.user.type(within(dialog).getByLabelText('Invite code'), code)
  await app.user.click(within(dialog).getByRole('button', { name: 'Join' }))
}

async function confirmJoin(app: ReturnType<typeof renderApp>) {
  const confirm = await screen.findByRole('dialog', { name: 'Join this Buble?' })
  await app.user.click(within(confirm).getByRole('button', { name: 'Join Buble' }))
}

test('Join: a code is required, then checked, then confirmed with the buble and inviter, then accepted; the buble opens', async () => {
  const crew = makeBuble({ name: 'Climbing Crew', ...ownedBy(bob), members: [person(bob.name), person(alice.name)] })
  const app = renderApp({
    ...signedIn,
    api: { [PROFILE]: json(200, alice), [PREVIEW]: live, [ACCEPT]: json(200, crew) },
  })
  await app.user.click(await screen.findByRole('button', { name: 'Join Buble' }))
  await app.user.click(within(screen.getByRole('dialog', { name: 'Join Buble' })).getByRole('button', { name: 'Join' }))
  expect(screen.getByText('Invite code is required')).toBeInTheDocument()
  expect(app.calls.filter((call) => call.url.includes('/invites/'))).toHaveLength(0)

  await app.user.type(screen.getByLabelText('Invite code'), ' k7m2-pq9xrt ')
  await app.user.click(within(screen.getByRole('dialog', { name: 'Join Buble' })).getByRole('button', { name: 'Join' }))
  const confirm = await screen.findByRole('dialog', { name: 'Join this Buble?' })
  // The code was checked (normalised), without a token: the preview is public.
  expect(app.callsTo(PREVIEW)).toHaveLength(1)
  expect(app.callsTo(PREVIEW)[0]?.headers.Authorization).toBeUndefined()
  expect(within(confirm).getByText('Climbing Crew', { selector: '.invite-preview-name' })).toBeInTheDocument()
  expect(within(confirm).getByText(`${bob.name} invited you`)).toBeInTheDocument()
  // The buble's avatar: its initials, drawn from its name.
  expect(within(confirm).getByText('CC', { selector: '.avatar-initials' })).toBeInTheDocument()
  expect(confirm).toHaveTextContent(
    'You are about to join Climbing Crew with the invite code K7M2PQ9XRT. Its members will see your name and e-mail address.',
  )
  expect(app.callsTo(ACCEPT)).toHaveLength(0)

  // Cancel goes back to the code, still typed.
  await app.user.click(within(confirm).getByRole('button', { name: 'Cancel' }))
  expect(screen.getByLabelText('Invite code')).toHaveValue(' k7m2-pq9xrt ')
  await app.user.click(within(screen.getByRole('dialog', { name: 'Join Buble' })).getByRole('button', { name: 'Join' }))
  await confirmJoin(app)

  expect(await screen.findByRole('heading', { level: 1, name: 'Climbing Crew' })).toBeInTheDocument()
  expect(app.callsTo(ACCEPT)).toHaveLength(1)
  expect(screen.getByRole('link', { name: 'Overview' })).toHaveAttribute('href', '/bubles/climbing-crew')
})

test('Join: a dead code says "Invalid invite code or code has expired" at once, before any confirmation', async () => {
  const app = renderApp({ ...signedIn, api: { [PROFILE]: json(200, alice), [PREVIEW]: dead } })
  await enterCode(app, 'K7M2PQ9XRT')
  const dialog = screen.getByRole('dialog', { name: 'Join Buble' })
  expect(await within(dialog).findByRole('alert')).toHaveTextContent(/^Invalid invite code or code has expired$/)
  expect(screen.queryByRole('dialog', { name: 'Join this Buble?' })).toBeNull()
  expect(app.callsTo(ACCEPT)).toHaveLength(0)
})

test('Join: offline, it says the code cannot be checked offline, and asks nothing', async () => {
  goOffline()
  const app = renderApp({ ...signedIn, api: { [PREVIEW]: live, [ACCEPT]: json(200, makeBuble()) } })
  await enterCode(app, 'K7M2PQ9XRT')
  expect(await screen.findByRole('alert')).toHaveTextContent(
    /^You are offline\. An invite code can only be checked online\.$/,
  )
  expect(app.callsTo(PREVIEW)).toHaveLength(0)
  expect(screen.queryByRole('dialog', { name: 'Join this Buble?' })).toBeNull()
})

test('Join: no answer to the check says the same as offline', async () => {
  const app = renderApp({
    ...signedIn,
    api: { [PROFILE]: json(200, alice), [PREVIEW]: new TypeError('Failed to fetch') },
  })
  await enterCode(app, 'K7M2PQ9XRT')
  expect(await screen.findByRole('alert')).toHaveTextContent(
    /^You are offline\. An invite code can only be checked online\.$/,
  )
})

test.each([
  ['with the server text', dead],
  ['without a body', json(410, undefined)],
])(
  'Join: a code spent between the check and the join (410 %s) says "Invalid invite code or code has expired"',
  async (_how, answer) => {
    const app = renderApp({ ...signedIn, api: { [PROFILE]: json(200, alice), [PREVIEW]: live, [ACCEPT]: answer } })
    await enterCode(app, 'K7M2PQ9XRT')
    await confirmJoin(app)
    const dialog = await screen.findByRole('dialog', { name: 'Join Buble' })
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/^Invalid invite code or code has expired$/)
    expect(screen.getByRole('heading', { level: 1, name: 'Your Bubles' })).toBeInTheDocument()
  },
)

test('Join: another refusal shows the server message', async () => {
  const conflict = json(409, { message: 'You are already a member of this Buble', code: 'CONFLICT' })
  const app = renderApp({ ...signedIn, api: { [PROFILE]: json(200, alice), [PREVIEW]: live, [ACCEPT]: conflict } })
  await enterCode(app, 'K7M2PQ9XRT')
  await confirmJoin(app)
  expect(await screen.findByRole('alert')).toHaveTextContent(/^You are already a member of this Buble$/)
})

test('Join: gone offline after the check, joining says it needs a connection, without calling the server', async () => {
  const app = renderApp({
    ...signedIn,
    api: { [PROFILE]: json(200, alice), [PREVIEW]: live, [ACCEPT]: json(200, makeBuble()) },
  })
  await enterCode(app, 'K7M2PQ9XRT')
  await screen.findByRole('dialog', { name: 'Join this Buble?' })
  goOffline()
  await confirmJoin(app)
  expect(await screen.findByRole('alert')).toHaveTextContent(/^You are offline\. Joining a Buble needs a connection\.$/)
  expect(app.callsTo(ACCEPT)).toHaveLength(0)
})

test('Join: a network failure on the join says the same as offline', async () => {
  const app = renderApp({
    ...signedIn,
    api: { [PROFILE]: json(200, alice), [PREVIEW]: live, [ACCEPT]: new TypeError('Failed to fetch') },
  })
  await enterCode(app, 'K7M2PQ9XRT')
  await confirmJoin(app)
  expect(await screen.findByRole('alert')).toHaveTextContent('You are offline. Joining a Buble needs a connection.')
})
