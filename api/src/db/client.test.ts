import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { rowsOf } from '../lib/sql-json.ts'
import { backends, openTestDatabase, type TestDatabase } from '../testing/databases.ts'
import { sessionOptions } from './client.ts'

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

  const setting = async (db: TestDatabase['db'], name: 'jit' | 'plan_cache_mode') =>
    rowsOf<{ value: string }>(await db.execute(sql`select current_setting(${name}) as value`))[0]!.value

  test('no session compiles queries (JIT), the group connection plans once', async () => {
    expect(await setting(database.db, 'jit')).toBe('off')
    expect(await setting(database.groupDb, 'jit')).toBe('off')
    expect(await setting(database.groupDb, 'plan_cache_mode')).toBe('force_generic_plan')
    expect(await setting(database.db, 'plan_cache_mode')).toBe('auto')
  })
})
