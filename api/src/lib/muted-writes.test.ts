import { randomUUID } from 'node:crypto'
import { MUTED_WRITES } from '@buble/shared/muted-writes'
import { v7 as uuidv7 } from 'uuid'
import { describe, expect, test } from 'vitest'
import { backends } from '../testing/databases.ts'
import type { TestResponse } from '../testing/harness.ts'
import { mutation, push, type TestMutation } from '../testing/sync.ts'
import { type Club, clubSuite, type Person } from '../testing/test-club.ts'

/**
 * A muted member reads but does not write (issue 24 §2): every kind of write, through REST and
 * through sync, is refused with the same text while the mute lasts, and goes through once it ends.
 * What is not writing (reading, marking read, deleting one's own content, leaving) stays allowed.
 */

// Written out rather than built by the code under test: 2026 dates in Stockholm are CET in winter.
const HOUR = 3600_000
const mutedText = (end: Date) => {
  const time = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Stockholm',
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(end)
  const part = Object.fromEntries(time.map(({ type, value }) => [type, value]))
  const zone = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Stockholm', timeZoneName: 'short' })
    .formatToParts(end)
    .find((p) => p.type === 'timeZoneName')?.value
  return `You are muted in this buble until ${part.weekday} ${part.day} ${part.month}, ${part.hour}:${part.minute} ${zone}`
}

/** What the muted member wrote before the mute, and what others wrote that they answer. */
interface Scene {
  bubleId: string
  ownPost: string
  ownComment: string
  ownMessage: string
  ownEvent: string
  ownPoll: string
  post: string
  message: string
  event: string
  poll: string
  option: string
}

interface WriteKind {
  name: string
  rest: (s: Scene) => [method: string, path: string, body?: unknown]
  /** The mutation a device would queue for it (stories and uploads are online only). */
  sync?: (s: Scene) => TestMutation
  /** What it answers once the member is not muted. */
  ok: number
}

const SCENE_OF_IDS: Scene = Object.fromEntries(
  [
    'bubleId',
    'ownPost',
    'ownComment',
    'ownMessage',
    'ownEvent',
    'ownPoll',
    'post',
    'message',
    'event',
    'poll',
    'option',
  ].map((key) => [key, randomUUID()]),
) as unknown as Scene

const inAWeek = () => new Date(Date.now() + 7 * 24 * HOUR).toISOString()

