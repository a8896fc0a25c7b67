/** Loads synced rows by id in their answer shape, the JSON PostgreSQL builds for each (sync's `load`). */

import { sql } from 'drizzle-orm'
import type { Executor } from '../db/client.ts'
import { rowsOf } from './sql-json.ts'
import { pgUuidArray } from './sync-writes.ts'

/** Rows of `table` (aliased `alias`, its author joined as `u`) by id, as the JSON `json` builds them. */
export function loader<T extends { id: string }>(table: string, alias: string, json: string) {
  return async (db: Executor, ids: readonly string[]): Promise<Map<string, T>> => {
    if (ids.length === 0) return new Map()
    const rows = rowsOf<{ data: T }>(
      await db.execute(
        sql`select ${sql.raw(json)} as data from ${sql.raw(`${table} ${alias} join users u on u.id = ${alias}.author_id`)}
          where ${sql.raw(`${alias}.id`)} = any(${pgUuidArray(ids)})`,
      ),
    )
    return new Map(rows.map(({ data }) => [data.id, data]))
  }
}
