/**
 * Runs of plain creates in a push (decision 93): consecutive `post.create` and `chat.send` without
 * an image go to their service several at once, one statement each kind, and answer exactly what
 * one at a time would; whatever the statement leaves (an outsider, an id in use, a reply
 * elsewhere, the same id twice) gets the one-at-a-time answer, and anything else keeps its turn.
 */

import type { Change, MutationResult } from '@buble/sync/protocol'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { backends } from '../../testing/databases.ts'
import { createHarness, type Harness } from '../../testing/harness.ts'
import { mutation, pullAll, push, type TestMutation } from '../../testing/sync.ts'

describe.each(backends())('runs of plain creates in a push on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
  })
  afterAll(() => h?.close())
  afterEach(() => vi.restoreAllMocks())

  async function newBuble(token: string, name = 'Batched') {
    const res = await h.call('POST', '/api/bubles', { token, body: { name } })
    return ((await res.json()) as { id: string }).id
  }
  async function join(token: string, bubleId: string, inviterToken: string) {
    const { code } = await (
      await h.call('POST', `/api/bubles/${bubleId}/invites`, { token: inviterToken, body: {} })
    ).json()
    expect((await h.call('POST', `/api/bubles/invites/${code}/accept`, { token })).status).toBe(200)
  }
  /** A post made by `token` with `id`, one push of its own (an id in use for what the test pushes next). */
  async function postAs(token: string, bubleId: string, id: string, content: string) {
    const [result] = await push(h, token, [mutation('post.create', { id, buble_id: bubleId, content })])
    expect(result!.status).toBe('applied')
  }
  /** The wall's posts, oldest first, as REST pages them (position order). */
  async function wall(token: string, bubleId: string) {
    const res = await h.call('GET', `/api/wall/${bubleId}/posts?limit=50`, { token })
    expect(res.status).toBe(200)
    return ((await res.json()) as { posts: { id: string; content: string }[] }).posts.reverse()
  }
  const put = (changes: readonly Change[], id: string) =>
    changes.find((change) => change.op === 'put' && change.id === id) as { data: unknown } | undefined
  const data = (result: MutationResult | undefined) => (result as { data?: unknown } | undefined)?.data

  test('posts and messages go together, one call per kind, each answered as REST answers it and stored once', async () => {
    const owner = await h.register({ name: 'Batch Owner' })
    const bubleId = await newBuble(owner.token)
    const posts = vi.spyOn(h.services.wall, 'createPostsAtOnce')
    const messages = vi.spyOn(h.services.chat, 'sendAtOnce')
    const batch = Array.from({ length: 10 }, (_, i) =>
      i % 2 === 0
        ? mutation('post.create', { id: uuidv7(), buble_id: bubleId, content: `Post ${i} https://example.org/${i}` })
        : mutation('chat.send', { id: uuidv7(), buble_id: bubleId, content: `Message ${i}` }),
    )
    const results = await push(h, owner.token, batch)
    expect(results.map((r) => r.status)).toEqual(batch.map(() => 'applied'))
    expect(posts).toHaveBeenCalledTimes(1)
    expect(posts.mock.calls[0]![1]).toHaveLength(5)
    expect(messages).toHaveBeenCalledTimes(1)
    expect(messages.mock.calls[0]![1]).toHaveLength(5)

    // Each answer is the row as a device pulls it (the same loader REST answers with).
    const { changes } = await pullAll(h, owner.token)
    for (const [i, one] of batch.entries()) {
      const id = (one.args as { id: string }).id
      expect(data(results[i])).toEqual(put(changes, id)?.data)
    }
    // The posts keep the batch's order on the wall, their links owe previews, and a replay writes nothing.
    expect((await wall(owner.token, bubleId)).map((post) => post.content)).toEqual(
      [0, 2, 4, 6, 8].map((i) => `Post ${i} https://example.org/${i}`),
    )
    expect((data(results[0]) as { link_url: string }).link_url).toBe('https://example.org/0')
    expect((await push(h, owner.token, batch)).map((r) => r.status)).toEqual(batch.map(() => 'duplicate'))
    expect((await wall(owner.token, bubleId)).length).toBe(5)
  })

  test('a mutation no batch takes keeps its turn: an edit of a post made just before it in the batch, and the posts after', async () => {
    const owner = await h.register()
    const bubleId = await newBuble(owner.token)
    const first = uuidv7()
    const batch = [
      mutation('post.create', { id: first, buble_id: bubleId, content: 'First' }),
      mutation('post.create', { id: uuidv7(), buble_id: bubleId, content: 'Second' }),
      mutation('post.update', { id: first, content: 'First, edited' }),
      mutation('post.create', { id: uuidv7(), buble_id: bubleId, content: 'Third' }),
      mutation('post.create', { id: uuidv7(), buble_id: bubleId, content: 'Fourth' }),
    ]
    const results = await push(h, owner.token, batch)
    expect(results.map((r) => r.status)).toEqual(batch.map(() => 'applied'))
    expect((await wall(owner.token, bubleId)).map((post) => post.content)).toEqual([
      'First, edited',
      'Second',
      'Third',
      'Fourth',
    ])
  })

  test('what the statement leaves gets the one-at-a-time answer: an id in use, the same id twice, a reply elsewhere, an outsider', async () => {
    const owner = await h.register()
    const other = await h.register()
    const bubleId = await newBuble(owner.token)
    const elsewhere = await newBuble(owner.token, 'Elsewhere')
    const outsiders = await newBuble(other.token, 'Not mine')
    const taken = uuidv7()
    await postAs(other.token, outsiders, taken, 'Theirs')
    const [away] = await push(h, owner.token, [
      mutation('chat.send', { id: uuidv7(), buble_id: elsewhere, content: 'In the other buble' }),
    ])
    const twice = uuidv7()
    const batch: TestMutation[] = [
      mutation('post.create', { id: uuidv7(), buble_id: bubleId, content: 'Fine' }),
      mutation('post.create', { id: taken, buble_id: bubleId, content: 'Someone else has this id' }),
      mutation('post.create', { id: twice, buble_id: bubleId, content: 'Twice' }),
      mutation('post.create', { id: twice, buble_id: bubleId, content: 'Twice' }),
      mutation('chat.send', {
        id: uuidv7(),
        buble_id: bubleId,
        content: 'A reply to a message of another buble',
        reply_to_id: (away as { data: { id: string } }).data.id,
      }),
      mutation('chat.send', { id: uuidv7(), buble_id: bubleId, content: 'Fine too' }),
    ]
    const results = await push(h, owner.token, batch)
    expect(results.map((r) => (r.status === 'rejected' ? r.code : r.status))).toEqual([
      'applied',
      'CONFLICT',
      'applied',
      'applied',
      'VALIDATION_ERROR',
      'applied',
    ])
    // The same id twice answers the one post, as a second REST call with it would.
    expect(data(results[3])).toEqual(data(results[2]))
    expect((await wall(owner.token, bubleId)).map((post) => post.content)).toEqual(['Fine', 'Twice'])

    // An outsider's run: each gets the 404 REST gives, and nothing is written.
    const intruding = [
      mutation('post.create', { id: uuidv7(), buble_id: bubleId, content: 'Let me in' }),
      mutation('chat.send', { id: uuidv7(), buble_id: bubleId, content: 'Hello?' }),
    ]
    const refused = await push(h, other.token, intruding)
    expect(refused.map((r) => (r.status === 'rejected' ? `${r.code} ${r.message}` : r.status))).toEqual([
      'NOT_FOUND Buble not found',
      'NOT_FOUND Buble not found',
    ])
    expect((await wall(owner.token, bubleId)).length).toBe(2)
  })

  test('the other members hear of each new post and message once, after the commit', async () => {
    const owner = await h.register({ name: 'Loud Owner' })
    const member = await h.register()
    const bubleId = await newBuble(owner.token)
    await join(member.token, bubleId, owner.token)
    const heard: string[] = []
    const stop = h.services.contentAdded.listen((added) => {
      if (added.bubleId === bubleId) heard.push(`${added.contentType}: ${added.body}`)
    })
    try {
      await push(h, owner.token, [
        mutation('post.create', { id: uuidv7(), buble_id: bubleId, content: 'News' }),
        mutation('chat.send', { id: uuidv7(), buble_id: bubleId, content: 'Hi all' }),
        mutation('post.create', { id: uuidv7(), buble_id: bubleId, content: 'More news' }),
      ])
    } finally {
      stop()
    }
    expect(heard.sort()).toEqual(['chat: Hi all', 'wall: More news', 'wall: News'])
    const unread = await h.call('GET', `/api/unread/buble/${bubleId}`, { token: member.token })
    expect(unread.status).toBe(200)
    const counts = (await unread.json()) as { contentType: string; unreadCount: number }[]
    expect(Object.fromEntries(counts.map((c) => [c.contentType, c.unreadCount]))).toMatchObject({ wall: 2, chat: 1 })
  })

  test('bubles made offline go together: the owner joins each, a slug taken or used twice takes a suffix, an id in use is refused', async () => {
    const owner = await h.register({ name: 'Offline Founder' })
    const other = await h.register()
    const taken = await newBuble(other.token, 'Harbour Walks')
    const usedId = uuidv7()
    await postAs(other.token, taken, usedId, 'Mine')
    const atOnce = vi.spyOn(h.services.bubles, 'createAtOnce')
    const again = uuidv7()
    const batch = [
      mutation('buble.create', { id: uuidv7(), name: 'Harbour Walks' }),
      mutation('buble.create', { id: uuidv7(), name: 'Book Club' }),
      mutation('buble.create', { id: uuidv7(), name: 'Book Club' }),
      mutation('buble.create', { id: usedId, name: 'Someone else has this id' }),
      mutation('buble.create', { id: again, name: 'Twice' }),
      mutation('buble.create', { id: again, name: 'Twice' }),
    ]
    const results = await push(h, owner.token, batch)
    expect(results.map((r) => (r.status === 'rejected' ? r.code : r.status))).toEqual([
      'applied',
      'applied',
      'applied',
      'CONFLICT',
      'applied',
      'applied',
    ])
    // All six in one call (twice: the refusal runs the group again with savepoints, decision 91).
    expect(atOnce.mock.calls.map((call) => call[1].length)).toEqual([6, 6])
    const made = results.map((r) => data(r) as { id: string; slug: string; my_role: string } | undefined)
    expect(made[0]!.slug).toMatch(/^harbour-walks-[a-z0-9]{4}$/)
    expect(made[1]!.slug).toBe('book-club')
    expect(made[2]!.slug).toMatch(/^book-club-[a-z0-9]{4}$/)
    expect(made[5]).toEqual(made[4])
    // Each answer is what REST answers for that buble, and the owner is its owner.
    for (const buble of [made[0]!, made[1]!, made[2]!, made[4]!]) {
      const res = await h.call('GET', `/api/bubles/${buble.id}`, { token: owner.token })
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual(buble)
      expect(buble.my_role).toBe('owner')
    }
    const mine = (await (await h.call('GET', '/api/bubles', { token: owner.token })).json()) as unknown[]
    expect(mine).toHaveLength(4)
  })
})
