import { screen, waitFor, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import { bubleServer } from '../../test/buble-server.ts'
import { json } from '../../test/fake-fetch.ts'
import {
  alice,
  bob,
  bubleChange,
  makeBuble,
  makeMember,
  memberChange,
  ownedBy,
  unreadChange,
} from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'

const PROFILE = 'GET /api/users/profile'
const buble = makeBuble({ name: 'Reading Circle' })
const counters = [
  unreadChange(buble.id, 'wall', 3),
  unreadChange(buble.id, 'events', 100),
  unreadChange(buble.id, 'polls', 0),
  unreadChange(buble.id, 'members', 2),
  unreadChange(buble.id, 'chat', 7),
  unreadChange(buble.id, 'reports', 4),
]
const seed = [bubleChange(buble), memberChange(buble.id, makeMember(alice, 'owner')), ...counters]

function open(route: string, server = bubleServer(seed)) {
  const app = renderApp({ route, user: alice, server, api: { [PROFILE]: json(200, alice) } })
  return { ...app, server }
}

/** Each tab by its accessible name, which carries the counter ("Wall 3 unread"). */
const expectTabs = (names: string[]) => {
  const nav = screen.getByRole('navigation', { name: 'Buble sections' })
  expect(within(nav).getAllByRole('link')).toHaveLength(names.length)
  for (const name of names) expect(within(nav).getByRole('link', { name })).toBeInTheDocument()
}

const reads = (app: ReturnType<typeof open>) =>
  app.device.pushes.flatMap((push) => push.mutations).filter((mutation) => mutation.name === 'unread.read')

test('tabs show the synced counters, "99+" at the cap, nothing at zero and never on the overview', async () => {
  const app = open('/bubles/reading-circle')
  expect(await screen.findByRole('link', { name: 'Wall 3 unread' })).toHaveAttribute(
    'href',
    '/bubles/reading-circle/wall',
  )
  // The owner holds moderate_content: the Reports tab and its counter (issue 24 §1).
  expectTabs([
    'Overview',
    'Wall 3 unread',
    'Events 99+ unread',
    'Polls',
    'Media',
    'Members 2 unread',
    'Reports 4 unread',
  ])
  expect(screen.getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page')
  expect(screen.getByRole('link', { name: 'Overview' }).querySelector('.tab-count')).toBeNull()
  // The overview marks nothing read.
  await app.device.current()!.engine.settled()
  expect(reads(app)).toEqual([])
})

test('opening a tab pushes unread.read and clears its counter; the other tabs keep theirs', async () => {
  const app = open('/bubles/reading-circle')
  await app.user.click(await screen.findByRole('link', { name: 'Wall 3 unread' }))
  expect(screen.getByRole('link', { name: 'Wall' })).toHaveAttribute('aria-current', 'page')
  await waitFor(() => expect(reads(app)).toHaveLength(1))
  expect(reads(app)[0]!.args).toEqual({ buble_id: buble.id, contentType: 'wall' })
  expect(screen.getByRole('link', { name: 'Members 2 unread' })).toBeInTheDocument()

  // Cleared on the device, not merely hidden on the open tab.
  await app.user.click(screen.getByRole('link', { name: 'Overview' }))
  await waitFor(() =>
    expectTabs(['Overview', 'Wall', 'Events 99+ unread', 'Polls', 'Media', 'Members 2 unread', 'Reports 4 unread']),
  )
  await app.device.current()!.engine.settled()
  expect(await app.device.current()!.db.unread.get(`${buble.id}:wall`)).toMatchObject({ unreadCount: 0 })

  await app.user.click(screen.getByRole('link', { name: 'Members 2 unread' }))
  await waitFor(() => expect(reads(app)).toHaveLength(2))
  expect(reads(app)[1]!.args).toEqual({ buble_id: buble.id, contentType: 'members' })
})

test('a member without moderate_content has no Reports tab, whatever the device holds', async () => {
  const theirs = { ...buble, ...ownedBy(bob) }
  const member = [bubleChange(theirs), memberChange(buble.id, makeMember(alice, 'member')), ...counters]
  open('/bubles/reading-circle', bubleServer(member))
  await screen.findByRole('link', { name: 'Wall 3 unread' })
  await waitFor(() =>
    expectTabs(['Overview', 'Wall 3 unread', 'Events 99+ unread', 'Polls', 'Media', 'Members 2 unread']),
  )
})

test('content arriving while a tab is open is read at once', async () => {
  const app = open('/bubles/reading-circle/polls', bubleServer([...seed, unreadChange(buble.id, 'polls', 1)]))
  await waitFor(() => expect(reads(app)).toHaveLength(1))
  await app.device.current()!.engine.settled()

  app.server.send(unreadChange(buble.id, 'polls', 2))
  await app.device.current()!.engine.sync()
  await waitFor(() => expect(reads(app)).toHaveLength(2))
  expect(reads(app)[1]!.args).toEqual({ buble_id: buble.id, contentType: 'polls' })
  await app.user.click(screen.getByRole('link', { name: 'Overview' }))
  await waitFor(() => expect(screen.getByRole('link', { name: 'Polls' })).toBeInTheDocument())
})

test('with no answer from the server, the counter still drops to zero at once', async () => {
  const app = renderApp({
    route: '/bubles/reading-circle/events',
    user: alice,
    api: { [PROFILE]: json(200, alice) },
    server: { seed, push: () => new Promise(() => {}) },
  })
  await app.user.click(await screen.findByRole('link', { name: 'Overview' }))
  await waitFor(() => expect(screen.getByRole('link', { name: 'Events' })).toBeInTheDocument())
  await waitFor(() => expect(app.device.pushes).toHaveLength(1))
  expect(app.device.pushes[0]!.mutations[0]).toMatchObject({ name: 'unread.read', args: { contentType: 'events' } })
})

test('a refused read is not asked again and again', async () => {
  const server = bubleServer(seed, (mutation) =>
    mutation.name === 'unread.read' ? { code: 'FORBIDDEN', message: 'You cannot do that' } : null,
  )
  const app = open('/bubles/reading-circle/wall', server)
  await waitFor(async () => expect(await app.device.current()!.db.rejections.count()).toBe(1))
  await app.device.current()!.engine.settled()
  await new Promise((resolve) => setTimeout(resolve, 200))
  expect(reads(app)).toHaveLength(1)
  // Rolled back: the counter is the server's again.
  await app.user.click(screen.getByRole('link', { name: 'Overview' }))
  expect(await screen.findByRole('link', { name: 'Wall 3 unread' })).toBeInTheDocument()
})

test('a tab holding an unread mention shows @ instead of its count, and opening it reads it, even at no count', async () => {
  const mention = (contentType: 'wall' | 'chat', unreadCount: number) => {
    const change = unreadChange(buble.id, contentType, unreadCount)
    return { ...change, data: { contentType, unreadCount, mentioned: true } } as typeof change
  }
  // An edit adding a mention counts nothing new: only the mark says so.
  const app = open('/bubles/reading-circle', bubleServer([...seed, mention('wall', 0)]))
  expect(await screen.findByRole('link', { name: 'Wall you were mentioned' })).toBeInTheDocument()
  expect(screen.getByRole('link', { name: 'Wall you were mentioned' }).querySelector('.tab-mention')).not.toBeNull()

  await app.user.click(screen.getByRole('link', { name: 'Wall you were mentioned' }))
  await waitFor(() => expect(reads(app)).toHaveLength(1))
  expect(reads(app)[0]!.args).toEqual({ buble_id: buble.id, contentType: 'wall' })
  await app.user.click(screen.getByRole('link', { name: 'Overview' }))
  await waitFor(() => expect(screen.getByRole('link', { name: 'Wall' })).toBeInTheDocument())
  expect(screen.getByRole('link', { name: 'Wall' }).querySelector('.tab-mention')).toBeNull()
})
