import { randomUUID } from 'node:crypto'
import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { backends } from '../testing/databases.ts'
import { mutation, push } from '../testing/sync.ts'
import { clubSuite, type Person } from '../testing/test-club.ts'
import { ID_IN_USE } from './entity-ids.ts'

/**
 * Client-chosen ids (CONTRACT §7; issue 18 §4): a create sent again with the id of a row its sender
 * made answers that row only while the sender may still read it and the request puts it where it
 * is. Re-sent after leaving the row's buble, or naming another buble (or post), it is the 409 of
 * any id in use and answers nothing of the row, by REST and by push alike.
 */

const IN_USE = { code: 'CONFLICT', message: ID_IN_USE }

/** Where a create puts its row: a buble, and for a comment a post in it. */
type Place = { bubleId: string; postId: string; storyUrl: string }

type Kind = {
  name: string
  rest(id: string, at: Place): [method: string, path: string, body: Record<string, unknown>]
  /** The push mutation making the same row, if the kind has one. */
  push?(id: string, at: Place): [name: string, args: Record<string, unknown>]
}

const KINDS: Kind[] = [
  {
    name: 'post',
    rest: (id, at) => ['POST', `/api/wall/${at.bubleId}/posts`, { id, content: 'Our secret plan' }],
    push: (id, at) => ['post.create', { id, buble_id: at.bubleId, content: 'Our secret plan' }],
  },
  {
    name: 'comment',
    rest: (id, at) => ['POST', `/api/wall/posts/${at.postId}/comments`, { id, content: 'Count me in' }],
    push: (id, at) => ['comment.create', { id, post_id: at.postId, content: 'Count me in' }],
  },
  {
    name: 'event',
    rest: (id, at) => [
      'POST',
      `/api/bubles/${at.bubleId}/events`,
      { id, title: 'Hidden party', event_time: '2030-06-19T18:00:00Z' },
    ],
    push: (id, at) => [
      'event.create',
      { id, buble_id: at.bubleId, title: 'Hidden party', event_time: '2030-06-19T18:00:00Z' },
    ],
  },
  {
    name: 'poll',
    rest: (id, at) => ['POST', `/api/bubles/${at.bubleId}/polls`, { id, question: 'Who?', options: ['Me', 'You'] }],
    push: (id, at) => ['poll.create', { id, buble_id: at.bubleId, question: 'Who?', options: ['Me', 'You'] }],
  },
  {
    name: 'chat message',
    rest: (id, at) => ['POST', `/api/chat/${at.bubleId}/messages`, { id, content: 'Psst' }],
    push: (id, at) => ['chat.send', { id, buble_id: at.bubleId, content: 'Psst' }],
  },
  {
    name: 'story',
    rest: (id, at) => [
      'POST',
      '/api/stories',
      { id, buble_id: at.bubleId, media_url: at.storyUrl, media_type: 'image', duration_seconds: 5 },
    ],
  },
]

