/**
 * The pull's reads (PullStore of @buble/sync/server) in SQL: one union of index range scans over
 * `(buble_id, version)`, one leg per synced table plus the tombstones, each cut to the page size.
 */

import type { Entity } from '@buble/sync/protocol'
import type { PullStore, ScannedChange, ScanRequest } from '@buble/sync/server/pull'
import { type SQL, sql } from 'drizzle-orm'
import type { Db, Executor } from '../../db/client.ts'
import type { SyncSource } from '../../lib/sync-sources.ts'
import { pgUuidArray } from '../../lib/sync-writes.ts'

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows

export function createPullStore(db: Db, sources: readonly SyncSource[]): PullStore {
  const byEntity = new Map(sources.map((source) => [source.entity, source]))

  function storeOn(exec: Executor): PullStore {
    return {
      async state() {
        const [row] = rowsOf<{ epoch: string | null; horizon: string | null; max: string }>(
          await exec.execute(sql`select
            (select value from sync_meta where key = 'epoch') as epoch,
            (select value from sync_meta where key = 'horizon') as horizon,
            (select case when is_called then last_value else 0 end from sync_version) as max`),
        )
        // Read every time: a database restored or reset under a running process has a new epoch.
        const epoch = row?.epoch
        if (!epoch) throw new Error('sync_meta has no epoch: migrations did not run')
        return { epoch, maxVersion: Number(row?.max ?? 0), horizon: Number(row?.horizon ?? 0) }
      },

      async memberBubles(userId) {
        const rows = rowsOf<{ id: string; joined: string; changed: string }>(
          await exec.execute(sql`select m.buble_id as id, m.joined_version as joined, b.changed_version as changed
            from memberships m join bubles b on b.id = m.buble_id where m.user_id = ${userId}`),
        )
        return rows.map((row) => ({
          id: row.id,
          joinedVersion: Number(row.joined),
          changedVersion: Number(row.changed),
        }))
      },

      async userHead(userId) {
        const [row] = rowsOf<{ head: string | null }>(
          await exec.execute(sql`select max(version) as head from sync_tombstones where user_id = ${userId}`),
        )
        return Number(row?.head ?? 0)
      },

      async scan(request) {
        const query = scanQuery(sources, request)
        if (!query) return []
        return rowsOf<ScannedChange & { version: string }>(await exec.execute(query)).map((row) => ({
          ...row,
          version: Number(row.version),
        }))
      },

      async load(entity: Entity, ids, userId) {
        const source = byEntity.get(entity)
        if (!source) throw new Error(`no sync source for ${entity}`)
        return source.load(exec, ids, userId)
      },

      snapshot: (fn) =>
        db.transaction((tx) => fn(storeOn(tx)), { isolationLevel: 'repeatable read', accessMode: 'read only' }),
    }
  }

  return storeOn(db)
}

/** The scan's SQL, or null when there is nothing to scan. */
function scanQuery(sources: readonly SyncSource[], request: ScanRequest): SQL | null {
  const limit = sql.raw(String(Math.trunc(request.limit)))
  const legs: SQL[] = []
  if (request.bounds.length > 0) {
    for (const source of sources) legs.push(sql`(${source.scan} order by version limit ${limit})`)
    // Deletes inside the bubles, except for a buble the device is only now receiving whole.
    legs.push(sql`(select t.entity, t.entity_id as id, t.buble_id, t.version, 'del'::text as op
      from sync_tombstones t join b on t.buble_id = b.id and t.version > b.lb
      where t.user_id is null and b.lb > 0 order by t.version limit ${limit})`)
  }
  // Bubles the caller lost; not one they belong to again. A device starting from nothing has nothing to forget.
  if (request.userLower > 0)
    legs.push(sql`(select t.entity, t.entity_id as id, t.buble_id, t.version, 'del'::text as op
    from sync_tombstones t
    where t.user_id = ${request.userId} and t.version > ${request.userLower}
      and t.buble_id <> all(${pgUuidArray(request.memberOf)})
    order by t.version limit ${limit})`)
  if (legs.length === 0) return null
  const ids = pgUuidArray(request.bounds.map((bound) => bound.id))
  const lowers = sql`${`{${request.bounds.map((bound) => bound.lower).join(',')}}`}::bigint[]`
  return sql`with b(id, lb) as (select * from unnest(${ids}, ${lowers}))
    select entity, id, buble_id, version, op from (${sql.join(legs, sql` union all `)}) u
    order by version limit ${limit}`
}
