import { screen, waitFor, within } from '@testing-library/react'
import { v7 as uuidv7 } from 'uuid'
import { expect, test, vi } from 'vitest'
import { bubleServer } from '../../test/buble-server.ts'
import { eventChange, makeEvent } from '../../test/event-fixtures.ts'
import { json } from '../../test/fake-fetch.ts'
import {
  alice,
  bob,
  bubleChange,
  makeBuble,
  makeMember,
  memberChange,
  person,
  putChange,
  unreadChange,
} from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'
import { commentChange, makeComment, makePost, postChange } from '../../test/wall-fixtures.ts'

const PROFILE = 'GET /api/users/profile'
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString()

let messages = 0
const chatMessage = (
  bubleId: string,
  sender: string,
  content: string,
  minutes: number,
  type: 'text' | 'image' = 'text',
) =>
  putChange('chat_message', {
    id: `0190f5b4-4900-7000-8000-${String(++messages).padStart(12, '0')}`,
    buble_id: bubleId,
    content,
    type,
    image_url: type === 'image' ? '/uploads/x.webp' : null,
    sender: person(sender),
    created_at: minutesAgo(minutes),
    is_edited: false,
    reply_to_id: null,
    replyTo: null,
    reactions: {},
    reactionsSummary: {},
  } as { id: string; buble_id: string })

const cardNames = () =>
  within(screen.getByRole('list', { name: 'Your bubles' }))
    .getAllByRole('article')
    .map((card) => within(card).getByRole('heading').textContent)

const cardOf = (name: string) => screen.getByRole('heading', { name }).closest('article') as HTMLElement
/** The card's visible line of activity. */
const activityOf = (name: string) => cardOf(name).querySelector('.buble-card-activity') as HTMLElement

test('each card shows its unread total and latest activity; cards go newest activity first; the title counts unread', async () => {
  // Created in this order, newest last: without activity the newest would lead.
  const family = makeBuble({ name: 'Family', created_at: minutesAgo(3000) })
  const club = makeBuble({ name: 'Book Club', created_at: minutesAgo(2000) })
  const quiet = makeBuble({ name: 'Quiet Corner', created_at: minutesAgo(1000) })
  const server = bubleServer([
    bubleChange(family),
    bubleChange(club),
    bubleChange(quiet),
    memberChange(family.id, makeMember(bob)),
    // Family: a post an hour ago, then Bob in chat two minutes ago.
    postChange(makePost(family.id, 'Alice Example', 'Sunday lunch?', 60)),
    chatMessage(family.id, bob.name, 'see you at 7', 2),
    unreadChange(family.id, 'chat', 2),
    unreadChange(family.id, 'wall', 1),
    // Book Club: an event Alice added 30 minutes ago.
    eventChange(makeEvent(club.id, alice.name, 'Reading night', minutesAgo(-3000), {}, { created_at: minutesAgo(30) })),
    unreadChange(club.id, 'events', 0),
  ])
  const app = renderApp({ route: '/dashboard', user: alice, api: { [PROFILE]: json(200, alice) }, server })

  await waitFor(() => expect(cardNames()).toEqual(['Family', 'Book Club', 'Quiet Corner']))
  const familyCard = cardOf('Family')
  expect(within(familyCard).getByText('3 unread')).toBeInTheDocument()
  expect(activityOf('Family')).toHaveTextContent('Bob Builder in chat: see you at 7 · 2m ago')
  // The card's one link says it too, for those who move from link to link.
  expect(within(familyCard).getByRole('link', { name: 'Family' })).toHaveAccessibleDescription(
    '3 unread, Bob Builder in chat: see you at 7, 2m ago',
  )
  expect(activityOf('Book Club')).toHaveTextContent(/^You added an event: Reading night · 30m ago$/)
  expect(within(cardOf('Book Club')).queryByText(/unread/)).toBeNull()
  expect(activityOf('Quiet Corner')).toHaveTextContent(/^Nothing new yet$/)
  // The members are still there.
  expect(within(within(familyCard).getByRole('list', { name: 'Members' })).getAllByRole('listitem')).not.toHaveLength(0)
  await waitFor(() => expect(document.title).toBe('(3) Your Bubles · Buble'))

  // Another member writes in the quiet buble: its card moves to the top and the totals follow, live.
  server.send(chatMessage(quiet.id, bob.name, 'anyone there?', 0), unreadChange(quiet.id, 'chat', 1))
  await app.device.current()!.engine.sync()
  await waitFor(() => expect(cardNames()).toEqual(['Quiet Corner', 'Family', 'Book Club']))
  expect(activityOf('Quiet Corner')).toHaveTextContent('Bob Builder in chat: anyone there? · now')
  expect(within(cardOf('Quiet Corner')).getByText('1 unread')).toBeInTheDocument()
  await waitFor(() => expect(document.title).toBe('(4) Your Bubles · Buble'))
})

