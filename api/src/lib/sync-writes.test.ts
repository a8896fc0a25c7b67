import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { backends, openTestDatabase, type TestDatabase } from '../testing/databases.ts'
import { notifyPayloads, SYNC_CHANNEL, syncWrite } from './sync-writes.ts'

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

  test('a write that only pokes takes no version lock and stamps nothing', async () => {
    const before = rowsOf<{ v: string }>(await database.db.execute(sql`select last_value as v from sync_version`))[0]!.v
    await syncWrite(
      database.db,
      async (w) =>
        w.userChanged('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', 'unread'),
      { lateLock: true },
    )
    const after = rowsOf<{ v: string }>(await database.db.execute(sql`select last_value as v from sync_version`))[0]!.v
    expect(after).toBe(before)
  })
})

// Concurrency needs two connections: PGlite has one.
if (backends().includes('postgres')) {
  describe('the version lock on PostgreSQL', () => {
    let database: TestDatabase
    beforeAll(async () => {
      database = await openTestDatabase('postgres')
    })
    afterAll(() => database?.close())

    test('a lateLock write holds the version lock only from its first version on, and its version follows writes that committed meanwhile', async () => {
      const watcher = new pg.Client({ connectionString: database.url })
      await watcher.connect()
      const versionLockHeld = async () =>
        Number(
          (
            await watcher.query(
              "select count(*) as n from pg_locks where locktype = 'advisory' and objid = 4201201 and granted",
            )
          ).rows[0].n,
        )
      try {
        const checking = deferred()
        const goOn = deferred()
        const versioned = deferred()
        const finish = deferred()
        const late = syncWrite(
          database.db,
          async (w) => {
            await w.tx.execute(sql`select 1`)
            checking.resolve()
            await goOn.promise
            const version = await w.takeVersion()
            versioned.resolve()
            await finish.promise
            return version
          },
          { lateLock: true },
        )
        await checking.promise
        expect(await versionLockHeld()).toBe(0)
        // Another writer takes a version and commits while the late one is still checking.
        const other = await syncWrite(database.db, (w) => w.takeVersion())
        goOn.resolve()
        await versioned.promise
        expect(await versionLockHeld()).toBe(1)
        finish.resolve()
        const lateVersion = await late
        expect(lateVersion).toBeGreaterThan(other)
        expect(await versionLockHeld()).toBe(0)
      } finally {
        await watcher.end()
      }
    })
  })
}
