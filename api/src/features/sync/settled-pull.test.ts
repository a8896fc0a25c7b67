/**
 * Decision 91 on PostgreSQL (PGlite has one connection, so nothing is ever in flight beside a pull):
 * writes take versions without a lock, and a pull reads only what has settled. A write that commits
 * late, with a version below one already committed, is never passed over; the pull that was held back
 * has the devices poked once the write ends; and writes in different bubles never wait for each other.
 */

import { sql } from 'drizzle-orm'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { findUserById } from '../../lib/accounts.ts'
import type { BusEvent } from '../../lib/change-bus.ts'
import { syncWrite } from '../../lib/sync-writes.ts'
import { createHarness, type Harness } from '../../testing/harness.ts'
import { mutation, pullAll, push } from '../../testing/sync.ts'

function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

const versionOf = (cursor: string) => (JSON.parse(Buffer.from(cursor, 'base64url').toString()) as { v: number }).v

describe('pulls up to what has settled, on PostgreSQL', () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('settled-pull.test.ts needs TEST_DATABASE_URL (PostgreSQL)')
  let h: Harness
  beforeAll(async () => {
    h = await createHarness('postgres', { BUBLE_RATE_LIMITS: 'off' })
  })
  afterAll(() => h?.close())

  async function newBuble(token: string, name: string): Promise<string> {
    const res = await h.call('POST', '/api/bubles', { token, body: { name } })
    expect(res.status).toBe(201)
    return ((await res.json()) as { id: string }).id
  }

  test('a post that commits late with the lower version still reaches a device that pulled meanwhile, and its devices are poked when it settles', async () => {
    const me = await h.register({ name: 'Two Bubles' })
    const slowBuble = await newBuble(me.token, 'Slow')
    const quickBuble = await newBuble(me.token, 'Quick')
    let { cursor } = await pullAll(h, me.token)
    const heard: BusEvent[] = []
    const stop = h.deps.bus.subscribe((event) => heard.push(event))
    try {
      const user = (await findUserById(h.deps.db, me.id))!
      const written = deferred()
      const release = deferred()
      const slowPost = uuidv7()
      // A write in the slow buble: its post has a version, and its transaction stays open.
      const slow = syncWrite(h.deps.db, async () => {
        await h.services.wall.createPost(user, slowBuble, { id: slowPost, content: 'Late but here' })
        written.resolve()
        await release.promise
      })
      await written.promise

      // Meanwhile a post in the other buble commits at once: no lock is shared.
      const quickPost = uuidv7()
      const pushed = await push(h, me.token, [
        mutation('post.create', { id: quickPost, buble_id: quickBuble, content: 'Quick one' }),
      ])
      expect(pushed[0]!.status).toBe('applied')

      // The pull cannot pass the open write: the quick post waits, and the cursor stays below both.
      const held = await pullAll(h, me.token, cursor)
      expect(held.changes.map((change) => change.id)).not.toContain(quickPost)
      expect(held.changes.map((change) => change.id)).not.toContain(slowPost)
      const pokesBefore = heard.length

      release.resolve()
      await slow
      // The settle watch tells the user's devices to pull again.
      await expect
        .poll(() => heard.slice(pokesBefore).some((event) => 'user_id' in event && event.user_id === me.id))
        .toBe(true)

      const after = await pullAll(h, me.token, held.cursor)
      const posts = after.changes.filter((change) => change.entity === 'post')
      expect(posts.map((change) => change.id).sort()).toEqual([slowPost, quickPost].sort())
      // The late post's version is below the quick one's, and above the cursor it was read from.
      const versions = new Map(
        (
          (await h.deps.db.execute(
            sql`select id, version from posts where id in (${slowPost}, ${quickPost})`,
          )) as unknown as { rows: { id: string; version: string }[] }
        ).rows.map((row) => [row.id, Number(row.version)]),
      )
      expect(versions.get(slowPost)!).toBeLessThan(versions.get(quickPost)!)
      expect(versions.get(slowPost)!).toBeGreaterThan(versionOf(held.cursor))
      cursor = after.cursor
      expect((await pullAll(h, me.token, cursor)).changes).toEqual([])
    } finally {
      stop()
    }
  })

  test('a write held open in one buble does not hold up writes in another', async () => {
    const me = await h.register({ name: 'Busy Member' })
    const first = await newBuble(me.token, 'Held')
    const second = await newBuble(me.token, 'Free')
    const user = (await findUserById(h.deps.db, me.id))!
    const written = deferred()
    const release = deferred()
    const holding = syncWrite(h.deps.db, async () => {
      await h.services.wall.createPost(user, first, { content: 'Holding the buble' })
      written.resolve()
      await release.promise
    })
    await written.promise
    try {
      // Ten batches in the other buble all commit while the first write is open.
      for (let round = 0; round < 10; round++) {
        const batch = Array.from({ length: 10 }, (_, i) =>
          mutation('post.create', { id: uuidv7(), buble_id: second, content: `Round ${round} post ${i}` }),
        )
        const answer = await push(h, me.token, batch)
        expect(answer.map((result) => result.status)).toEqual(Array(10).fill('applied'))
      }
    } finally {
      release.resolve()
      await holding
    }
  })
})
