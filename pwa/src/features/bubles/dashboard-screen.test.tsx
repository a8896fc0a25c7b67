import type { PullResponse } from '@buble/sync/protocol'
import { screen, waitFor, within } from '@testing-library/react'
import { expect, test, vi } from 'vitest'
import { bubleServer } from '../../test/buble-server.ts'
import { deferred } from '../../test/deferred.ts'
import { json } from '../../test/fake-fetch.ts'
import { alice, bubleChange, makeBuble, person } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'

const PROFILE = 'GET /api/users/profile'
const signedIn = { route: '/dashboard', user: alice }

const goOffline = () => vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)

test('a spinner shows until the first pull has answered, then the empty state', async () => {
  const firstPull = deferred<PullResponse>()
  renderApp({ ...signedIn, api: { [PROFILE]: json(200, alice) }, server: { pull: () => firstPull.promise } })
  expect(await screen.findByText('Loading your bubles…')).toBeInTheDocument()
  expect(screen.queryByRole('heading', { name: 'No bubles yet' })).toBeNull()
  firstPull.resolve({ cursor: 'c1', hasMore: false, changes: [] })
  expect(await screen.findByRole('heading', { name: 'No bubles yet' })).toBeInTheDocument()
  expect(screen.queryByText('Loading your bubles…')).toBeNull()
})

test('offline before the first sync, it says the bubles appear once back online', async () => {
  goOffline()
  renderApp({ ...signedIn, server: { pull: () => new Promise(() => {}) } })
  expect(await screen.findByRole('heading', { name: 'You are offline' })).toBeInTheDocument()
  expect(screen.getByText('Your bubles appear here once you are back online.')).toBeInTheDocument()
  expect(screen.queryByText('Loading your bubles…')).toBeNull()
})

test('cards show name, created date, member count, three initial badges and +N, newest first', async () => {
  const crew = makeBuble({
    name: 'Climbing Crew',
    created_at: '2026-11-20T09:00:00.000Z',
    members: ['Alice Example', 'Bob Builder', 'Carol Chen', 'Dan Dare', 'Eve Evans'].map((name) => person(name)),
  })
  const solo = makeBuble({ name: 'Just Me', created_at: '2026-11-23T10:00:00.000Z' })
  renderApp({
    ...signedIn,
    api: { [PROFILE]: json(200, alice) },
    server: { seed: [bubleChange(crew), bubleChange(solo)] },
  })

  const grid = await screen.findByRole('list', { name: 'Your bubles' })
  const cards = within(grid).getAllByRole('article')
  expect(cards.map((card) => within(card).getByRole('heading').textContent)).toEqual(['Just Me', 'Climbing Crew'])

  const card = cards[1]!
  expect(within(card).getByRole('link', { name: 'Climbing Crew' })).toHaveAttribute('href', '/bubles/climbing-crew')
  expect(within(card).getByText('Created 20 Nov 2026')).toBeInTheDocument()
  expect(within(card).getByText('5 members')).toBeInTheDocument()
  const badges = within(within(card).getByRole('list', { name: 'Members' })).getAllByRole('listitem')
  expect(badges.map((badge) => badge.textContent)).toEqual([
    'AEAlice Example',
    'BBBob Builder',
    'CCCarol Chen',
    '+2and 2 more',
  ])
  expect(within(card).queryByText('Not synced yet')).toBeNull()

  expect(within(cards[0]!).getByText('1 member')).toBeInTheDocument()
  expect(within(cards[0]!).queryByText(/^\+/)).toBeNull()
})

test('Create: a blank name is refused, then the buble opens at once, marked not synced until the server has it', async () => {
  const server = bubleServer()
  const push = deferred<void>()
  const app = renderApp({
    ...signedIn,
    api: { [PROFILE]: json(200, alice) },
    server: {
      ...server,
      async push(body) {
        await push.promise
        return server.push(body)
      },
    },
  })
  await app.user.click(await screen.findByRole('button', { name: 'Create New Buble' }))
  const dialog = screen.getByRole('dialog', { name: 'Create New Buble' })
  const name = within(dialog).getByLabelText('Buble Name')
  expect(name).toHaveFocus()

  await app.user.type(name, '   ')
  await app.user.click(within(dialog).getByRole('button', { name: 'Create Buble' }))
  expect(within(dialog).getByText('Buble name is required')).toBeInTheDocument()
  expect(name).toHaveAttribute('aria-invalid', 'true')

  await app.user.clear(name)
  await app.user.type(name, '  Book Club  ')
  await app.user.click(within(dialog).getByRole('button', { name: 'Create Buble' }))

  expect(await screen.findByRole('heading', { level: 1, name: 'Book Club' })).toBeInTheDocument()
  expect(screen.getByText('Not synced yet')).toBeInTheDocument()
  await waitFor(() => expect(app.device.pushes).toHaveLength(1))
  const mutation = app.device.pushes[0]!.mutations[0]!
  expect(mutation).toMatchObject({ name: 'buble.create', args: { name: 'Book Club' } })
  const id = (mutation.args as { id: string }).id
  expect(screen.getByRole('link', { name: 'Overview' })).toHaveAttribute('href', `/bubles/${id}`)

  // The server takes it and gives it a slug: the marker goes, and the address becomes the slug.
  push.resolve()
  await waitFor(() => expect(screen.queryByText('Not synced yet')).toBeNull())
  expect(await screen.findByRole('link', { name: 'Overview' })).toHaveAttribute('href', '/bubles/book-club')
  expect(screen.getByRole('heading', { level: 1, name: 'Book Club' })).toBeInTheDocument()
})

test('Create: when the device cannot store the buble, the alert asks to try again', async () => {
  const error = vi.spyOn(console, 'error').mockImplementation(() => {})
  const app = renderApp({ ...signedIn, api: { [PROFILE]: json(200, alice) } })
  await app.user.click(await screen.findByRole('button', { name: 'Create New Buble' }))
  vi.spyOn(app.device.current()!, 'mutate').mockRejectedValue(new Error('QuotaExceededError'))
  const dialog = screen.getByRole('dialog', { name: 'Create New Buble' })
  await app.user.type(within(dialog).getByLabelText('Buble Name'), 'Book Club')
  await app.user.click(within(dialog).getByRole('button', { name: 'Create Buble' }))
  expect(await within(dialog).findByRole('alert')).toHaveTextContent(/^Failed to create Buble\. Please try again\.$/)
  expect(error).toHaveBeenCalled()
})

test('Escape closes the create dialog and gives the focus back to its button', async () => {
  const app = renderApp({ ...signedIn, api: { [PROFILE]: json(200, alice) } })
  const create = await screen.findByRole('button', { name: 'Create New Buble' })
  await app.user.click(create)
  expect(screen.getByRole('dialog', { name: 'Create New Buble' })).toBeInTheDocument()
  await app.user.keyboard('{Escape}')
  expect(screen.queryByRole('dialog')).toBeNull()
  expect(create).toHaveFocus()
})
