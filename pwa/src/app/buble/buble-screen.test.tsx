import type { Buble } from '@buble/shared/bubles'
import type { BubleRole } from '@buble/shared/permissions'
import { screen, waitFor, within } from '@testing-library/react'
import { expect, test, vi } from 'vitest'
import { bubleActions, chooseBubleAction } from '../../test/buble-menu.ts'
import { bubleServer } from '../../test/buble-server.ts'
import { json, type Reply } from '../../test/fake-fetch.ts'
import { alice, bob, bubleChange, makeBuble, makeMember, memberChange, ownedBy, person } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'

const PROFILE = 'GET /api/users/profile'
const carol = { id: person('Carol Chen').id, name: 'Carol Chen', email: 'carol@example.com' }

function bookClub(overrides: Partial<Buble> = {}) {
  return makeBuble({
    name: 'Book Club',
    created_at: '2026-11-23T10:00:00.000Z',
    members: ['Alice Example', 'Bob Builder', 'Carol Chen', 'Dan Dare', 'Eve Evans'].map((name) => person(name)),
    ...overrides,
  })
}

function open(
  route: string,
  seedBuble: Buble | null,
  extra: { api?: Record<string, Reply | Reply[]>; role?: BubleRole } = {},
) {
  const seed = seedBuble
    ? [
        bubleChange(seedBuble),
        memberChange(
          seedBuble.id,
          makeMember(alice, extra.role ?? (seedBuble.owner_id === alice.id ? 'owner' : 'member')),
        ),
        memberChange(seedBuble.id, makeMember(bob, seedBuble.owner_id === bob.id ? 'owner' : 'admin')),
        memberChange(seedBuble.id, makeMember(carol, 'moderator')),
      ]
    : []
  const server = bubleServer(seed)
  const app = renderApp({ route, user: alice, server, api: { [PROFILE]: json(200, alice), ...extra.api } })
  return { ...app, server }
}

test('the title bar shows the name (whole in its title), the member count, four avatars and +N, and no created date', async () => {
  open('/bubles/book-club', bookClub())
  const heading = await screen.findByRole('heading', { level: 1, name: 'Book Club' })
  expect(heading).toHaveAttribute('title', 'Book Club')
  expect(heading).toHaveClass('clamp-1')
  const header = heading.closest('header')!
  expect(within(header).queryByText(/Created/)).toBeNull()
  expect(within(header).getByText('5 members')).toBeInTheDocument()
  const avatars = within(within(header).getByRole('list', { name: 'Members' })).getAllByRole('listitem')
  expect(avatars.map((item) => item.textContent)).toEqual([
    'AEAlice Example',
    'BBBob Builder',
    'CCCarol Chen',
    'DDDan Dare',
    '+1and 1 more',
  ])
  expect(within(header).queryByText('Not synced yet')).toBeNull()
})

test.each([
  ['owner', ['Generate Invite', 'Rename', 'Delete Buble']],
  // An admin holds every permission but delete_buble; a moderator may invite; a member may only leave.
  ['admin', ['Generate Invite', 'Rename', 'Leave Buble']],
  ['moderator', ['Generate Invite', 'Leave Buble']],
  ['member', ['Leave Buble']],
] as const)('the %s is offered %j in the overflow menu', async (role, items) => {
  const app = open('/bubles/book-club', bookClub(role === 'owner' ? {} : { ...ownedBy(bob) }), { role })
  await waitFor(async () => expect(await bubleActions(app.user)).toEqual(items))
  expect(screen.queryByRole('button', { name: 'Delete Buble' })).toBeNull()
})

