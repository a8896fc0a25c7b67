import { screen, waitFor, within } from '@testing-library/react'
import { expect, test, vi } from 'vitest'
import {
  dashboard,
  eventRow,
  listUrl,
  PROFILE,
  page,
  pollRow,
  root,
  userRow,
  usersPage,
} from '../../test/admin-fixtures.ts'
import { json } from '../../test/fake-fetch.ts'
import { bob } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'

const signedInAt = (route: string, api: Parameters<typeof renderApp>[0]['api']) =>
  renderApp({ route, user: root, api: { [PROFILE]: json(200, root), ...api } })

test('Add New user checks name, e-mail and a 6-character password, then creates the user', async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  const app = signedInAt('/admin?tab=users', {
    [listUrl('users')]: [usersPage([]), usersPage([userRow(9, { name: 'Carol Chen' })])],
    'POST /api/admin/users': [
      json(409, { message: 'Email already registered', code: 'CONFLICT' }),
      new TypeError('offline'),
      json(201, userRow(9, { name: 'Carol Chen' })),
    ],
  })
  await app.user.click(await screen.findByRole('button', { name: 'Add New' }))
  const dialog = screen.getByRole('dialog', { name: 'Add New User' })
  await app.user.type(within(dialog).getByLabelText('Name'), 'Carol Chen')
  await app.user.type(within(dialog).getByLabelText('Email'), 'not-an-address')
  await app.user.type(within(dialog).getByLabelText('Password'), '12345')
  await app.user.click(within(dialog).getByRole('button', { name: 'Create User' }))
  expect(within(dialog).getByText('Please enter a valid email address')).toBeInTheDocument()
  expect(within(dialog).getByText('Password must be at least 6 characters')).toBeInTheDocument()
  expect(app.callsTo('POST /api/admin/users')).toEqual([])

  await app.user.clear(within(dialog).getByLabelText('Email'))
  await app.user.type(within(dialog).getByLabelText('Email'), 'Carol@Example.com')
  await app.user.type(within(dialog).getByLabelText('Password'), '6')
  await app.user.selectOptions(within(dialog).getByLabelText('Role'), 'Administrator')
  await app.user.click(within(dialog).getByRole('button', { name: 'Create User' }))
  expect(await within(dialog).findByRole('alert')).toHaveTextContent(/^Email already registered$/)
  await app.user.click(within(dialog).getByRole('button', { name: 'Create User' }))
  await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent(/^Failed to create user$/))
  await app.user.click(within(dialog).getByRole('button', { name: 'Create User' }))
  expect(await screen.findByText('User created successfully')).toBeInTheDocument()
  expect(screen.queryByRole('dialog')).toBeNull()
  expect(app.callsTo('POST /api/admin/users')[2]?.body).toEqual({
    name: 'Carol Chen',
    email: 'carol@example.com',
    password: '123456',
    role: 'admin',
  })
  expect(await screen.findByText('Carol Chen')).toBeInTheDocument()
})

test('Add New buble needs a name; its owner is the admin unless another user is picked', async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  const carol = userRow(7, { name: 'Carol Chen' })
  const app = signedInAt('/admin?tab=bubles', {
    [listUrl('bubles')]: page('bubles', []),
    [listUrl('users')]: usersPage([userRow(6)]),
    [listUrl('users', 1, 'carol')]: usersPage([carol]),
    'POST /api/admin/bubles': [new TypeError('offline'), json(201, {})],
  })
  await app.user.click(await screen.findByRole('button', { name: 'Add New' }))
  const dialog = screen.getByRole('dialog', { name: 'Add New Buble' })
  await app.user.click(within(dialog).getByRole('button', { name: 'Create Buble' }))
  expect(within(dialog).getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true')
  expect(app.callsTo('POST /api/admin/bubles')).toEqual([])

  await app.user.type(within(dialog).getByLabelText('Name'), 'Chess Club')
  expect(within(dialog).getByLabelText('Owner')).toHaveDisplayValue('Me (Ada Admin)')
  await app.user.click(within(dialog).getByRole('button', { name: 'Create Buble' }))
  expect(await within(dialog).findByRole('alert')).toHaveTextContent(/^Failed to create Buble$/)
  expect(app.callsTo('POST /api/admin/bubles')[0]?.body).toEqual({ name: 'Chess Club' })

  await app.user.type(within(dialog).getByLabelText('Find owner'), 'carol')
  await within(dialog).findByRole('option', { name: 'Carol Chen (user7@example.com)' })
  await app.user.selectOptions(within(dialog).getByLabelText('Owner'), 'Carol Chen (user7@example.com)')
  await app.user.click(within(dialog).getByRole('button', { name: 'Create Buble' }))
  expect(await screen.findByText('Buble created successfully')).toBeInTheDocument()
  expect(app.callsTo('POST /api/admin/bubles')[1]?.body).toEqual({ name: 'Chess Club', ownerId: carol.id })
})

test('View shows a user with the bubles they belong to', async () => {
  const user = userRow(8, { name: 'Dan Dare', bio: 'Pilot' })
  const app = signedInAt('/admin?tab=users', {
    [listUrl('users')]: usersPage([user]),
    [`GET /api/admin/users/${user.id}`]: json(200, {
      ...user,
      bubles: [
        {
          id: dashboard.recentBubles[0]!.id,
          name: 'Book Club',
          slug: 'book-club',
          role: 'member',
          joined_at: '2026-11-22T10:00:00.000Z',
        },
      ],
    }),
  })
  await app.user.click(await screen.findByRole('button', { name: 'View user Dan Dare' }))
  const dialog = screen.getByRole('dialog', { name: 'User Details' })
  expect(within(dialog).getByText('Pilot')).toBeInTheDocument()
  expect(within(dialog).getByText('Regular User')).toBeInTheDocument()
  expect(await within(dialog).findByText('Book Club · member · joined 22 Nov 2026')).toBeInTheDocument()
  await app.user.click(within(dialog).getByRole('button', { name: 'Close' }))
  expect(screen.queryByRole('dialog')).toBeNull()
})

