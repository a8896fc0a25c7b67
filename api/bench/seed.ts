/** What every bench seed shares: one transaction on PostgreSQL that writes versions in order like any writer. */

import pg from 'pg'

// The version lock of lib/sync-writes.ts: the seed writes versions in order like any writer.
const VERSION_LOCK = 4_201_201

/**
 * Runs `write` in one transaction holding the version lock, then `maintenance` after the commit
 * (planner statistics and the visibility map as autovacuum keeps them on a live database: a bulk
 * load outruns it). Rolls back and rethrows when `write` fails.
 */
export async function seedTransaction(
  databaseUrl: string | undefined,
  maintenance: string,
  write: (client: pg.Client) => Promise<void>,
): Promise<void> {
  if (!databaseUrl) throw new Error('seeding needs PostgreSQL')
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    await client.query('begin')
    await client.query('select pg_advisory_xact_lock($1)', [VERSION_LOCK])
    await write(client)
    await client.query('commit')
    await client.query(maintenance)
  } catch (err) {
    await client.query('rollback').catch(() => {})
    throw err
  } finally {
    await client.end()
  }
}
