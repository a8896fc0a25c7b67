import { sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createRateLimits } from '../lib/rate-limit.ts'
import { rowsOf } from '../lib/sql-json.ts'
import { syncWrite } from '../lib/sync-writes.ts'
import { backends, openTestDatabase, type TestDatabase } from '../testing/databases.ts'
import { rateLimits } from './schema.ts'
import { afterTransaction, openWriteTx, takeRefusals, WriteScopeError } from './write-scope.ts'

const one = async (exec: Pick<TestDatabase['db'], 'execute'>) =>
  rowsOf<{ n: number }>(await exec.execute(sql`select 1 as n`))[0]!.n

describe.each(backends())('the root database inside a write on %s', (backend) => {
  let database: TestDatabase
  beforeAll(async () => {
    database = await openTestDatabase(backend)
  })
  afterAll(() => database?.close())
  // The refusals below are what these tests are about, not a fault of the code under test.
  afterEach(() => void takeRefusals())

  /** A helper that was handed the root database and forgot it may be running inside a write. */
  async function readOnRoot(): Promise<number> {
    return one(database.db)
  }

  test('a query on the root database inside a transaction is refused at once, naming where it was made', async () => {
    let refused: unknown
    const answer = await database.db.transaction(async (tx) => {
      refused = await readOnRoot().catch((err: unknown) => err)
      // The transaction itself is unharmed and goes on.
      return one(tx)
    })
    expect(answer).toBe(1)
    expect(refused).toBeInstanceOf(WriteScopeError)
    const message = (refused as Error).message
    expect(message).toContain('inside an open write')
    expect(message).toContain('write-scope.test.ts')
    expect(takeRefusals()).toEqual([message])
  })

  test('so does a second transaction opened on the root database, and a sync write joins the open one instead', async () => {
    await database.db.transaction(async () => {
      await expect(database.db.transaction(async (tx) => one(tx))).rejects.toBeInstanceOf(WriteScopeError)
    })
    await syncWrite(database.db, async (w) => {
      // A service called inside a push's write joins it: no second connection.
      expect(await syncWrite(database.db, async (inner) => (inner === w ? one(inner.tx) : 0))).toBe(1)
    })
  })

  test('outside a write, and once it has ended, the root database serves again (work a write started may go on)', async () => {
    expect(await readOnRoot()).toBe(1)
    let later: Promise<number> | undefined
    await database.db.transaction(async () => {
      later = new Promise((resolve, reject) => setTimeout(() => readOnRoot().then(resolve, reject), 50))
    })
    expect(await later).toBe(1)
    expect(openWriteTx()).toBeUndefined()
  })

  test('what waits for the commit runs once it has, and never for a transaction that rolled back', async () => {
    const ran: string[] = []
    await database.db.transaction(async () => {
      afterTransaction(() => ran.push('committed'))
      // It may use the root database: no write is open there any more.
      afterTransaction(() => void readOnRoot().then(() => ran.push('read after')))
      expect(ran).toEqual([])
    })
    await expect(
      database.db.transaction(async () => {
        afterTransaction(() => ran.push('rolled back'))
        throw new Error('no')
      }),
    ).rejects.toThrow('no')
    await expect.poll(() => ran).toEqual(['committed', 'read after'])
  })

  test('a rate limit counted inside a write counts on its transaction, and goes back with it', async () => {
    const limits = createRateLimits(database.db, true)
    const key = `user-${backend}-${Date.now()}`
    const points = async () =>
      (await database.db.select().from(rateLimits)).find((row) => row.key === `inviteMailsPerUser:${key}`)?.points ?? 0
    await syncWrite(database.db, async () => {
      await limits.consume(['inviteMailsPerUser', key])
    })
    expect(await points()).toBe(1)
    await expect(
      syncWrite(database.db, async () => {
        await limits.consume(['inviteMailsPerUser', key])
        throw new Error('refused later in the same write')
      }),
    ).rejects.toThrow('refused later')
    expect(await points()).toBe(1)
    expect(takeRefusals()).toEqual([])
  })
})
