/**
 * How a feature takes part in sync: the synced tables it owns (a scan leg and a loader for each
 * entity) and the mutations it handles. Features export these; app.ts hands them to the sync feature.
 */

import type { Entity } from '@buble/shared/entities'
import type { MutationArgs, MutationName } from '@buble/shared/mutations'
import type { Permission } from '@buble/shared/permissions'
import type { ContentType } from '@buble/shared/unread'
import { type SQL, sql } from 'drizzle-orm'
import type { Executor } from '../db/client.ts'
import type { UserRow } from './accounts.ts'

export interface SyncSource {
  entity: Entity
  /**
   * The rows of this entity in the scanned bubles, newer than each buble's bound, at most `limit`
   * per buble. It selects `op, entity, id, buble_id, version` and reads the bounds as `b(id, lb)`.
   * A source of rows addressed to one user only (their own counters) has no buble scan.
   */
  scan?(limit: SQL): SQL
  /** The caller's own rows of this entity newer than `lower` (same columns as `scan`; the store orders and cuts them). */
  userScan?(userId: string, lower: number): SQL
  /** The newest version of the caller's own rows of this entity, for the quick path (a scalar subquery). */
  userHead?(userId: SQL): SQL
  /** The data of `put` changes by id, as the caller would get each row from REST. */
  load(db: Executor, ids: readonly string[], userId: string): Promise<Map<string, unknown>>
}

/**
 * A scan leg for a table with a `version` column and a buble id column: for each buble an index
 * range scan over `(buble column, version)` that stops after `limit` rows, so a page costs the
 * same however long the buble's history is.
 */
export function scanTable(entity: Entity, table: string, bubleColumn: string, idExpression = 'x.id::text') {
  return (limit: SQL): SQL =>
    sql`select 'put'::text as op, ${sql.raw(`'${entity}'::text`)} as entity, l.* from b cross join lateral (${sql.raw(
      `select ${idExpression} as id, x.${bubleColumn} as buble_id, x.version from ${table} x ` +
        `where x.${bubleColumn} = b.id and x.version > b.lb order by x.version limit `,
    )}${limit}) l`
}

/** Applies one mutation for a user, answering what the matching REST call answers. */
export type MutationHandler<N extends MutationName> = (user: UserRow, args: MutationArgs<N>) => Promise<unknown>

export type MutationHandlers = { [N in MutationName]: MutationHandler<N> }

/** What a batched handler answers for a mutation it leaves to the one-at-a-time handler. */
export const ONE_BY_ONE: unique symbol = Symbol('one by one')

/**
 * Applies several mutations of one name at once, for one user, inside the push's open write: one
 * statement for them all instead of a few round trips each (a busy device's queue of posts and
 * messages). It answers, for each, what its handler would, or `ONE_BY_ONE` where that handler must
 * answer (an outsider's 404, an id already used, a reply elsewhere): those then run one at a time,
 * after the others, and write nothing the batch wrote. `takes` says which mutations may go in a
 * batch at all (a plain text post, say); the others go one at a time, in their turn.
 */
export interface MutationBatcher<N extends MutationName> {
  takes(args: MutationArgs<N>): boolean
  apply(user: UserRow, args: readonly MutationArgs<N>[]): Promise<unknown[]>
}

export type MutationBatchers = { [N in MutationName]?: MutationBatcher<N> }

/**
 * How a batcher answers: `items` (with ids, repeats allowed) against what its statement wrote for
 * `firstOfEach(items)`. The first of an id gets its row; a repeat, and an id not written, get
 * `ONE_BY_ONE`, so the handler answers them (the row made with that id, or the refusal).
 */
export function batchAnswers<T extends { id: string }, A>(
  items: readonly T[],
  written: ReadonlyMap<string, A>,
): (A | typeof ONE_BY_ONE)[] {
  const seen = new Set<string>()
  return items.map((item) => {
    if (seen.has(item.id)) return ONE_BY_ONE
    seen.add(item.id)
    return written.get(item.id) ?? ONE_BY_ONE
  })
}

/** The items a batch statement writes: the first of each id (a statement writes an id once). */
export function firstOfEach<T extends { id: string }>(items: readonly T[]): T[] {
  const seen = new Set<string>()
  return items.filter((item) => !seen.has(item.id) && seen.add(item.id))
}

/** The handlers of one feature's group of mutations (`typeof WALL_MUTATIONS`, say, of @buble/shared/mutations). */
export type MutationHandlersOf<Group> = Pick<MutationHandlers, keyof Group & MutationName>

/**
 * Content that counts towards a tab's unread counter (CONTRACT §3.2): rows others added since the
 * member last read the tab. Counting reads an index on `(buble column, added column)` from the read
 * mark and stops at the cap, so it never grows with the buble's history.
 */
export interface UnreadSource {
  contentType: ContentType
  /** The synced entity whose changes may change the count (none: its rows are not synced, and its writes touch the counters themselves). */
  entity?: Entity
  table: string
  bubleColumn: string
  /** The version taken when a row was added (it never changes after). */
  addedColumn: string
  /** Who added it: one's own rows never count. */
  authorColumn: string
  /** Counted only for members holding this permission (the owner holds every one); 0 for the others. */
  onlyWith?: Permission
}