describe.each(backends())('client ids re-sent on %s', (backend) => {
  const { h, call, person, join, expectStatus } = clubSuite(backend)

  const storyUpload = async (who: Person, bubleId: string) => {
    const bytes = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#aa7744' } })
      .png()
      .toBuffer()
    const form = new FormData()
    form.set('buble_id', bubleId)
    form.set('file', new Blob([new Uint8Array(bytes)]), 'story.png')
    const res = await h().app.request('/api/uploads/story', {
      method: 'POST',
      headers: { authorization: `Bearer ${who.token}` },
      body: form,
    })
    expect(res.status).toBe(201)
    return ((await res.json()) as { url: string }).url
  }
  /** A buble owned by `owner`, with a post of theirs and a story file of `member`'s. */
  const place = async (owner: Person, member: Person): Promise<Place> => {
    const { id: bubleId } = await expectStatus(await call(owner, 'POST', '/api/bubles', { name: 'Place' }), 201)
    if (member !== owner) await join(owner, bubleId, member)
    const post = await expectStatus(await call(owner, 'POST', `/api/wall/${bubleId}/posts`, { content: 'Hi' }), 201)
    return { bubleId, postId: post.id, storyUrl: await storyUpload(member, bubleId) }
  }
  const resend = (who: Person, [method, path, body]: ReturnType<Kind['rest']>) => call(who, method, path, body)
  /** Pushes one mutation and answers its result. */
  const pushOne = async (who: Person, [name, args]: [string, Record<string, unknown>]) => {
    const [result] = await push(h(), who.token, [mutation(name, args)])
    return result
  }

  test.each(KINDS.map((kind) => [kind.name, kind] as const))(
    '%s: named elsewhere, or after its sender left, the id is a 409 revealing nothing',
    async (_name, kind) => {
      const [alice, bob] = [await person('Alice'), await person('Bob')]
      const there = await place(alice, bob) // Alice's buble, Bob a member
      const mine = await place(bob, bob) // Bob's own
      const id = randomUUID()
      const made = await expectStatus(await resend(bob, kind.rest(id, there)), 201)

      // Still a member: the same request answers the row (200), as before.
      expect(await expectStatus(await resend(bob, kind.rest(id, there)), 200)).toEqual(made)
      // The same id naming another buble (another post) is not that row.
      expect(await expectStatus(await resend(bob, kind.rest(id, mine)), 409)).toEqual(IN_USE)
      if (kind.push) expect(await pushOne(bob, kind.push(id, mine))).toMatchObject({ status: 'rejected', ...IN_USE })

      await expectStatus(await call(bob, 'DELETE', `/api/bubles/${there.bubleId}/members/${bob.id}`), 204)
      // Left: naming his own buble reveals nothing of the row he made there.
      expect(await expectStatus(await resend(bob, kind.rest(id, mine)), 409)).toEqual(IN_USE)
      if (kind.push) {
        const result = await pushOne(bob, kind.push(id, mine))
        expect(result).toEqual({ id: expect.any(String), status: 'rejected', ...IN_USE })
      }
      // Naming the buble he left is the buble's (or the post's) 404, as for anything there.
      expect((await resend(bob, kind.rest(id, there))).status).toBe(404)
    },
  )

  test('buble: buble.create re-sent after its maker handed it over and left is a 409 revealing nothing', async () => {
    const [alice, bob] = [await person('Alice'), await person('Bob')]
    const id = randomUUID()
    const made = await expectStatus(await call(bob, 'POST', '/api/bubles', { id, name: 'Book club' }), 201)
    expect(await expectStatus(await call(bob, 'POST', '/api/bubles', { id, name: 'Book club' }), 200)).toEqual(made)
    const [replayed] = await push(h(), bob.token, [mutation('buble.create', { id, name: 'Book club' })])
    expect(replayed).toMatchObject({ status: 'applied', data: { id, name: 'Book club' } })

    await join(bob, id, alice)
    await expectStatus(await call(bob, 'POST', `/api/bubles/${id}/transfer-ownership`, { newOwnerId: alice.id }), 200)
    await expectStatus(await call(alice, 'PATCH', `/api/bubles/${id}`, { name: 'Secret society' }), 200)
    await expectStatus(await call(bob, 'DELETE', `/api/bubles/${id}/members/${bob.id}`), 204)

    expect(await expectStatus(await call(bob, 'POST', '/api/bubles', { id, name: 'Book club' }), 409)).toEqual(IN_USE)
    const [result] = await push(h(), bob.token, [mutation('buble.create', { id, name: 'Book club' })])
    expect(result).toEqual({ id: expect.any(String), status: 'rejected', ...IN_USE })
    // The buble itself is untouched, and still Alice's.
    const kept = await expectStatus(await call(alice, 'GET', `/api/bubles/${id}`), 200)
    expect(kept).toMatchObject({ id, name: 'Secret society', owner: { id: alice.id } })
  })
})