const WRITES: WriteKind[] = [
  {
    name: 'a post',
    rest: (s) => ['POST', `/api/wall/${s.bubleId}/posts`, { content: 'Loud' }],
    sync: (s) => mutation('post.create', { id: uuidv7(), buble_id: s.bubleId, content: 'Loud' }),
    ok: 201,
  },
  {
    name: 'a post with a mention',
    rest: (s) => ['POST', `/api/wall/${s.bubleId}/posts`, { content: 'Hey @owner' }],
    sync: (s) => mutation('post.create', { id: uuidv7(), buble_id: s.bubleId, content: 'Hey @owner' }),
    ok: 201,
  },
  {
    name: 'an edit of their post',
    rest: (s) => ['PUT', `/api/wall/posts/${s.ownPost}`, { content: 'Edited' }],
    sync: (s) => mutation('post.update', { id: s.ownPost, content: 'Edited' }),
    ok: 200,
  },
  {
    name: 'a comment',
    rest: (s) => ['POST', `/api/wall/posts/${s.post}/comments`, { content: 'Me too' }],
    sync: (s) => mutation('comment.create', { id: uuidv7(), post_id: s.post, content: 'Me too' }),
    ok: 201,
  },
  {
    name: 'an edit of their comment',
    rest: (s) => ['PUT', `/api/wall/comments/${s.ownComment}`, { content: 'Edited' }],
    sync: (s) => mutation('comment.update', { id: s.ownComment, content: 'Edited' }),
    ok: 200,
  },
  {
    name: 'a reaction to a post',
    rest: (s) => ['POST', `/api/wall/posts/${s.post}/reactions`, { reactionType: 'like' }],
    sync: (s) => mutation('reaction.add', { post_id: s.post, reactionType: 'like' }),
    ok: 200,
  },
  {
    name: 'taking a reaction back',
    rest: (s) => ['DELETE', `/api/wall/posts/${s.post}/reactions?reactionType=like`],
    sync: (s) => mutation('reaction.remove', { post_id: s.post, reactionType: 'like' }),
    ok: 200,
  },
  {
    name: 'a chat message',
    rest: (s) => ['POST', `/api/chat/${s.bubleId}/messages`, { content: 'Loud' }],
    sync: (s) => mutation('chat.send', { id: uuidv7(), buble_id: s.bubleId, content: 'Loud' }),
    ok: 201,
  },
  {
    name: 'an edit of their chat message',
    rest: (s) => ['PUT', `/api/chat/messages/${s.ownMessage}`, { content: 'Edited' }],
    sync: (s) => mutation('chat.edit', { id: s.ownMessage, content: 'Edited' }),
    ok: 200,
  },
  {
    name: 'a chat reaction',
    rest: (s) => ['POST', `/api/chat/messages/${s.message}/reactions`, { reactionType: 'love' }],
    sync: (s) => mutation('chat.react', { message_id: s.message, reactionType: 'love' }),
    ok: 200,
  },
  {
    name: 'an event',
    rest: (s) => ['POST', `/api/bubles/${s.bubleId}/events`, { title: 'Party', event_time: inAWeek() }],
    sync: (s) => mutation('event.create', { id: uuidv7(), buble_id: s.bubleId, title: 'Party', event_time: inAWeek() }),
    ok: 201,
  },
  {
    name: 'an edit of their event',
    rest: (s) => ['PUT', `/api/events/${s.ownEvent}`, { title: 'Renamed' }],
    sync: (s) => mutation('event.update', { id: s.ownEvent, title: 'Renamed' }),
    ok: 200,
  },
  {
    name: 'an RSVP',
    rest: (s) => ['POST', `/api/events/${s.event}/rsvp`, { status: 'going' }],
    sync: (s) => mutation('event.rsvp', { event_id: s.event, status: 'maybe' }),
    ok: 200,
  },
  {
    name: 'a poll',
    rest: (s) => ['POST', `/api/bubles/${s.bubleId}/polls`, { question: 'Which?', options: ['A', 'B'] }],
    sync: (s) =>
      mutation('poll.create', { id: uuidv7(), buble_id: s.bubleId, question: 'Which?', options: ['A', 'B'] }),
    ok: 201,
  },
  {
    name: 'an edit of their poll',
    rest: (s) => ['PUT', `/api/polls/${s.ownPoll}`, { question: 'Which one?' }],
    sync: (s) => mutation('poll.update', { id: s.ownPoll, question: 'Which one?' }),
    ok: 200,
  },
  {
    name: 'a vote',
    rest: (s) => ['POST', `/api/polls/${s.poll}/vote`, { poll_option_id: s.option }],
    sync: (s) => mutation('poll.vote', { poll_id: s.poll, poll_option_id: s.option }),
    ok: 200,
  },
  {
    name: 'taking a vote back',
    rest: (s) => ['DELETE', `/api/polls/${s.poll}/vote`],
    sync: (s) => mutation('poll.unvote', { poll_id: s.poll }),
    ok: 200,
  },
  // Made from an upload: once unmuted, the made-up file is what is refused (400), not the member.
  {
    name: 'a story',
    rest: (s) => [
      'POST',
      '/api/stories',
      { buble_id: s.bubleId, media_url: `/api/uploads/secure/${randomUUID()}.png`, media_type: 'image' },
    ],
    ok: 400,
  },
]

test('the writes a device refuses by itself when it knows it is muted are exactly those the server refuses', () => {
  const refused = WRITES.flatMap((kind) => (kind.sync ? [kind.sync(SCENE_OF_IDS).name] : []))
  expect(new Set(refused)).toEqual(new Set(MUTED_WRITES))
})

