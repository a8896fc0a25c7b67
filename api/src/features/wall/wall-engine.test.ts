/**
 * The wall through the client engine against the real server: what a member writes offline shows
 * at once, is sent once when the network returns, and reaches another member's device once; an
 * edit the server refuses is rolled back and kept, text and all, among the device's rejections.
 */

import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { backends } from '../../testing/databases.ts'
import { deviceKit } from '../../testing/devices.ts'
import { createHarness, type Harness } from '../../testing/harness.ts'

describe.each(backends())('the wall on devices, on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
  })
  afterAll(() => h?.close())

  const { person, deviceOf, count } = deviceKit(() => h)

  /** Alice and Bob in one buble, each with a synced device. */
  async function pair() {
    const alice = await person('Alice Offline')
    const bob = await person('Bob Reader')
    const created = await h.call('POST', '/api/bubles', { token: alice.token, body: { name: 'Basement Club' } })
    const bubleId = (await created.json()).id as string
    const { code } = await (
      await h.call('POST', `/api/bubles/${bubleId}/invites`, { token: alice.token, body: {} })
    ).json()
    expect((await h.call('POST', `/api/bubles/invites/${code}/accept`, { token: bob.token })).status).toBe(200)
    const aliceDevice = deviceOf(alice)
    const bobDevice = deviceOf(bob)
    await aliceDevice.engine.sync()
    await bobDevice.engine.sync()
    return { alice, bob, bubleId, aliceDevice, bobDevice }
  }

  test('three posts, a comment and a reaction made offline show at once and arrive once on the other device', async () => {
    const { alice, bubleId, aliceDevice, bobDevice } = await pair()
    aliceDevice.setOnline(false)
    const ids: string[] = [randomUUID(), randomUUID(), randomUUID()]
    for (const [i, id] of ids.entries())
      await aliceDevice.engine.mutate('post.create', { id, buble_id: bubleId, content: `From the basement ${i + 1}` })
    const commentId = randomUUID()
    await aliceDevice.engine.mutate('comment.create', { id: commentId, post_id: ids[0]!, content: 'First!' })
    await aliceDevice.engine.mutate('reaction.add', { post_id: ids[1]!, reactionType: 'love' })
    await aliceDevice.engine.sync()
    const local = await aliceDevice.db.posts.where('buble_id').equals(bubleId).toArray()
    expect(local).toHaveLength(3)
    expect(local.filter((row) => ids.includes(row.id)).every((row) => row._pending)).toBe(true)
    expect((await aliceDevice.db.posts.get(ids[0]!))?.commentsCount).toBe(1)
    expect((await aliceDevice.db.posts.get(ids[1]!))?.reactionsSummary).toEqual({ love: 1 })
    expect(await count('posts', sql`buble_id = ${bubleId}`)).toBe(0)

    // The network returns: sent once, even when the device syncs again.
    aliceDevice.setOnline(true)
    await aliceDevice.engine.sync()
    await aliceDevice.engine.sync()
    expect(await aliceDevice.db.outbox.count()).toBe(0)
    expect(await count('posts', sql`buble_id = ${bubleId}`)).toBe(3)
    expect(await count('comments', sql`buble_id = ${bubleId}`)).toBe(1)
    expect(await count('post_reactions', sql`post_id = ${ids[1]!}`)).toBe(1)
    expect((await aliceDevice.db.posts.toArray()).some((row) => row._pending)).toBe(false)

    await bobDevice.engine.sync()
    const seen = await bobDevice.db.posts.where('buble_id').equals(bubleId).toArray()
    expect(seen.map((row) => row.content).sort()).toEqual([
      'From the basement 1',
      'From the basement 2',
      'From the basement 3',
    ])
    expect((await bobDevice.db.posts.get(ids[0]!))?.commentsCount).toBe(1)
    expect(await bobDevice.db.comments.where('post_id').equals(ids[0]!).count()).toBe(1)
    expect((await bobDevice.db.posts.get(ids[1]!))?.reactions).toEqual({ [alice.actor.id]: ['love'] })
    expect(await bobDevice.db.unread.get(`${bubleId}:wall`)).toMatchObject({ unreadCount: 3 })
  })

  test('an offline edit of a post deleted meanwhile is refused: rolled back, kept with its text', async () => {
    const { alice, bubleId, aliceDevice } = await pair()
    const moderator = await person('Mia Moderator')
    const { code } = await (
      await h.call('POST', `/api/bubles/${bubleId}/invites`, { token: alice.token, body: {} })
    ).json()
    await h.call('POST', `/api/bubles/invites/${code}/accept`, { token: moderator.token })
    const role = await h.call('PUT', `/api/bubles/${bubleId}/members/role`, {
      token: alice.token,
      body: { userId: moderator.actor.id, role: 'moderator' },
    })
    expect(role.status).toBe(200)
    const ownId = randomUUID()
    await aliceDevice.engine.mutate('post.create', { id: ownId, buble_id: bubleId, content: 'mine' })
    await aliceDevice.engine.sync()

    aliceDevice.setOnline(false)
    await aliceDevice.engine.mutate('post.update', { id: ownId, content: 'A long and careful edit' })
    expect((await aliceDevice.db.posts.get(ownId))?.content).toBe('A long and careful edit')
    expect((await h.call('DELETE', `/api/wall/posts/${ownId}`, { token: moderator.token })).status).toBe(204)

    aliceDevice.setOnline(true)
    await aliceDevice.engine.sync()
    const rejections = await aliceDevice.db.rejections.toArray()
    expect(rejections).toMatchObject([
      {
        name: 'post.update',
        code: 'NOT_FOUND',
        message: 'Post not found',
        args: { id: ownId, content: 'A long and careful edit' },
      },
    ])
    expect(await aliceDevice.db.posts.get(ownId)).toBeUndefined()
    expect(await aliceDevice.db.outbox.count()).toBe(0)
  })
})
