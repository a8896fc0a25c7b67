/** Pieces for building REST answers as JSON inside PostgreSQL, so a list is one statement. */

import type { MemberRef } from '@buble/shared/bubles'
import { REACTION_TYPES, type Reactions, type ReactionsSummary } from '@buble/shared/wall'

/** The rows of a `db.execute` result (node-postgres and PGlite both answer `{rows}`). */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows

/** A timestamp as JavaScript's toISOString writes it, whatever the session's time zone. */
export const isoJson = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/**
 * The SQL of each field of an answer shape `T` (from @buble/shared), in the order the JSON lists
 * them. A field missing, added or misspelt does not compile: the names are written once, in the
 * shared shape, and the SQL follows them.
 */
export type JsonFields<T> = { [K in keyof T]-?: string }

/** A `json_build_object` of `fields`: an answer of shape `T` built by PostgreSQL. */
export const jsonObject = <T>(fields: JsonFields<T>): string =>
  `json_build_object(${Object.entries(fields)
    .map(([name, value]) => `'${name}', ${value}`)
    .join(', ')})`

/** CONTRACT's MemberRef `{id, name, avatar_url}` of the user aliased `alias`. */
export const memberRefJson = (alias: string) =>
  jsonObject<MemberRef>({ id: `${alias}.id`, name: `${alias}.name`, avatar_url: `${alias}.avatar_url` })

const REACTION_ORDER = `array[${REACTION_TYPES.map((type) => `'${type}'`).join(',')}]`

/**
 * The `reactions` ({userId: type[]}) and `reactionsSummary` ({type: count}) fields of the row whose
 * id is `rowId`, read from `table` (columns `user_id`, `type` and `keyColumn`); types in CONTRACT
 * order (wall posts and chat messages alike).
 */
export const reactionsJson = (
  table: string,
  keyColumn: string,
  rowId: string,
): JsonFields<{ reactions: Reactions; reactionsSummary: ReactionsSummary }> => ({
  reactions: `coalesce(
    (select json_object_agg(r.user_id, r.types) from (
      select user_id, json_agg(type order by array_position(${REACTION_ORDER}, type)) as types
      from ${table} where ${keyColumn} = ${rowId} group by user_id) r), '{}'::json)`,
  reactionsSummary: `coalesce((select json_object_agg(s.type, s.n) from (
      select type, count(*)::int as n from ${table} where ${keyColumn} = ${rowId} group by type
      order by array_position(${REACTION_ORDER}, type)) s), '{}'::json)`,
})
