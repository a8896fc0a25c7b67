import { ENTITY_TABLE } from '@buble/shared/device'
import type { Entity } from '@buble/shared/entities'
import { SyncEngine } from '@buble/sync/client/engine'
import { readMeta } from '@buble/sync/client/local-db'
import {
  applyPulled,
  bubleFilesCache,
  FILES_TO_FORGET_KEY,
  forgetDroppedFiles,
  recordMutation,
  rememberServerChanges,
} from '@buble/sync/client/replica'
import { AT, alice, B1, manualClock, scriptedTransport } from '@buble/sync/client/test-kit'
import type { Change, PullResponse } from '@buble/sync/protocol'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { testDb } from '../../test/device-kit.ts'
import type { DeviceDb } from '../device-db.ts'

const B2 = '0192b3c4-0000-7000-8000-0000000000b2'
const P1 = '0192b3c4-0000-7000-8000-0000000000f1'
const P2 = '0192b3c4-0000-7000-8000-0000000000f2'
const C1 = '0192b3c4-0000-7000-8000-0000000000c1'

const page = (changes: Change[], cursor = 'c1', hasMore = false): PullResponse => ({ cursor, hasMore, changes })
const put = (entity: Entity, id: string, bubleId: string, data: Record<string, unknown> = {}): Change => ({
  entity,
  op: 'put',
  id,
  buble_id: bubleId,
  data: { id, ...data },
})
const bubleOf = (id: string) => put('buble', id, id, { name: `Buble ${id.slice(-2)}` })
const lose = (bubleId: string): Change => ({ entity: 'buble', op: 'del', id: bubleId, buble_id: bubleId })
const post = (id: string, bubleId = B1) => put('post', id, bubleId, { content: 'Hello', commentsCount: 0 })

let dbs: DeviceDb[] = []
const freshDb = () => {
  const db = testDb()
  dbs.push(db)
  return db
}
afterEach(() => {
  for (const db of dbs) db.close()
  dbs = []
  vi.unstubAllGlobals()
})

/** Queues a mutation as the engine would, without a round. */
const queue = (db: DeviceDb, id: string, name: string, args: Record<string, unknown>) =>
  recordMutation(db, { id, name: name as never, args, createdAt: AT, actor: alice })

const ids = async (db: DeviceDb, table: string) => (await db.table(table).toArray()).map((row) => row.id).sort()

describe("a buble's del purges it from the device", () => {
  const kinds = (Object.entries(ENTITY_TABLE) as [Entity, string][]).filter(([entity]) => entity !== 'buble')

  test.each(kinds)('its %s rows (table %s) go, another buble’s stay', async (entity, table) => {
    const db = freshDb()
    await applyPulled(db, page([bubleOf(B1), bubleOf(B2), put(entity, `${B1}-row`, B1), put(entity, `${B2}-row`, B2)]))
    expect(await ids(db, table)).toEqual([`${B1}-row`, `${B2}-row`])
    await applyPulled(db, page([lose(B1)], 'c2'))
    expect(await ids(db, table)).toEqual([`${B2}-row`])
    expect(await ids(db, 'bubles')).toEqual([B2])
  })

  test('every row table but the bubles’ has a buble_id index (a table without one could not be purged)', () => {
    const db = freshDb()
    for (const [, table] of kinds) expect(db.table(table).schema.idxByName.buble_id, table).toBeDefined()
  })
})

