import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { isDatabaseUnavailable } from '../lib/errors.ts'
import { rowsOf } from '../lib/sql-json.ts'
import { backends, openTestDatabase, runElsewhere, type TestDatabase } from '../testing/databases.ts'
import { DB_TIMEOUTS, sessionOptions } from './client.ts'

describe('session options', () => {
  test('JIT off, then the settings asked for, after the options the URL gives', () => {
    expect(sessionOptions('postgres://u@127.0.0.1:5432/buble')).toBe('-c jit=off')
    expect(sessionOptions('postgres://u@h/buble', 'plan_cache_mode=force_generic_plan')).toBe(
      '-c jit=off -c plan_cache_mode=force_generic_plan',
    )
    expect(sessionOptions('postgres://u@h/buble?options=-c%20search_path%3Dapp')).toBe('-c search_path=app -c jit=off')
    expect(sessionOptions('not a url')).toBe('-c jit=off')
  })
})

describe.each(backends().filter((backend) => backend === 'postgres'))('sessions on %s', (backend) => {
  let database: TestDatabase
  beforeAll(async () => {
    database = await openTestDatabase(backend)
  })
  afterAll(() => database?.close())

  const setting = async (db: TestDatabase['db'], name: string) =>
    rowsOf<{ value: string }>(await db.execute(sql`select current_setting(${name}) as value`))[0]!.value

  test('no session compiles queries (JIT), the group connection plans once', async () => {
    expect(await setting(database.db, 'jit')).toBe('off')
    expect(await setting(database.groupDb, 'jit')).toBe('off')
    expect(await setting(database.groupDb, 'plan_cache_mode')).toBe('force_generic_plan')
    expect(await setting(database.db, 'plan_cache_mode')).toBe('auto')
  })

  test('every session bounds its waits for locks, its statements and its idle transactions (decision 55)', async () => {
    for (const db of [database.db, database.groupDb]) {
      expect(await setting(db, 'lock_timeout')).toBe(`${DB_TIMEOUTS.lockMs / 1000}s`)
      expect(await setting(db, 'statement_timeout')).toBe(`${DB_TIMEOUTS.statementMs / 1000}s`)
      expect(await setting(db, 'idle_in_transaction_session_timeout')).toBe(
        `${DB_TIMEOUTS.idleInTransactionMs / 1000}s`,
      )
    }
  })
})

describe.each(backends().filter((backend) => backend === 'postgres'))('a busy or broken pool on %s', (backend) => {
  let database: TestDatabase
  beforeAll(async () => {
    database = await openTestDatabase(backend, {
      timeouts: { connectionMs: 300, lockMs: 300, statementMs: 2000, idleInTransactionMs: 1000 },
    })
  })
  afterAll(() => database?.close())

  const one = async () => rowsOf<{ n: number }>(await database.db.execute(sql`select 1 as n`))[0]!.n

  test('a wait for a connection is bounded: with every connection held, a query fails as unavailable, and works once one is free', async () => {
    let release!: () => void
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    let started = 0
    const holders = Array.from({ length: 10 }, () =>
      database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`)
        started++
        await held
      }),
    )
    await expect.poll(() => started).toBe(10)
    const refused = await one().catch((err: unknown) => err)
    expect(isDatabaseUnavailable(refused)).toBe(true)
    release()
    await Promise.all(holders)
    expect(await one()).toBe(1)
  })

  test('a session the server ends while a transaction idles in it fails that write as unavailable, and the pool heals', async () => {
    const failure = await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`select 1`)
        // Past idle_in_transaction_session_timeout (1 s here) the server ends the session.
        await new Promise((resolve) => setTimeout(resolve, 1800))
        await tx.execute(sql`select 1`)
      })
      .catch((err: unknown) => err)
    expect(isDatabaseUnavailable(failure)).toBe(true)
    // The process is still here (the error had a listener) and the next queries get a fresh connection.
    for (let i = 0; i < 12; i++) expect(await one()).toBe(1)
  })

  test('a lock held elsewhere is waited for only up to lock_timeout, then the statement fails as unavailable', async () => {
    const blocker = runElsewhere(
      database,
      'begin',
      'select pg_advisory_lock(77)',
      'select pg_sleep(1.5)',
      'select pg_advisory_unlock(77)',
      'commit',
    )
    await new Promise((resolve) => setTimeout(resolve, 300))
    const waited = await database.db.execute(sql`select pg_advisory_xact_lock(77)`).catch((err: unknown) => err)
    expect(isDatabaseUnavailable(waited)).toBe(true)
    await blocker
    expect(await one()).toBe(1)
  })
})
