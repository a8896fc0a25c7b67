import { MUTED_INDEFINITELY } from '@buble/shared/mutes'
import { screen, waitFor, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import { json } from '../test/fake-fetch.ts'
import { alice, bob, bubleChange, makeBuble, makeMember, memberChange, ownedBy } from '../test/fixtures.ts'
import { renderApp } from '../test/render-app.tsx'
import { makePost } from '../test/wall-fixtures.ts'

/** Book Club, owned by Bob, with Alice muted until `until` (or not at all) and one post of Bob's. */
function open(until: string | null, tab = 'wall') {
  const buble = makeBuble({
    name: 'Book Club',
    ...ownedBy(bob),
    my_role: 'member',
    my_permissions: ['create_events', 'create_polls'],
  })
  const post = makePost(buble.id, 'Bob Builder', 'Next book?', 5)
  const app = renderApp({
    route: `/bubles/book-club/${tab}`,
    user: alice,
    api: { 'GET /api/users/profile': json(200, alice) },
    server: {
      seed: [
        bubleChange(buble),
        memberChange(buble.id, makeMember(bob, 'owner')),
        memberChange(buble.id, { ...makeMember(alice, 'member'), ...(until ? { muted_until: until } : {}) }),
        { entity: 'post', op: 'put', id: post.id, buble_id: buble.id, data: post },
      ],
    },
  })
  return { ...app, buble, post }
}

const inAnHour = () => new Date(Date.now() + 3600_000).toISOString()

test('a muted member sees the banner with the end time, and the post composer gives way to the same words', async () => {
  const until = '2026-12-24T17:30:00.000Z'
  // The date is fixed so the text is too (Stockholm, winter time); the test clock is before it.
  expect(Date.now()).toBeLessThan(Date.parse(until))
  open(until)
  await waitFor(() => expect(document.querySelector('.muted-banner')).not.toBeNull())
  const text = /You are muted in this buble until Thu 24 Dec( 2026)?, 18:30 CET\./
  expect(document.querySelector('.muted-banner')).toHaveTextContent(text)
  expect(document.querySelector('.muted-banner')).toHaveTextContent(
    'You can still read everything here; posts, comments, chat, reactions, RSVPs and votes wait until then.',
  )
  // Reading stays: the post is there; writing does not: no field to write in, the refusal instead.
  expect(await screen.findByText('Next book?')).toBeInTheDocument()
  expect(screen.queryByRole('textbox', { name: 'Write a post' })).toBeNull()
  const wall = screen.getByRole('region', { name: 'Wall' })
  expect(
    within(wall)
      .getAllByRole('note')
      .some((note) => text.test(note.textContent ?? '')),
  ).toBe(true)
})

test('a mute until unmuted says who ends it', async () => {
  open(MUTED_INDEFINITELY)
  await waitFor(() =>
    expect(document.querySelector('.muted-banner')).toHaveTextContent(
      'You are muted in this buble until a moderator unmutes you.',
    ),
  )
})

test('not muted, or a mute that has ended: no banner, the composer is there', async () => {
  open(new Date(Date.now() - 1000).toISOString())
  expect(await screen.findByRole('textbox', { name: 'Write a post' })).toBeInTheDocument()
  expect(document.querySelector('.muted-banner')).toBeNull()
})

test.each([
  ['polls', 'Create Poll'],
  ['events', 'Create Event'],
])('the %s tab offers "%s" only while not muted', async (tab, label) => {
  const first = open(null, tab)
  expect(await screen.findByRole('button', { name: label })).toBeInTheDocument()
  first.unmount()
  open(inAnHour(), tab)
  await waitFor(() => expect(document.querySelector('.muted-banner')).not.toBeNull())
  expect(screen.queryByRole('button', { name: label })).toBeNull()
})

test('a write made anyway (a reaction) is refused on the device: nothing pretends to be saved, the not-saved list has the text', async () => {
  const app = open(inAnHour())
  await waitFor(() => expect(document.querySelector('.muted-banner')).not.toBeNull())
  const device = app.device.current()!
  await device.mutate('reaction.add', { post_id: app.post.id, reactionType: 'like' })
  await device.mutate('post.create', { id: crypto.randomUUID(), buble_id: app.buble.id, content: 'Sneaky' })
  const rejections = await device.db.rejections.toArray()
  expect(rejections.map((r) => [r.name, r.code, r.message])).toEqual([
    ['reaction.add', 'FORBIDDEN', expect.stringMatching(/^You are muted in this buble until /)],
    ['post.create', 'FORBIDDEN', expect.stringMatching(/^You are muted in this buble until /)],
  ])
  // Nothing queued, nothing shown as made.
  expect(await device.db.outbox.count()).toBe(0)
  expect(await device.db.posts.count()).toBe(1)
  expect(app.device.pushes.flatMap((push) => push.mutations)).toEqual([])
  // Marking a tab read is not writing: it goes.
  await device.mutate('unread.read', { buble_id: app.buble.id, contentType: 'wall' })
  expect(await device.db.rejections.count()).toBe(2)
  // The header says so, and the details give the words.
  await app.user.click(await screen.findByRole('button', { name: 'Details' }))
  const dialog = await screen.findByRole('dialog')
  expect(within(dialog).getByText('Sneaky')).toBeInTheDocument()
  expect(within(dialog).getAllByText(/^You are muted in this buble until /)).toHaveLength(2)
})
