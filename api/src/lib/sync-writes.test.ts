import { sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { backends, openTestDatabase, type TestDatabase } from '../testing/databases.ts'
import { ISSUED_VERSION_BOUND, notifyPayloads, SETTLED_VERSION, SYNC_CHANNEL, syncWrite } from './sync-writes.ts'

/** The settled version's SQL as text, for a plain pg client. */
const SETTLED_SQL = new PgDialect().sqlToQuery(SETTLED_VERSION).sql

function deferred<T = void>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows

describe.each(backends())('sync writes on %s', (backend) => {
  let database: TestDatabase
  beforeAll(async () => {
    database = await openTestDatabase(backend)
  })
  afterAll(() => database?.close())

  test('the flush sends every poke in one statement, JSON quotes and all, and only on commit', async () => {
    const heard: string[] = []
    const stop = await database.listen(SYNC_CHANNEL, (payload) => heard.push(payload))
    try {
      await syncWrite(database.db, async (w) => {
        w.changed('00000000-0000-4000-8000-000000000001', 'post')
        w.userChanged('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', 'unread')
      })
      await expect(
        syncWrite(database.db, async (w) => {
          w.changed('00000000-0000-4000-8000-000000000003', 'post')
          throw new Error('rolled back')
        }),
      ).rejects.toThrow('rolled back')
      await expect.poll(() => heard.length).toBe(1)
      expect(JSON.parse(heard[0]!)).toEqual([
        { buble_id: '00000000-0000-4000-8000-000000000001', entity: 'post' },
        {
          buble_id: '00000000-0000-4000-8000-000000000001',
          entity: 'unread',
          user_id: '00000000-0000-4000-8000-000000000002',
        },
      ])
    } finally {
      await stop()
    }
  })

  test('pokes too many for one NOTIFY are split, each payload under 8000 bytes', () => {
    const pokes = Array.from({ length: 400 }, (_, i) => ({
      buble_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      entity: 'post' as const,
    }))
    const payloads = notifyPayloads(pokes)
    expect(payloads.length).toBeGreaterThan(1)
    for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThan(8000)
    expect(payloads.flatMap((p) => JSON.parse(p))).toEqual(pokes)
  })

  test("a write's versions are its transaction id times 65536 plus a count: they rise and never tie, SQL's below the app's, and a savepoint rolled back skips its numbers", async () => {
    const seen = await syncWrite(database.db, async (w) => {
      const xid = Number(rowsOf<{ x: string }>(await w.tx.execute(sql`select pg_current_xact_id()::text as x`))[0]!.x)
      const inSql = Number(rowsOf<{ v: string }>(await w.tx.execute(sql`select buble_next_version() as v`))[0]!.v)
      const first = await w.takeVersion()
      const second = await w.takeVersion()
      const undone = await w.tx
        .transaction(async (savepoint) => {
          await w.fork(savepoint).takeVersion()
          throw new Error('rolled back')
        })
        .catch(() => 'rolled back')
      const third = await w.takeVersion()
      return { xid, inSql, first, second, undone, third }
    })
    expect(seen.inSql).toBe(seen.xid * 65536 + 1)
    expect(seen.first).toBe(seen.xid * 65536 + 64512)
    expect(seen.second).toBe(seen.first + 1)
    expect(seen.undone).toBe('rolled back')
    expect(seen.third).toBe(seen.second + 2)
    // The next write starts a block of its own, above.
    const next = await syncWrite(database.db, (w) => w.takeVersion())
    expect(next).toBeGreaterThan(seen.third)
    expect(next % 65536).toBe(64512)
  })

  test('what has settled: every version of a committed write, and no more than the issued bound', async () => {
    const version = await syncWrite(database.db, (w) => w.takeVersion())
    const [row] = rowsOf<{ settled: string; bound: string }>(
      await database.db.execute(sql`select ${SETTLED_VERSION} as settled, ${ISSUED_VERSION_BOUND} as bound`),
    )
    expect(Number(row!.settled)).toBeGreaterThanOrEqual(version)
    expect(Number(row!.bound)).toBeGreaterThan(Number(row!.settled))
  })
})

// Concurrency needs two connections: PGlite has one.
if (backends().includes('postgres')) {
  describe('writes without a lock on PostgreSQL', () => {
    let database: TestDatabase
    beforeAll(async () => {
      database = await openTestDatabase('postgres')
    })
    afterAll(() => database?.close())

    test('a write that stays open holds back neither another write nor its commit, only what a pull may read: the settled version stays below its own until it commits', async () => {
      const watcher = new pg.Client({ connectionString: database.url })
      await watcher.connect()
      const settled = async () => Number((await watcher.query(`select ${SETTLED_SQL} as v`)).rows[0].v)
      try {
        const versioned = deferred<number>()
        const finish = deferred()
        const slow = syncWrite(database.db, async (w) => {
          const version = await w.takeVersion()
          versioned.resolve(version)
          await finish.promise
          return version
        })
        const slowVersion = await versioned.promise
        // Another write takes a version and commits while the slow one is open: nothing waits.
        const quick = await syncWrite(database.db, (w) => w.takeVersion())
        expect(quick).toBeGreaterThan(slowVersion)
        // Committed, but not settled: the slow write may still commit a version below it.
        expect(await settled()).toBeLessThan(slowVersion)
        finish.resolve()
        expect(await slow).toBe(slowVersion)
        expect(await settled()).toBeGreaterThanOrEqual(quick)
      } finally {
        await watcher.end()
      }
    })

    test('an open transaction in another database holds nothing back', async () => {
      const other = await openTestDatabase('postgres')
      const stranger = new pg.Client({ connectionString: other.url })
      await stranger.connect()
      try {
        await stranger.query('begin')
        await stranger.query('select pg_current_xact_id()')
        const version = await syncWrite(database.db, (w) => w.takeVersion())
        const [row] = rowsOf<{ v: string }>(await database.db.execute(sql`select ${SETTLED_VERSION} as v`))
        expect(Number(row!.v)).toBeGreaterThanOrEqual(version)
        await stranger.query('rollback')
      } finally {
        await stranger.end()
        await other.close()
      }
    })
  })
}