test('the overflow menu is a menu button: arrows move, Escape closes it and gives the focus back', async () => {
  const app = open('/bubles/book-club', bookClub())
  const button = await screen.findByRole('button', { name: 'Buble actions' })
  expect(button).toHaveAttribute('aria-haspopup', 'menu')
  expect(button).toHaveAttribute('aria-expanded', 'false')
  button.focus()
  await app.user.keyboard('{ArrowDown}')
  const menu = screen.getByRole('menu', { name: 'Buble actions' })
  expect(button).toHaveAttribute('aria-expanded', 'true')
  expect(within(menu).getByRole('menuitem', { name: 'Generate Invite' })).toHaveFocus()
  await app.user.keyboard('{ArrowDown}')
  expect(within(menu).getByRole('menuitem', { name: 'Rename' })).toHaveFocus()
  await app.user.keyboard('{ArrowDown}')
  const remove = within(menu).getByRole('menuitem', { name: 'Delete Buble' })
  expect(remove).toHaveFocus()
  expect(remove).toHaveClass('menu-item-danger')
  await app.user.keyboard('{ArrowDown}')
  expect(within(menu).getByRole('menuitem', { name: 'Generate Invite' })).toHaveFocus()
  await app.user.keyboard('{ArrowUp}')
  expect(remove).toHaveFocus()
  await app.user.keyboard('{Escape}')
  expect(screen.queryByRole('menu')).toBeNull()
  expect(button).toHaveFocus()

  // ↑ opens it on its last item; Enter chooses: the delete confirmation stays.
  await app.user.keyboard('{ArrowUp}')
  expect(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Delete Buble' })).toHaveFocus()
  await app.user.keyboard('{Enter}')
  expect(screen.queryByRole('menu')).toBeNull()
  expect(screen.getByRole('dialog', { name: 'Delete Buble' })).toBeInTheDocument()
})

test('Generate Invite shows the code and when it expires; Copy code copies it and says Copied!', async () => {
  const buble = bookClub()
  const invites = `POST /api/bubles/${buble.id}/invites`
  const app = open('/bubles/book-club', buble, {
    api: {
      [invites]: json(201, { code: 'K7M2PQ9XRT', expires_at: '2026-11-30T10:00:00.000Z' }),
      // The modal's list of active codes (invite-code-modal.test.tsx).
      [`GET /api/bubles/${buble.id}/invites`]: json(200, { invites: [] }),
    },
  })
  await chooseBubleAction(app.user, 'Generate Invite')
  const dialog = await screen.findByRole('dialog', { name: 'Invite code generated' })
  expect(within(dialog).getByText('K7M2PQ9XRT')).toHaveClass('invite-code')
  expect(within(dialog).getByText(/^Expires 30 Nov 2026, \d\d:\d\d$/)).toBeInTheDocument()
  expect(app.callsTo(invites)[0]?.body).toEqual({})

  const writeText = vi.spyOn(navigator.clipboard, 'writeText')
  await app.user.click(within(dialog).getByRole('button', { name: 'Copy code' }))
  expect(writeText).toHaveBeenCalledWith('K7M2PQ9XRT')
  expect(await within(dialog).findByRole('button', { name: 'Copied!' })).toBeInTheDocument()
  await expect(navigator.clipboard.readText()).resolves.toBe('K7M2PQ9XRT')

  await app.user.click(within(dialog).getByRole('button', { name: 'Done' }))
  expect(screen.queryByRole('dialog')).toBeNull()
})

test.each([
  [
    'the server message',
    json(403, { message: 'You may not invite members', code: 'FORBIDDEN' }),
    'You may not invite members',
  ],
  ['else "Failed to generate invite"', json(500, undefined), 'Failed to generate invite'],
  [
    'offline on a network failure',
    new TypeError('Failed to fetch'),
    'You are offline. Generating an invite needs a connection.',
  ],
])('a failed invite shows %s', async (_what, answer, text) => {
  const buble = bookClub()
  const app = open('/bubles/book-club', buble, { api: { [`POST /api/bubles/${buble.id}/invites`]: answer } })
  await chooseBubleAction(app.user, 'Generate Invite')
  const alert = await screen.findByRole('alert')
  expect(alert.firstElementChild).toHaveTextContent(new RegExp(`^${text.replace(/\./g, '\\.')}$`))
  expect(screen.queryByRole('dialog')).toBeNull()
  // It lies over the page until put away; the focus goes back to the menu.
  await app.user.click(within(alert).getByRole('button', { name: 'Dismiss' }))
  expect(screen.queryByRole('alert')).toBeNull()
  expect(screen.getByRole('button', { name: 'Buble actions' })).toHaveFocus()
})

test('Delete asks first; Cancel keeps the buble; confirming pushes buble.delete and returns to a dashboard without it', async () => {
  const buble = bookClub()
  const app = open('/bubles/book-club', buble)
  await chooseBubleAction(app.user, 'Delete Buble')
  let dialog = screen.getByRole('dialog', { name: 'Delete Buble' })
  expect(dialog).toHaveTextContent('Delete Book Club for everyone?')
  expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus()
  await app.user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
  expect(screen.queryByRole('dialog')).toBeNull()
  expect(screen.getByRole('heading', { level: 1, name: 'Book Club' })).toBeInTheDocument()

  await chooseBubleAction(app.user, 'Delete Buble')
  dialog = screen.getByRole('dialog', { name: 'Delete Buble' })
  await app.user.click(within(dialog).getByRole('button', { name: 'Delete Buble' }))

  expect(await screen.findByRole('heading', { level: 1, name: 'Your Bubles' })).toBeInTheDocument()
  expect(screen.queryByRole('link', { name: 'Book Club' })).toBeNull()
  await waitFor(() => expect(app.device.pushes.flatMap((push) => push.mutations)).toHaveLength(1))
  expect(app.device.pushes[0]!.mutations[0]).toMatchObject({ name: 'buble.delete', args: { id: buble.id } })
  // Still gone once the server has answered and the next pull brought its `del`.
  expect(await screen.findByRole('heading', { name: 'No bubles yet' })).toBeInTheDocument()
})

test('a member leaves from the menu: it asks first, pushes buble.leave and returns to the dashboard', async () => {
  const buble = bookClub({ ...ownedBy(bob) })
  const app = open('/bubles/book-club', buble)
  await chooseBubleAction(app.user, 'Leave Buble')

  const dialog = screen.getByRole('dialog', { name: 'Leave Buble' })
  expect(dialog).toHaveTextContent('Leave Book Club?')
  await app.user.click(within(dialog).getByRole('button', { name: 'Leave Buble' }))

  expect(await screen.findByRole('heading', { level: 1, name: 'Your Bubles' })).toBeInTheDocument()
  await waitFor(() => expect(app.device.pushes).toHaveLength(1))
  expect(app.device.pushes[0]!.mutations[0]).toMatchObject({ name: 'buble.leave', args: { buble_id: buble.id } })
  expect(screen.queryByRole('link', { name: 'Book Club' })).toBeNull()
})

test('a buble this device does not hold is asked of the server: 404 says "Buble not found" with a way back', async () => {
  const app = open('/bubles/secret-club', null, {
    api: { 'GET /api/bubles/secret-club': json(404, { message: 'Buble not found', code: 'NOT_FOUND' }) },
  })
  expect(await screen.findByRole('heading', { level: 1, name: 'Buble not found' })).toBeInTheDocument()
  expect(screen.getByRole('link', { name: 'Back to your bubles' })).toHaveAttribute('href', '/dashboard')
  expect(app.callsTo('GET /api/bubles/secret-club')).toHaveLength(1)
})

test('another failure shows "Failed to load Buble data"; Try again loads it and keeps it on the device', async () => {
  const buble = bookClub({ ...ownedBy(bob), name: 'Secret Club', slug: 'secret-club' })
  const app = open('/bubles/secret-club', null, {
    api: { 'GET /api/bubles/secret-club': [json(500, undefined), json(200, buble)] },
  })
  expect(await screen.findByRole('alert')).toHaveTextContent(/^Failed to load Buble data$/)
  await app.user.click(screen.getByRole('button', { name: 'Try again' }))
  expect(await screen.findByRole('heading', { level: 1, name: 'Secret Club' })).toBeInTheDocument()
  expect(await app.device.current()!.db.bubles.get(buble.id)).toMatchObject({ name: 'Secret Club' })
})

test('the tabs link to each section, mark the current one, and an unknown tab opens the overview', async () => {
  const app = open('/bubles/book-club/members', bookClub())
  const tabs = await screen.findByRole('navigation', { name: 'Buble sections' })
  const links = within(tabs).getAllByRole('link')
  expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
    ['Overview', '/bubles/book-club'],
    ['Wall', '/bubles/book-club/wall'],
    ['Events', '/bubles/book-club/events'],
    ['Polls', '/bubles/book-club/polls'],
    ['Media', '/bubles/book-club/media'],
    ['Members', '/bubles/book-club/members'],
    ['Reports', '/bubles/book-club/reports'],
  ])
  expect(within(tabs).getByRole('link', { name: 'Members' })).toHaveAttribute('aria-current', 'page')
  expect(within(tabs).getByRole('link', { name: 'Overview' })).not.toHaveAttribute('aria-current')

  await app.user.click(within(tabs).getByRole('link', { name: 'Wall' }))
  expect(within(tabs).getByRole('link', { name: 'Wall' })).toHaveAttribute('aria-current', 'page')
  expect(screen.getByRole('region', { name: 'Wall' })).toBeInTheDocument()
  expect(screen.getByRole('textbox', { name: 'Write a post' })).toBeInTheDocument()
  await app.user.click(within(tabs).getByRole('link', { name: 'Events' }))
  expect(screen.getByRole('heading', { name: 'Events' })).toBeInTheDocument()
  expect(await screen.findByRole('heading', { name: 'No events yet' })).toBeInTheDocument()
  await app.user.click(within(tabs).getByRole('link', { name: 'Polls' }))
  expect(await screen.findByRole('heading', { name: 'No polls yet' })).toBeInTheDocument()
  app.unmount()

  open('/bubles/book-club/nonsense', bookClub())
  const overview = await screen.findByRole('link', { name: 'Overview' })
  expect(overview).toHaveAttribute('aria-current', 'page')
  expect(overview).toHaveAttribute('href', '/bubles/book-club')
  expect(screen.getByRole('heading', { name: 'About this Buble' })).toBeInTheDocument()
})