describe.each(backends())('a muted member on %s', (backend) => {
  const { h, club, call, expectStatus } = clubSuite(backend)
  let c: Club
  let muted: Person
  let s: Scene
  let end: Date

  const make = async (who: Person, method: string, path: string, body: unknown) =>
    (await expectStatus(await call(who, method, path, body), 201)) as { id: string; options?: { id: string }[] }
  const answer = async (res: TestResponse) => ({ status: res.status, body: await res.json() })

  test('the scene: content of theirs and of others, then a mute of one hour', async () => {
    c = await club()
    muted = c.creator
    const b = c.bubleId
    const post = await make(c.owner, 'POST', `/api/wall/${b}/posts`, { content: 'Owner post' })
    const poll = await make(c.owner, 'POST', `/api/bubles/${b}/polls`, { question: 'Q', options: ['X', 'Y'] })
    s = {
      bubleId: b,
      ownPost: (await make(muted, 'POST', `/api/wall/${b}/posts`, { content: 'Mine' })).id,
      ownComment: (await make(muted, 'POST', `/api/wall/posts/${post.id}/comments`, { content: 'Mine' })).id,
      ownMessage: (await make(muted, 'POST', `/api/chat/${b}/messages`, { content: 'Mine' })).id,
      ownEvent: (await make(muted, 'POST', `/api/bubles/${b}/events`, { title: 'Mine', event_time: inAWeek() })).id,
      ownPoll: (await make(muted, 'POST', `/api/bubles/${b}/polls`, { question: 'Mine?', options: ['1', '2'] })).id,
      post: post.id,
      message: (await make(c.owner, 'POST', `/api/chat/${b}/messages`, { content: 'Owner says' })).id,
      event: (await make(c.owner, 'POST', `/api/bubles/${b}/events`, { title: 'Owner', event_time: inAWeek() })).id,
      poll: poll.id,
      option: poll.options![0]!.id,
    }
    await expectStatus(
      await call(c.moderator, 'POST', `/api/bubles/${b}/members/${muted.id}/mute`, { duration: '1h' }),
      200,
    )
    end = new Date(h().clock.now.getTime() + HOUR)
  })

  const refusal = () => ({ status: 403, body: { message: mutedText(end), code: 'FORBIDDEN' } })

  test.each(WRITES.map((kind) => [kind.name, kind] as const))('REST refuses %s with the text', async (_, kind) => {
    const [method, path, body] = kind.rest(s)
    expect(await answer(await call(muted, method, path, body))).toEqual(refusal())
  })

  test.each(WRITES.filter((kind) => kind.sync).map((kind) => [kind.name, kind] as const))(
    'sync rejects %s with the same text',
    async (_, kind) => {
      const queued = kind.sync!(s)
      expect(await push(h(), muted.token, [queued])).toEqual([
        { id: queued.id, status: 'rejected', code: 'FORBIDDEN', message: mutedText(end) },
      ])
    },
  )

  test('a queue of several posts and chat messages (the one-statement runs) is rejected whole, each with the text', async () => {
    const queue = [1, 2, 3].flatMap((n) => [
      mutation('post.create', { id: uuidv7(), buble_id: s.bubleId, content: `Post ${n}` }),
      mutation('chat.send', { id: uuidv7(), buble_id: s.bubleId, content: `Message ${n}` }),
    ])
    const results = await push(h(), muted.token, queue)
    expect(results.map((r) => [r.status, r.message])).toEqual(queue.map(() => ['rejected', mutedText(end)]))
    // And nothing of it was written.
    const wall = (await expectStatus(await call(c.owner, 'GET', `/api/wall/${s.bubleId}/posts`), 200)) as {
      posts: { content: string }[]
    }
    expect(wall.posts.map((p) => p.content)).not.toContain('Post 1')
  })

  test('an image upload into the buble is refused too', async () => {
    const form = new FormData()
    form.set('buble_id', s.bubleId)
    form.set('file', new Blob([new Uint8Array([1, 2, 3])]), 'x.png')
    const res = await h().app.request('/api/uploads/image', {
      method: 'POST',
      headers: { authorization: `Bearer ${muted.token}` },
      body: form,
    })
    expect(await answer(res as unknown as TestResponse)).toEqual(refusal())
  })

  test('reading, marking read, deleting their own content and others writing stay allowed', async () => {
    expect((await call(muted, 'GET', `/api/wall/${s.bubleId}/posts`)).status).toBe(200)
    expect((await call(muted, 'GET', `/api/bubles/${s.bubleId}/members`)).status).toBe(200)
    const [read] = await push(h(), muted.token, [mutation('unread.read', { buble_id: s.bubleId, contentType: 'wall' })])
    expect(read?.status).toBe('applied')
    expect((await call(muted, 'DELETE', `/api/wall/comments/${s.ownComment}`)).status).toBe(204)
    const [deleted] = await push(h(), muted.token, [mutation('chat.delete', { id: s.ownMessage })])
    expect(deleted?.status).toBe('applied')
    expect((await call(c.member, 'POST', `/api/wall/${s.bubleId}/posts`, { content: 'Not muted' })).status).toBe(201)
  })

  test('once the hour is over every write goes through again, by REST and by sync', async () => {
    h().clock.advance(HOUR)
    // What the previous test deleted is made again, for the edits.
    s.ownComment = (await make(muted, 'POST', `/api/wall/posts/${s.post}/comments`, { content: 'Mine' })).id
    s.ownMessage = (await make(muted, 'POST', `/api/chat/${s.bubleId}/messages`, { content: 'Mine' })).id
    for (const kind of WRITES) {
      const [method, path, body] = kind.rest(s)
      const res = await call(muted, method, path, body)
      expect({ kind: kind.name, status: res.status }).toEqual({ kind: kind.name, status: kind.ok })
    }
    const queued = WRITES.flatMap((kind) => (kind.sync ? [kind.sync(s)] : []))
    const results = await push(h(), muted.token, queued)
    expect(results.map((r) => r.status)).toEqual(queued.map(() => 'applied'))
  })

  test('leaving stays allowed while muted', async () => {
    await expectStatus(
      await call(c.owner, 'POST', `/api/bubles/${s.bubleId}/members/${muted.id}/mute`, { duration: 'indefinite' }),
      200,
    )
    expect((await call(muted, 'POST', `/api/wall/${s.bubleId}/posts`, { content: 'x' })).status).toBe(403)
    expect((await call(muted, 'DELETE', `/api/bubles/${s.bubleId}/members/${muted.id}`)).status).toBe(204)
  })
})
