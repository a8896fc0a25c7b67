/**
 * How a feature takes part in sync: the synced tables it owns (a scan leg and a loader for each
 * entity) and the mutations it handles. Features export these; app.ts hands them to the sync feature.
 */

import type { Entity, HandledMutation, MutationArgs } from '@buble/sync/protocol'
import { type SQL, sql } from 'drizzle-orm'
import type { Executor } from '../db/client.ts'
import type { UserRow } from './accounts.ts'

export interface SyncSource {
  entity: Entity
  /**
   * The rows of this entity in the scanned bubles, newer than each buble's bound. It selects
   * `entity, id, buble_id, version, op` and may join the bounds as `b(id, lb)`.
   */
  scan: SQL
  /** The data of `put` changes by id, as the caller would get each row from REST. */
  load(db: Executor, ids: readonly string[], userId: string): Promise<Map<string, unknown>>
}

/** A scan leg for a table with a `version` column and a buble id column (alias `x`). */
export function scanTable(entity: Entity, table: string, bubleColumn: string, idExpression = 'x.id::text'): SQL {
  return sql.raw(
    `select '${entity}'::text as entity, ${idExpression} as id, x.${bubleColumn} as buble_id, x.version, 'put'::text as op ` +
      `from ${table} x join b on x.${bubleColumn} = b.id and x.version > b.lb`,
  )
}

/** Applies one mutation for a user, answering what the matching REST call answers. */
export type MutationHandler<N extends HandledMutation> = (user: UserRow, args: MutationArgs<N>) => Promise<unknown>

export type MutationHandlers = { [N in HandledMutation]: MutationHandler<N> }