test('the overview shows created date, owner and your role, not the member count the title bar has', async () => {
  open('/bubles/book-club', bookClub({ ...ownedBy(bob) }))
  const about = await screen.findByRole('region', { name: 'About this Buble' })
  const facts = Object.fromEntries(
    within(about)
      .getAllByRole('term')
      .map((term) => [term.textContent, term.nextElementSibling?.textContent]),
  )
  expect(facts).toEqual({ Created: '23 Nov 2026', Owner: 'Bob Builder', 'Your role': 'Member' })
})

test('the members tab lists name, e-mail and role badge, owner first', async () => {
  open('/bubles/book-club/members', bookClub())
  const members = await screen.findByRole('region', { name: 'Members' })
  await waitFor(() => expect(within(members).getAllByRole('listitem')).toHaveLength(3))
  const rows = within(members)
    .getAllByRole('listitem')
    .map((row) => [
      row.querySelector('.member-name')?.textContent,
      row.querySelector('.member-email')?.textContent,
      row.querySelector('.role-badge')?.textContent,
    ])
  expect(rows).toEqual([
    ['Alice Example', 'alice@example.com', 'Owner'],
    ['Bob Builder', 'bob@example.com', 'Admin'],
    ['Carol Chen', 'carol@example.com', 'Moderator'],
  ])
})

