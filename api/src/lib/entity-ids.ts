/**
 * Client-chosen ids (CONTRACT §7): the same id again from the same user for the same kind is that
 * row, while it is still where the request puts it and the caller may still read it; anything else
 * is a 409.
 */

import { eq, type SQL, sql } from 'drizzle-orm'
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
 * Claims `id` for a new row of `kind` made by `userId`. Answers 'new' when it was free, and
 * 'existing' when this user already made a row of this kind with it and `stillThere` (an SQL
 * condition) finds that row where this request puts it (its buble, its post) and where the caller
 * may still read it. Anything else is a 409 like any id in use, revealing nothing: ids are never
 * reused, so the id of a deleted row is spent, and a create re-sent after its sender left the row's
 * buble, or naming another buble, must not answer the row (its content, members, reactions).
 */
export async function claimId(
  tx: Executor,
  id: string,
  kind: string,
  userId: string,
  stillThere: SQL,
): Promise<'new' | 'existing'> {
  const inserted = await tx
    .insert(entityIds)
    .values({ id, kind, userId })
    .onConflictDoNothing()
    .returning({ id: entityIds.id })
  if (inserted.length > 0) return 'new'
  const [holder] = await tx
    .select({ kind: entityIds.kind, userId: entityIds.userId, found: sql<boolean>`${stillThere}` })
    .from(entityIds)
    .where(eq(entityIds.id, id))
    .limit(1)
  if (holder?.kind === kind && holder.userId === userId && holder.found) return 'existing'
  throw conflict(ID_IN_USE)
}