describe('writes queued for a buble that is lost', () => {
  test('a queued post is not saved, with its text and the server’s words, and its row goes', async () => {
    const db = freshDb()
    await applyPulled(db, page([bubleOf(B1)]))
    await queue(db, 'm1', 'post.create', { id: P1, buble_id: B1, content: 'Written on the train' })
    expect(await ids(db, 'posts')).toEqual([P1])
    await applyPulled(db, page([lose(B1)], 'c2'), '2026-11-23T11:00:00.000Z')
    expect(await db.outbox.count()).toBe(0)
    expect(await db.posts.count()).toBe(0)
    expect(await db.shadows.count()).toBe(0)
    expect(await db.rejections.toArray()).toEqual([
      {
        id: 'm1',
        name: 'post.create',
        args: { id: P1, buble_id: B1, content: 'Written on the train' },
        code: 'NOT_FOUND',
        message: 'Buble not found',
        at: '2026-11-23T11:00:00.000Z',
      },
    ])
  })

  test('a write naming no buble is found by the row it touches (a comment on a post of it)', async () => {
    const db = freshDb()
    await applyPulled(db, page([bubleOf(B1), bubleOf(B2), post(P1), post(P2, B2)]))
    await queue(db, 'c', 'comment.create', { id: C1, post_id: P1, content: 'Kept text' })
    await queue(db, 'r', 'reaction.add', { post_id: P2, type: 'like' })
    await applyPulled(db, page([lose(B1)], 'c2'))
    expect(await db.rejections.toArray()).toMatchObject([{ id: 'c', args: { content: 'Kept text' } }])
    // The other buble's write is still queued, and its effect still shown.
    expect((await db.outbox.toArray()).map((entry) => entry.id)).toEqual(['r'])
    expect(await db.comments.count()).toBe(0)
    expect(await ids(db, 'posts')).toEqual([P2])
  })

  test('a leave, a delete or a read of the lost buble is moot: it goes, and nothing is shown as not saved', async () => {
    const db = freshDb()
    await applyPulled(db, page([bubleOf(B1), bubleOf(B2)]))
    await queue(db, 'read', 'unread.read', { buble_id: B1, contentType: 'wall' })
    await queue(db, 'leave', 'buble.leave', { buble_id: B1 })
    await queue(db, 'delete', 'buble.delete', { id: B2 })
    await applyPulled(db, page([lose(B1), lose(B2)], 'c2'))
    expect(await db.outbox.count()).toBe(0)
    expect(await db.rejections.count()).toBe(0)
    expect(await db.unread.count()).toBe(0)
  })

  test('a write the server applied goes silently, and its row does not come back before the last page', async () => {
    const db = freshDb()
    await applyPulled(db, page([bubleOf(B1)]))
    await queue(db, 'm1', 'post.create', { id: P1, buble_id: B1, content: 'Saved' })
    await db.outbox.toCollection().modify({ status: 'applied' })
    await applyPulled(db, page([lose(B1)], 'c2', true))
    expect(await db.posts.count()).toBe(0)
    expect(await db.outbox.count()).toBe(0)
    expect(await db.rejections.count()).toBe(0)
  })

  test('left and joined again in the same changes: what was queued for it stays queued', async () => {
    const db = freshDb()
    await applyPulled(db, page([bubleOf(B1)]))
    await queue(db, 'm1', 'post.create', { id: P1, buble_id: B1, content: 'Still wanted' })
    await applyPulled(db, page([lose(B1), bubleOf(B1)], 'c2'))
    expect(await db.rejections.count()).toBe(0)
    expect((await db.outbox.toArray()).map((entry) => entry.id)).toEqual(['m1'])
    expect(await ids(db, 'posts')).toEqual([P1])
  })

  test('a REST answer dropping the buble leaves the queue to the server (a push may be on its way)', async () => {
    const db = freshDb()
    await applyPulled(db, page([bubleOf(B1)]))
    await queue(db, 'm1', 'post.create', { id: P1, buble_id: B1, content: 'On its way' })
    await rememberServerChanges(db, [lose(B1)])
    expect(await db.bubles.count()).toBe(0)
    expect(await db.rejections.count()).toBe(0)
    expect((await db.outbox.toArray()).map((entry) => entry.id)).toEqual(['m1'])
  })

  test('in a round, a post queued after the push and lost in the pull is not saved and never pushed', async () => {
    const db = freshDb()
    await applyPulled(db, page([bubleOf(B1)]))
    const clock = manualClock()
    let engine: SyncEngine | null = null
    let pulled = 0
    const scripted = scriptedTransport({
      pull: async () => {
        pulled += 1
        // Written while the round is between its push and its pull.
        if (pulled === 1) await engine?.mutate('post.create', { id: P1, buble_id: B1, content: 'Too late' })
        return page(pulled === 1 ? [lose(B1)] : [], `c${pulled + 1}`)
      },
    })
    engine = new SyncEngine({
      db,
      transport: scripted.transport,
      actor: () => alice,
      timers: clock.timers,
      now: clock.now,
      random: () => 1,
      intervalMs: 0,
    })
    await engine.sync()
    await engine.sync()
    engine.stop()
    expect(scripted.pushes.flatMap((body) => body.mutations)).toEqual([])
    expect(await db.outbox.count()).toBe(0)
    expect(await db.rejections.toArray()).toMatchObject([{ name: 'post.create', args: { content: 'Too late' } }])
  })
})

describe("a lost buble's cached files", () => {
  function fakeCaches(names: string[], failing = false) {
    const held = new Set(names)
    const caches = {
      delete: vi.fn(async (name: string) => {
        if (failing) throw new Error('Cache Storage unavailable')
        return held.delete(name)
      }),
    }
    vi.stubGlobal('caches', caches)
    return { held, caches }
  }

  test('go with the pull that drops the buble; another buble’s stay', async () => {
    const db = freshDb()
    const { held } = fakeCaches([bubleFilesCache(db.name, B1), bubleFilesCache(db.name, B2)])
    await applyPulled(db, page([bubleOf(B1), bubleOf(B2)]))
    expect(held.size).toBe(2)
    await applyPulled(db, page([lose(B1)], 'c2'))
    expect([...held]).toEqual([bubleFilesCache(db.name, B2)])
    expect(await readMeta(db, FILES_TO_FORGET_KEY)).toBeUndefined()
  })

  test('go with a REST answer that drops the buble', async () => {
    const db = freshDb()
    const { held } = fakeCaches([bubleFilesCache(db.name, B1)])
    await applyPulled(db, page([bubleOf(B1)]))
    await rememberServerChanges(db, [lose(B1)])
    expect(held.size).toBe(0)
  })

  test('that could not be deleted stay noted, and go the next time', async () => {
    const db = freshDb()
    fakeCaches([bubleFilesCache(db.name, B1)], true)
    await applyPulled(db, page([bubleOf(B1)]))
    await applyPulled(db, page([lose(B1)], 'c2'))
    expect(await readMeta(db, FILES_TO_FORGET_KEY)).toEqual([B1])
    const { held } = fakeCaches([bubleFilesCache(db.name, B1)])
    await forgetDroppedFiles(db)
    expect(held.size).toBe(0)
    expect(await readMeta(db, FILES_TO_FORGET_KEY)).toBeUndefined()
  })

  test('are per user: the cache is named after the user’s database', () => {
    expect(bubleFilesCache('buble-u1', B1)).not.toBe(bubleFilesCache('buble-u2', B1))
  })
})
