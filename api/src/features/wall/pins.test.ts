import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { posts } from '../../db/schema.ts'
import { backends } from '../../testing/databases.ts'
import { createHarness, type Harness, insertUser, type TestResponse } from '../../testing/harness.ts'
import { mutation, pullAll, push } from '../../testing/sync.ts'

/**
 * Pins (issue 23 §5): manage_buble or pin_posts pins up to 3 posts, by REST and by sync alike; a
 * fourth is refused; pinned posts lead the wall, the newest pin first; a deleted post leaves them.
 */

type User = { token: string; id: string }

const TOO_MANY = { code: 'CONFLICT', message: 'Only 3 posts can be pinned. Unpin one first.' }
const NOT_ALLOWED = { code: 'FORBIDDEN', message: 'You may not pin posts in this Buble' }

describe.each(backends())('pins on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
  })
  afterAll(async () => {
    await h?.close()
  })

  const user = (): Promise<User> => insertUser(h, 'Pinner')
  const ok = async (res: TestResponse, status = 200): Promise<Record<string, unknown>> => {
    expect(res.status, await res.clone().text()).toBe(status)
    return res.json()
  }
  /** A buble with its owner, a plain member, a member given pin_posts alone, and an outsider. */
  const club = async () => {
    const [owner, member, pinner, outsider] = [await user(), await user(), await user(), await user()]
    const buble = await ok(await h.call('POST', '/api/bubles', { token: owner.token, body: { name: 'Pin Club' } }), 201)
    const bubleId = buble.id as string
    for (const joiner of [member, pinner]) {
      const { code } = await ok(
        await h.call('POST', `/api/bubles/${bubleId}/invites`, { token: owner.token, body: {} }),
        201,
      )
      await ok(await h.call('POST', `/api/bubles/invites/${code}/accept`, { token: joiner.token }))
    }
    await ok(
      await h.call('PUT', `/api/bubles/${bubleId}/members/role`, {
        token: owner.token,
        body: { userId: pinner.id, role: 'member', customPermissions: ['create_events', 'create_polls', 'pin_posts'] },
      }),
    )
    return { owner, member, pinner, outsider, bubleId }
  }
  const post = async (who: User, bubleId: string, content: string) =>
    (await ok(await h.call('POST', `/api/wall/${bubleId}/posts`, { token: who.token, body: { content } }), 201))
      .id as string
  const pin = (who: User, id: string) => h.call('POST', `/api/wall/posts/${id}/pin`, { token: who.token })
  const unpin = (who: User, id: string) => h.call('DELETE', `/api/wall/posts/${id}/pin`, { token: who.token })
  const pinnedOf = async (who: User, bubleId: string) =>
    (
      (await ok(await h.call('GET', `/api/wall/${bubleId}/posts/pinned`, { token: who.token }))).posts as {
        content: string
      }[]
    ).map((p) => p.content)

  test('the owner and a pin_posts member pin; a fourth pin is refused; the wall leads with the newest pin', async () => {
    const { owner, member, pinner, bubleId } = await club()
    const ids: string[] = []
    for (const n of [1, 2, 3, 4]) ids.push(await post(member, bubleId, `post ${n}`))
    const [p1, p2, p3, p4] = ids as [string, string, string, string]

    const first = await ok(await pin(owner, p1))
    expect(first).toMatchObject({ id: p1, pinned_at: h.clock.now.toISOString() })
    h.clock.advance(1000)
    await ok(await pin(pinner, p3))
    h.clock.advance(1000)
    await ok(await pin(owner, p2))
    // Pinning a pinned post again answers it as it is.
    h.clock.advance(1000)
    expect((await ok(await pin(pinner, p1))).pinned_at).toBe(first.pinned_at)

    const refused = await pin(owner, p4)
    expect({ status: refused.status, body: await refused.json() }).toEqual({ status: 409, body: TOO_MANY })
    expect(await pinnedOf(member, bubleId)).toEqual(['post 2', 'post 3', 'post 1'])

    // The wall's pages still list every post by time, each carrying its pin.
    const page = await ok(await h.call('GET', `/api/wall/${bubleId}/posts`, { token: member.token }))
    const pinned = (page.posts as { content: string; pinned_at: string | null }[]).map((p) => [
      p.content,
      !!p.pinned_at,
    ])
    expect(pinned).toEqual([
      ['post 4', false],
      ['post 3', true],
      ['post 2', true],
      ['post 1', true],
    ])

    // An unpin makes room; a deleted post leaves the pins and makes room too.
    expect((await ok(await unpin(pinner, p3))).pinned_at).toBeNull()
    expect((await ok(await unpin(pinner, p3))).pinned_at).toBeNull()
    h.clock.advance(1000)
    await ok(await pin(pinner, p4))
    expect((await h.call('DELETE', `/api/wall/posts/${p2}`, { token: owner.token })).status).toBe(204)
    expect(await pinnedOf(owner, bubleId)).toEqual(['post 4', 'post 1'])
    h.clock.advance(1000)
    await ok(await pin(owner, p3))
    expect(await pinnedOf(owner, bubleId)).toEqual(['post 3', 'post 4', 'post 1'])
  })

  test('a plain member gets 403 by REST and by sync; an outsider gets 404 everywhere', async () => {
    const { owner, member, outsider, bubleId } = await club()
    const id = await post(member, bubleId, 'mine')
    for (const res of [await pin(member, id), await unpin(member, id)])
      expect({ status: res.status, body: await res.json() }).toEqual({ status: 403, body: NOT_ALLOWED })
    const [synced] = await push(h, member.token, [mutation('post.pin', { id })])
    expect(synced).toMatchObject({ status: 'rejected', ...NOT_ALLOWED })

    for (const res of [
      await pin(outsider, id),
      await unpin(outsider, id),
      await pin(outsider, randomUUID()),
      await h.call('GET', `/api/wall/${bubleId}/posts/pinned`, { token: outsider.token }),
    ])
      expect(res.status).toBe(404)
    const [outside] = await push(h, outsider.token, [mutation('post.pin', { id })])
    expect(outside).toMatchObject({ status: 'rejected', code: 'NOT_FOUND' })
    expect((await h.database.db.select().from(posts).where(eq(posts.id, id)))[0]!.pinnedAt).toBeNull()
    expect(await pinnedOf(owner, bubleId)).toEqual([])
  })

  test('two pins at once for the last place: one is made, the other refused; never four', async () => {
    const { owner, pinner, member, bubleId } = await club()
    const ids: string[] = []
    for (const n of [1, 2, 3, 4]) ids.push(await post(member, bubleId, `race ${n}`))
    const [p1, p2, p3, p4] = ids as [string, string, string, string]
    await ok(await pin(owner, p1))
    await ok(await pin(owner, p2))
    // Both start before either commits (on PostgreSQL two connections; PGlite runs them in turn).
    const [byRest, bySync] = await Promise.all([
      pin(owner, p3),
      push(h, pinner.token, [mutation('post.pin', { id: p4 })]).then(([result]) => result!),
    ])
    // Exactly one of them takes the third place; the other is told why.
    expect([byRest.status === 200, bySync.status === 'applied'].filter(Boolean)).toHaveLength(1)
    if (byRest.status === 200) expect(bySync).toMatchObject({ status: 'rejected', ...TOO_MANY })
    else expect({ status: byRest.status, body: await byRest.json() }).toEqual({ status: 409, body: TOO_MANY })
    expect(await pinnedOf(member, bubleId)).toHaveLength(3)
    const stored = await h.database.db
      .select({ pinnedAt: posts.pinnedAt })
      .from(posts)
      .where(eq(posts.bubleId, bubleId))
    expect(stored.filter((row) => row.pinnedAt !== null)).toHaveLength(3)
  })

  test('pins pushed from a device apply once, count against the limit, and reach other devices by pull', async () => {
    const { owner, pinner, member, bubleId } = await club()
    const ids = [await post(owner, bubleId, 'a'), await post(owner, bubleId, 'b'), await post(owner, bubleId, 'c')]
    const extra = await post(owner, bubleId, 'd')
    const cursor = (await pullAll(h, member.token)).cursor
    const batch = ids.map((id) => mutation('post.pin', { id }))
    const first = await push(h, pinner.token, [...batch, mutation('post.pin', { id: extra })])
    expect(first.map((r) => r.status)).toEqual(['applied', 'applied', 'applied', 'rejected'])
    expect(first[3]).toMatchObject(TOO_MANY)
    const replay = await push(h, pinner.token, batch)
    expect(replay.map((r) => r.status)).toEqual(['duplicate', 'duplicate', 'duplicate'])

    const { changes } = await pullAll(h, member.token, cursor)
    const pinnedIds = changes
      .filter((c) => c.entity === 'post' && c.op === 'put' && (c.data as { pinned_at: string | null }).pinned_at)
      .map((c) => c.id)
    expect(new Set(pinnedIds)).toEqual(new Set(ids))

    const [unpinned] = await push(h, pinner.token, [mutation('post.unpin', { id: ids[0]! })])
    expect(unpinned).toMatchObject({ status: 'applied', data: { id: ids[0], pinned_at: null } })
    expect(await pinnedOf(member, bubleId)).toHaveLength(2)
  })
})
