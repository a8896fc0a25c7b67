/**
 * What else ends when a user's tokens are revoked (their token version bumped: a password change,
 * a reset by link or by an admin, a deletion): the reset links mailed before, and the user's live
 * streams in every API process, which hear it through the change bus (lib/change-bus.ts) and check
 * their token at once instead of at their next heartbeat.
 */

import { and, eq, ne, type SQL, sql } from 'drizzle-orm'
import type { Executor } from '../db/client.ts'
import { sessions, users } from '../db/schema.ts'
import type { UserRow } from './accounts.ts'
import { revokeEmailTokens } from './email-tokens.ts'
import { SYNC_CHANNEL } from './sync-writes.ts'

/** The NOTIFY payload announcing a revocation, on the pokes' channel. */
export const revokedPayload = (userId: string): string => JSON.stringify([{ revoked: userId }])

/**
 * Tells every process's streams that `userId`'s tokens were revoked. Call in the transaction that
 * bumps the version: NOTIFY is delivered once it commits (after which a token check sees the new
 * version), never if it rolls back.
 */
export async function announceRevoked(tx: Executor, userId: string): Promise<void> {
  await tx.execute(sql`select pg_notify(${SYNC_CHANNEL}, ${revokedPayload(userId)})`)
}

/**
 * The reset links mailed before a new password stop working (410), the user's sessions end but
 * `keepSession` (their rows go: their tokens are refused by the version already), and the user's
 * streams are told.
 */
async function passwordReplaced(tx: Executor, userId: string, now: Date, keepSession?: string): Promise<void> {
  await revokeEmailTokens(tx, userId, 'reset', now)
  await tx
    .delete(sessions)
    .where(keepSession ? and(eq(sessions.userId, userId), ne(sessions.id, keepSession)) : eq(sessions.userId, userId))
  await announceRevoked(tx, userId)
}

/**
 * The one way to give an account a new password (changed, reset by link, set by an admin, chosen
 * through an invite link): sets it, bumps the token version so every token issued before stops
 * working, kills the reset links mailed before, ends the user's sessions (but `keepSession`, the one
 * changing it: it is given a new token) and their live streams, all in `tx`. `also` sets more
 * columns; `when` narrows which row may take it. Answers the row, or undefined when no row matched
 * (and then nothing was revoked).
 */
export async function setNewPassword(
  tx: Executor,
  userId: string,
  passwordHash: string,
  now: Date,
  {
    also = {},
    when,
    keepSession,
  }: { also?: Partial<typeof users.$inferInsert>; when?: SQL; keepSession?: string | undefined } = {},
): Promise<UserRow | undefined> {
  const [row] = await tx
    .update(users)
    .set({ ...also, passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: now })
    .where(when ? and(eq(users.id, userId), when) : eq(users.id, userId))
    .returning()
  if (row) await passwordReplaced(tx, userId, now, keepSession)
  return row
}
