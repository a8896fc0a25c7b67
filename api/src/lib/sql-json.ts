/** Pieces for building REST answers as JSON inside PostgreSQL, so a list is one statement. */

/** The rows of a `db.execute` result (node-postgres and PGlite both answer `{rows}`). */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows

/** A timestamp as JavaScript's toISOString writes it, whatever the session's time zone. */
export const isoJson = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/** CONTRACT's MemberRef `{id, name, avatar_url}` of the user aliased `alias`. */
export const memberRefJson = (alias: string) =>
  `json_build_object('id', ${alias}.id, 'name', ${alias}.name, 'avatar_url', ${alias}.avatar_url)`
