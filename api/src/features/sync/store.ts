/**
 * The pull's reads (PullStore of @buble/sync/server) in SQL: one union of index range scans over
 * `(buble_id, version)`, one leg per synced table plus the tombstones, each cut to the page size.
 */

import type { Entity } from '@buble/shared/entities'
import type { PullOutline, PullStore, ScannedChange, ScanRequest } from '@buble/sync/server/pull'
import { eq, type SQL, sql } from 'drizzle-orm'
import type { Db, Executor } from '../../db/client.ts'
import { syncMeta } from '../../db/schema.ts'
import type { SyncSource, UnreadSource } from '../../lib/sync-sources.ts'
import { ISSUED_VERSION_BOUND, pgUuidArray, SETTLED_VERSION } from '../../lib/sync-writes.ts'
import type { SettleWatch } from './settle-watch.ts'

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows

type OutlineRow = {
  epoch: string
  horizon: string | null
  max: string | number
  settled: string | number
  userHead: string | number
  bubles: [string, string | number, string | number][] | string
}

/** The outline of a pull in one statement (prepared on the quick path, which runs on every pull). */
function outlineQuery(
  exec: Executor,
  sources: readonly SyncSource[],
  userId: SQL | ReturnType<typeof sql.placeholder>,
) {
  const userId$ = sql`${userId}`
  const heads = [
    sql`(select coalesce(max(version), 0) from sync_tombstones where user_id = ${userId$})`,
    ...sources.flatMap((source) => (source.userHead ? [sql`coalesce(${source.userHead(userId$)}, 0)`] : [])),
  ]
  return exec
    .select({
      epoch: syncMeta.value,
      horizon: sql<string | null>`(select value from sync_meta where key = 'horizon')`,
      max: sql<string>`${ISSUED_VERSION_BOUND}`,
      settled: sql<string>`${SETTLED_VERSION}`,
      userHead: sql<string>`greatest(${sql.join(heads, sql`, `)})`,
      // A primary-key lookup per membership, whatever the number of bubles in the database.
      bubles: sql<OutlineRow['bubles']>`(select coalesce(json_agg(json_build_array(m.buble_id, m.joined_version,
          (select b.changed_version from bubles b where b.id = m.buble_id))), '[]'::json)
        from memberships m where m.user_id = ${userId})`,
    })
    .from(syncMeta)
    .where(eq(syncMeta.key, 'epoch'))
}

function toOutline(row: OutlineRow | undefined): PullOutline {
  // Read every time: a database restored or reset under a running process has a new epoch.
  if (!row) throw new Error('sync_meta has no epoch: migrations did not run')
  const bubles = typeof row.bubles === 'string' ? (JSON.parse(row.bubles) as OutlineRow['bubles']) : row.bubles
  return {
    state: {
      epoch: row.epoch,
      maxVersion: Number(row.max),
      settled: Number(row.settled),
      horizon: Number(row.horizon ?? 0),
    },
    userHead: Number(row.userHead),
    bubles: (bubles as [string, string | number, string | number][]).map(([id, joined, changed]) => ({
      id,
      joinedVersion: Number(joined),
      changedVersion: Number(changed),
    })),
  }
}

export function createPullStore(
  db: Db,
  sources: readonly SyncSource[],
  unreadSources: readonly UnreadSource[] = [],
  watch?: SettleWatch,
): PullStore {
  const byEntity = new Map(sources.map((source) => [source.entity, source]))
  const preparedOutline = outlineQuery(db, sources, sql.placeholder('userId')).prepare('sync_outline')
  const counted = new Map(
    unreadSources.flatMap((source) => (source.entity ? [[source.entity, source.contentType] as const] : [])),
  )

  function storeOn(exec: Executor, prepared: boolean): PullStore {
    return {
      async outline(userId) {
        const rows = prepared
          ? await preparedOutline.execute({ userId })
          : await outlineQuery(exec, sources, sql`${userId}`)
        return toOutline(rows[0] as OutlineRow | undefined)
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

      // Added or removed content changes the caller's counter of its tab in that buble.
      derive(rows) {
        const ids = new Set<string>()
        for (const row of rows) {
          const contentType = counted.get(row.entity)
          if (contentType && row.buble_id) ids.add(`${row.buble_id}:${contentType}`)
        }
        return [...ids].map((id) => ({ entity: 'unread', op: 'put', id, buble_id: id.slice(0, 36), version: 0 }))
      },

      snapshot: (fn) =>
        db.transaction((tx) => fn(storeOn(tx, false)), { isolationLevel: 'repeatable read', accessMode: 'read only' }),

      unsettled: watch ? (userId, bubleId, version) => watch.add(userId, bubleId, version) : undefined,
    }
  }

  return storeOn(db, true)
}

/** The scan's SQL, or null when there is nothing to scan. */
function scanQuery(sources: readonly SyncSource[], request: ScanRequest): SQL | null {
  const limit = sql.raw(String(Math.trunc(request.limit)))
  const legs: SQL[] = []
  if (request.bounds.length > 0) {
    for (const source of sources)
      if (source.scan) legs.push(sql`(${source.scan(limit)} order by version limit ${limit})`)
    // Deletes inside the bubles, except for a buble the device is only now receiving whole.
    legs.push(sql`(select 'del'::text as op, l.* from b cross join lateral (
        select t.entity, t.entity_id as id, t.buble_id, t.version from sync_tombstones t
        where t.buble_id = b.id and t.user_id is null and t.version > b.lb and b.lb > 0
        order by t.version limit ${limit}) l
      order by version limit ${limit})`)
  }
  // Bubles the caller lost; not one they belong to again. A device starting from nothing has nothing to forget.
  if (request.userLower > 0)
    legs.push(sql`(select 'del'::text as op, t.entity, t.entity_id as id, t.buble_id, t.version
      from sync_tombstones t
      where t.user_id = ${request.userId} and t.version > ${request.userLower}
        and t.buble_id <> all(${pgUuidArray(request.memberOf)})
      order by t.version limit ${limit})`)
  for (const source of sources)
    if (source.userScan)
      legs.push(sql`(${source.userScan(request.userId, request.userLower)} order by version limit ${limit})`)
  if (legs.length === 0) return null
  const ids = pgUuidArray(request.bounds.map((bound) => bound.id))
  const lowers = sql`${`{${request.bounds.map((bound) => bound.lower).join(',')}}`}::bigint[]`
  // Each leg is read in version order up to the page size, so cutting the union at the settled
  // version afterwards still gives the page's first rows below it.
  return sql`with b(id, lb) as (select * from unnest(${ids}, ${lowers}))
    select entity, id, buble_id, version, op from (${sql.join(legs, sql` union all `)}) u
    where version <= ${request.upper}
    order by version limit ${limit}`
}