test('the members tab says "No members found." when the device has none', async () => {
  const buble = bookClub()
  renderApp({
    route: '/bubles/book-club/members',
    user: alice,
    server: { seed: [bubleChange(buble)] },
    api: { [PROFILE]: json(200, alice) },
  })
  expect(await screen.findByText('No members found.')).toBeInTheDocument()
})

test('a buble opened by its id, in any letter case, keeps the tab and moves to its slug address', async () => {
  const buble = bookClub()
  open(`/bubles/${buble.id.toUpperCase()}/polls`, buble)
  expect(await screen.findByRole('heading', { name: 'Polls' })).toBeInTheDocument()
  const polls = screen.getByRole('link', { name: 'Polls' })
  expect(polls).toHaveAttribute('aria-current', 'page')
  expect(polls).toHaveAttribute('href', '/bubles/book-club/polls')
})

test('a notification opening a buble by its id keeps ?chat=open through the move to the slug address', async () => {
  const buble = bookClub()
  open(`/bubles/${buble.id}?chat=open`, buble)
  expect(await screen.findByRole('heading', { level: 1, name: buble.name })).toBeInTheDocument()
  expect(screen.getByRole('link', { name: 'Overview' })).toHaveAttribute('href', '/bubles/book-club')
  expect(await screen.findByRole('button', { name: /Chat/ })).toHaveAttribute('aria-expanded', 'true')
})

test('offline, a buble this device does not hold is not looked up: it says it opens once back online', async () => {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)
  const app = renderApp({ route: '/bubles/secret-club', user: alice })
  expect(await screen.findByRole('heading', { name: 'You are offline' })).toBeInTheDocument()
  expect(
    screen.getByText('This Buble is not on this device yet. It opens once you are back online.'),
  ).toBeInTheDocument()
  expect(app.calls).toHaveLength(0)
})
