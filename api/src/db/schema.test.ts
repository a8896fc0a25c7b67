import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { rowsOf } from '../lib/sql-json.ts'
import { backends, openTestDatabase, type TestDatabase } from '../testing/databases.ts'

/**
 * The migrated schema's own rules, checked in the catalogue: every foreign key has an index led by
 * its column, so deleting the row it points at (an account, a buble) never scans the whole table.
 */
describe.each(backends())('the schema on %s', (backend) => {
  let database: TestDatabase
  beforeAll(async () => {
    database = await openTestDatabase(backend)
  })
  afterAll(() => database?.close())

  test('every foreign key has an index led by its column', async () => {
    const unindexed = rowsOf<{ fk: string }>(
      await database.db.execute(sql`
        select c.conrelid::regclass::text || '.' || a.attname as fk
        from pg_constraint c
        join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
        where c.contype = 'f' and c.connamespace = 'public'::regnamespace
          and not exists (select 1 from pg_index i where i.indrelid = c.conrelid and i.indkey[0] = c.conkey[1])
        order by 1`),
    ).map((row) => row.fk)
    expect(unindexed).toEqual([])
    // The check reads what it should: the schema has foreign keys.
    const [{ n }] = rowsOf<{ n: number }>(
      await database.db.execute(
        sql`select count(*)::int as n from pg_constraint where contype = 'f' and connamespace = 'public'::regnamespace`,
      ),
    ) as [{ n: number }]
    expect(n).toBeGreaterThan(20)
  })
})
