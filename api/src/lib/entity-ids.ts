/**
 * Client-chosen ids (CONTRACT §7): the same id again from the same user for the same kind is that
 * row, while it is still where the request puts it and the caller may still read it; anything else
 * is a 409.
 */

import { and, eq, type SQL } from 'drizzle-orm'
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core'
import type { Executor } from '../db/client.ts'
import { entityIds } from '../db/schema.ts'
import { conflict } from './errors.ts'

export const ID_IN_USE = 'This id is already in use'

/** A create's answer: the row, and whether this call made it (201) or found it made with the same id (200). */
export interface Created<T> {
  value: T
  created: boolean
}

/**
 * Claims `id` for a new row of `kind` made by `userId`. Answers 'new' when it was free and
 * 'existing' when this user already made a row of this kind with it; throws 409, revealing nothing
 * about the row, when another user or another kind holds it.
 */
async function claimId(tx: Executor, id: string, kind: string, userId: string): Promise<'new' | 'existing'> {
  const inserted = await tx.insert(entityIds).values({ id, kind, userId }).onConflictDoNothing().returning()
  if (inserted.length > 0) return 'new'
  const [holder] = await tx.select().from(entityIds).where(eq(entityIds.id, id)).limit(1)
  if (holder?.kind === kind && holder.userId === userId) return 'existing'
  throw conflict(ID_IN_USE)
}

/**
 * Claims `id` for a new row; 'existing' only while `found` finds the row made with it, where this
 * request puts it (its buble, its post) and where the caller may still read it. Otherwise a 409
 * like any id in use, revealing nothing: ids are never reused, so the id of a deleted row is spent,
 * and a create re-sent after its sender left the row's buble, or naming another buble, must not
 * answer the row (its content, members, reactions).
 */
export async function claimRowId(
  tx: Executor,
  id: string,
  kind: string,
  userId: string,
  found: () => Promise<boolean>,
): Promise<'new' | 'existing'> {
  const claim = await claimId(tx, id, kind, userId)
  if (claim === 'existing' && !(await found())) throw conflict(ID_IN_USE)
  return claim
}

/**
 * `claimRowId` for a row of `table` found by its `id` column and `where` (the buble or post the
 * request names). The caller has checked it may read what the request names (a member of that
 * buble), so a row found there is one it may read.
 */
export const claimTableRowId = (
  tx: Executor,
  table: PgTable & { id: AnyPgColumn },
  id: string,
  kind: string,
  userId: string,
  where: SQL,
): Promise<'new' | 'existing'> =>
  claimRowId(tx, id, kind, userId, async () => {
    const found = await tx
      .select({ id: table.id })
      .from(table)
      .where(and(eq(table.id, id), where))
      .limit(1)
    return found.length > 0
  })
