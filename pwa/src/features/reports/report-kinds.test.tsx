import { screen, waitFor, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import { eventChange, makeEvent, makePoll, openBubleTab, pollChange, silent } from '../../test/event-fixtures.ts'
import { json } from '../../test/fake-fetch.ts'
import { alice, bob, bubleChange, makeBuble, makeMember, memberChange, person, putChange } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'
import { commentChange, makeComment, makePost, postChange } from '../../test/wall-fixtures.ts'

/** Report on the other kinds (issue 24 §1): someone else's comment, event and poll have it, one's own never. */

type App = ReturnType<typeof renderApp>

async function reportFrom(app: App, card: HTMLElement, what: string, reason: RegExp) {
  await app.user.click(within(card).getByRole('button', { name: `Report ${what}` }))
  const dialog = await screen.findByRole('dialog', { name: `Report this ${what}` })
  await app.user.click(within(dialog).getByRole('radio', { name: reason }))
  await app.user.click(within(dialog).getByRole('button', { name: 'Send report' }))
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  expect(await within(card).findByText(/^Reported/)).toBeInTheDocument()
}

const lastQueued = async (app: App) => (await app.device.current()!.db.outbox.toArray()).at(-1)

test("a comment by someone else has Report; one's own has none", async () => {
  const buble = makeBuble({ name: 'Book Club' })
  const post = makePost(buble.id, 'Bob Builder', 'Bob wrote this', 10, { commentsCount: 2 })
  const bobs = makeComment(post, 'Bob Builder', 'Bob commented', 8)
  const app = renderApp({
    route: '/bubles/book-club/wall',
    user: alice,
    server: {
      ...silent,
      seed: [
        bubleChange(buble),
        memberChange(buble.id, makeMember(alice, 'member')),
        memberChange(buble.id, makeMember(bob, 'member')),
        postChange(post),
        commentChange(bobs),
        commentChange(makeComment(post, 'Alice Example', 'Alice commented', 7)),
      ],
    },
    api: { 'GET /api/users/profile': json(200, alice) },
  })
  const card = await screen.findByRole('article', { name: 'Post by Bob Builder' })
  await app.user.click(within(card).getByRole('button', { name: '2 comments' }))
  const [bobsItem, alicesItem] = within(await within(card).findByRole('list', { name: 'Comments' })).getAllByRole(
    'listitem',
  )
  expect(within(alicesItem!).queryByRole('button', { name: 'Report comment' })).toBeNull()
  await reportFrom(app, bobsItem!, 'comment', /Harassment/)
  expect(await lastQueued(app)).toMatchObject({
    name: 'report.create',
    args: { target_type: 'comment', target_id: bobs.id, reason: 'harassment' },
  })
})

test("an event by someone else has Report; one's own has none", async () => {
  let theirs = ''
  const app = openBubleTab(
    'events',
    (id) => {
      const party = makeEvent(id, 'Bob Builder', 'Party', '2027-01-10T10:00:00.000Z')
      theirs = party.id
      return [eventChange(party), eventChange(makeEvent(id, 'Alice Example', 'Mine', '2027-01-11T10:00:00.000Z'))]
    },
    { server: silent },
  )
  const mine = await screen.findByRole('article', { name: 'Mine' })
  expect(within(mine).queryByRole('button', { name: 'Report event' })).toBeNull()
  await reportFrom(app, screen.getByRole('article', { name: 'Party' }), 'event', /Inappropriate/)
  expect(await lastQueued(app)).toMatchObject({
    name: 'report.create',
    args: { target_type: 'event', target_id: theirs },
  })
})

test("a poll by someone else has Report; one's own has none", async () => {
  let theirs = ''
  const app = openBubleTab(
    'polls',
    (id) => {
      const poll = makePoll(id, 'Bob Builder', 'Which day?', { Mon: 0, Tue: 0 })
      theirs = poll.id
      return [pollChange(poll), pollChange(makePoll(id, 'Alice Example', 'Mine?', { Yes: 0, No: 0 }))]
    },
    { server: silent },
  )
  const mine = await screen.findByRole('article', { name: 'Mine?' })
  expect(within(mine).queryByRole('button', { name: 'Report poll' })).toBeNull()
  await reportFrom(app, screen.getByRole('article', { name: 'Which day?' }), 'poll', /Other/)
  expect(await lastQueued(app)).toMatchObject({
    name: 'report.create',
    args: { target_type: 'poll', target_id: theirs },
  })
})

test("a chat message by someone else has Report; the report's dialog closes back into the open chat", async () => {
  const buble = makeBuble({ name: 'Book Club' })
  const message = (id: string, sender: string, content: string) => ({
    id,
    buble_id: buble.id,
    content,
    type: 'text',
    image_url: null,
    sender: person(sender),
    created_at: new Date(Date.now() - 60_000).toISOString(),
    is_edited: false,
    reply_to_id: null,
    replyTo: null,
    reactions: {},
    reactionsSummary: {},
  })
  const bobsId = '0190f5b4-4000-7000-8000-00000000c001'
  const app = renderApp({
    route: '/bubles/book-club',
    user: alice,
    server: {
      ...silent,
      seed: [
        bubleChange(buble),
        memberChange(buble.id, makeMember(alice, 'member')),
        memberChange(buble.id, makeMember(bob, 'member')),
        putChange('chat_message', message(bobsId, 'Bob Builder', 'Buy my stuff')),
        putChange('chat_message', message('0190f5b4-4000-7000-8000-00000000c002', 'Alice Example', 'Hello')),
      ],
    },
    api: { 'GET /api/users/profile': json(200, alice) },
  })
  await app.user.click(await screen.findByRole('button', { name: /^Chat/ }))
  const chat = screen.getByRole('dialog', { name: 'Chat in Book Club' })
  const bobs = await within(chat).findByRole('listitem', { name: 'Message from Bob Builder' })
  const alices = within(chat).getByRole('listitem', { name: 'Message from Alice Example' })
  expect(within(alices).queryByRole('button', { name: 'Report message' })).toBeNull()
  // Escape closes the report's dialog alone: the chat stays open.
  await app.user.click(within(bobs).getByRole('button', { name: 'Report message' }))
  await screen.findByRole('dialog', { name: 'Report this chat message' })
  await app.user.keyboard('{Escape}')
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Report this chat message' })).toBeNull())
  expect(screen.getByRole('dialog', { name: 'Chat in Book Club' })).toBeInTheDocument()
  await app.user.click(within(bobs).getByRole('button', { name: 'Report message' }))
  const dialog = await screen.findByRole('dialog', { name: 'Report this chat message' })
  await app.user.click(within(dialog).getByRole('radio', { name: /Spam/ }))
  await app.user.click(within(dialog).getByRole('button', { name: 'Send report' }))
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Report this chat message' })).toBeNull())
  expect(screen.getByRole('dialog', { name: 'Chat in Book Club' })).toBeInTheDocument()
  expect(await within(bobs).findByRole('status')).toHaveTextContent('Thanks. Your report goes to the moderators')
  expect(await lastQueued(app)).toMatchObject({
    name: 'report.create',
    args: { target_type: 'chat_message', target_id: bobsId, reason: 'spam' },
  })
})

test('a story by someone else has Report in the viewer; the story waits while it is reported', async () => {
  const buble = makeBuble({ name: 'Photo Club' })
  const created = Date.now() - 60_000
  const story = {
    id: '0190f5b4-4000-7000-8000-00000000d001',
    buble_id: buble.id,
    media_url: '/api/uploads/secure/story-r.webp',
    media_type: 'image',
    author: person('Bob Builder'),
    duration_seconds: 1,
    created_at: new Date(created).toISOString(),
    expires_at: new Date(created + 24 * 3_600_000).toISOString(),
  }
  const app = renderApp({
    route: '/bubles/photo-club',
    user: alice,
    server: {
      ...silent,
      seed: [bubleChange(buble), memberChange(buble.id, makeMember(alice, 'member')), putChange('story', story)],
    },
    api: { 'GET /api/users/profile': json(200, alice), [`GET ${story.media_url}`]: () => new Response('image') },
  })
  await app.user.click(await screen.findByRole('button', { name: 'Stories by Bob Builder, 1 story' }))
  const viewer = screen.getByRole('dialog', { name: 'Story by Bob Builder' })
  await within(viewer).findByRole('img', { name: 'Story by Bob Builder' })
  await app.user.click(within(viewer).getByRole('button', { name: 'Report story' }))
  const dialog = await screen.findByRole('dialog', { name: 'Report this story' })
  // Longer than the story lasts: it waits for the report.
  await new Promise((resolve) => setTimeout(resolve, 1500))
  expect(screen.getByRole('dialog', { name: 'Story by Bob Builder' })).toBeInTheDocument()
  await app.user.click(within(dialog).getByRole('radio', { name: /Inappropriate/ }))
  await app.user.click(within(dialog).getByRole('button', { name: 'Send report' }))
  expect(await lastQueued(app)).toMatchObject({
    name: 'report.create',
    args: { target_type: 'story', target_id: story.id, reason: 'inappropriate' },
  })
})