test('the newest comment of a buble, found by its index among older ones, is its latest activity', async () => {
  const garden = makeBuble({ name: 'Garden', created_at: minutesAgo(5000) })
  const post = makePost(garden.id, 'Alice Example', 'Tomatoes are in', 120)
  const server = bubleServer([
    bubleChange(garden),
    postChange(post),
    // Stored out of order: the newest (5 minutes ago) sits between two older ones.
    commentChange({ ...makeComment(post, bob.name, 'an old one', 90), id: '0190f5b4-4900-7000-8000-00000000c001' }),
    commentChange({ ...makeComment(post, bob.name, 'lovely', 5), id: '0190f5b4-4900-7000-8000-00000000c000' }),
    commentChange({ ...makeComment(post, bob.name, 'older still', 100), id: '0190f5b4-4900-7000-8000-00000000c002' }),
  ])
  renderApp({ route: '/dashboard', user: alice, api: { [PROFILE]: json(200, alice) }, server })
  await waitFor(() => expect(activityOf('Garden')).toHaveTextContent(/^Bob Builder commented: lovely · 5m ago$/))
})

test('a long buble name keeps its full text in the title attribute; a photo without caption reads as a photo', async () => {
  const long = makeBuble({ name: `The ${'very '.repeat(30)}long buble name` })
  const server = bubleServer([bubleChange(long), chatMessage(long.id, bob.name, '', 1, 'image')])
  renderApp({ route: '/dashboard', user: alice, api: { [PROFILE]: json(200, alice) }, server })
  const heading = await screen.findByRole('heading', { name: long.name })
  expect(heading).toHaveAttribute('title', long.name)
  await waitFor(() => expect(activityOf(long.name)).toHaveTextContent('Bob Builder sent a photo · 1m ago'))
})

test('offline, what the user writes on this device moves its buble to the top at once, from IndexedDB', async () => {
  const first = makeBuble({ name: 'First', created_at: minutesAgo(600) })
  const second = makeBuble({ name: 'Second', created_at: minutesAgo(300) })
  const server = bubleServer([bubleChange(first), bubleChange(second)])
  const app = renderApp({
    route: '/dashboard',
    user: alice,
    api: { [PROFILE]: json(200, alice) },
    server: { ...server, push: () => new Promise(() => {}) },
  })
  await waitFor(() => expect(cardNames()).toEqual(['Second', 'First']))
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)
  window.dispatchEvent(new Event('offline'))

  await app.device.current()!.mutate('chat.send', { id: uuidv7(), buble_id: first.id, content: 'on the train' })
  await waitFor(() => expect(cardNames()).toEqual(['First', 'Second']))
  expect(activityOf('First')).toHaveTextContent('You in chat: on the train · now')
  // The user's own writing is not unread.
  expect(within(cardOf('First')).queryByText(/unread/)).toBeNull()
})

test('a mention of the user marks the card with @, and the activity line shows mentions by name', async () => {
  const club = makeBuble({ name: 'Mention Club', created_at: minutesAgo(500) })
  const wall = unreadChange(club.id, 'wall', 1)
  const server = bubleServer([
    bubleChange(club),
    memberChange(club.id, makeMember(bob)),
    memberChange(club.id, makeMember(alice, 'owner')),
    postChange(makePost(club.id, bob.name, `ask <@${alice.id}> and <@${uuidv7()}>`, 3)),
    { ...wall, data: { contentType: 'wall', unreadCount: 1, mentioned: true } } as typeof wall,
  ])
  renderApp({ route: '/dashboard', user: alice, api: { [PROFILE]: json(200, alice) }, server })
  await waitFor(() =>
    expect(activityOf('Mention Club')).toHaveTextContent('Bob Builder on the wall: ask @Alice Example and @someone'),
  )
  const card = cardOf('Mention Club')
  expect(within(card).getByText('you were mentioned')).toBeInTheDocument()
  expect(within(card).getByRole('link', { name: 'Mention Club' })).toHaveAccessibleDescription(
    /^1 unread, you were mentioned, Bob Builder on the wall: ask @Alice Example and @someone/,
  )
})