test('View of a recent buble lists its members', async () => {
  const buble = dashboard.recentBubles[0]!
  const app = signedInAt('/admin', {
    'GET /api/admin/dashboard': json(200, dashboard),
    [`GET /api/admin/bubles/${buble.id}`]: json(200, {
      ...buble,
      members: [
        {
          user_id: bob.id,
          role: 'admin',
          joined_at: '2026-11-22T10:00:00.000Z',
          user: { name: bob.name, email: bob.email, avatar_url: null },
        },
      ],
      counts: { posts: 1, events: 0, polls: 0 },
    }),
  })
  await app.user.click(await screen.findByRole('button', { name: 'View buble Book Club' }))
  const dialog = screen.getByRole('dialog', { name: 'Buble Details' })
  expect(within(dialog).getByText('Alice Example (alice@example.com)')).toBeInTheDocument()
  expect(await within(dialog).findByText('Bob Builder (bob@example.com) · admin')).toBeInTheDocument()
})

test('editing an event sends its four fields; a failure says "Failed to update event"', async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  const event = eventRow(1, { title: 'Picnic' })
  const app = signedInAt('/admin?tab=events', {
    [listUrl('events')]: page('events', [event]),
    [`PUT /api/admin/events/${event.id}`]: [new TypeError('offline'), json(200, event)],
  })
  await app.user.click(await screen.findByRole('button', { name: 'Edit event Picnic' }))
  const dialog = screen.getByRole('dialog', { name: 'Edit Event' })
  expect(within(dialog).getByLabelText('Date and time')).toHaveValue('2026-12-01T18:00')
  const title = within(dialog).getByLabelText('Title')
  await app.user.clear(title)
  await app.user.click(within(dialog).getByRole('button', { name: 'Save Changes' }))
  expect(within(dialog).getByText('Title is required')).toBeInTheDocument()
  await app.user.type(title, 'Big Picnic')
  await app.user.click(within(dialog).getByRole('button', { name: 'Save Changes' }))
  expect(await within(dialog).findByRole('alert')).toHaveTextContent(/^Failed to update event$/)
  await app.user.click(within(dialog).getByRole('button', { name: 'Save Changes' }))
  expect(await screen.findByText('Event updated successfully')).toBeInTheDocument()
  expect(app.callsTo(`PUT /api/admin/events/${event.id}`)[1]?.body).toEqual({
    title: 'Big Picnic',
    description: 'Bring snacks',
    location: 'The park',
    event_time: '2026-12-01T17:00:00.000Z',
  })
})

test('editing a poll changes its question; a failure says "Failed to update poll"', async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  const poll = pollRow(2, { question: 'Tea?' })
  const app = signedInAt('/admin?tab=polls', {
    [listUrl('polls')]: page('polls', [poll]),
    [`PUT /api/admin/polls/${poll.id}`]: [new TypeError('offline'), json(200, poll)],
  })
  await app.user.click(await screen.findByRole('button', { name: 'Edit poll Tea?' }))
  const dialog = screen.getByRole('dialog', { name: 'Edit Poll' })
  await app.user.type(within(dialog).getByLabelText('Question'), ' Or coffee?')
  await app.user.click(within(dialog).getByRole('button', { name: 'Save Changes' }))
  expect(await within(dialog).findByRole('alert')).toHaveTextContent(/^Failed to update poll$/)
  await app.user.click(within(dialog).getByRole('button', { name: 'Save Changes' }))
  expect(await screen.findByText('Poll updated successfully')).toBeInTheDocument()
  expect(app.callsTo(`PUT /api/admin/polls/${poll.id}`)[1]?.body).toEqual({ question: 'Tea? Or coffee?' })
})

test('the audit tab lists who did what to which row, and when, with search', async () => {
  const entry = {
    id: '0190f5b4-7000-7000-8000-000000000001',
    admin_id: root.id,
    admin_email: root.email,
    action: 'user.update',
    target_type: 'user',
    target_id: bob.id,
    target_label: 'Bob Builder',
    detail: { name: 'Bob Builder' },
    created_at: '2026-11-25T09:00:00.000Z',
  }
  const app = signedInAt('/admin?tab=audit', {
    [listUrl('audit')]: page('audit', [entry]),
    [listUrl('audit', 1, 'nobody')]: page('audit', []),
  })
  const table = await screen.findByRole('region', { name: 'Audit entries' })
  expect(
    within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent),
  ).toEqual(['Who', 'Action', 'Target', 'When'])
  expect(within(table).getByText('ada@example.com')).toBeInTheDocument()
  expect(within(table).getByText('user.update')).toBeInTheDocument()
  expect(within(table).getByText('Bob Builder')).toBeInTheDocument()
  expect(screen.getByText('Showing page 1 of 1 (1 total items)')).toBeInTheDocument()
  expect(screen.queryByRole('button', { name: 'Export CSV' })).toBeNull()
  await app.user.type(screen.getByRole('searchbox', { name: 'Search audit' }), 'nobody')
  expect(await screen.findByRole('heading', { name: 'No matches' })).toBeInTheDocument()
})
