/**
 * What else ends when a user's tokens are revoked (their token version bumped: a password change,
 * a reset by link or by an admin, a deletion): the reset links mailed before, and the user's live
 * streams in every API process, which hear it through the change bus (lib/change-bus.ts) and check
 * their token at once instead of at their next heartbeat.
 */

import { sql } from 'drizzle-orm'
import type { Executor } from '../db/client.ts'
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
 * A new password (changed, reset by link, set by an admin): the reset links mailed before it stop
 * working (410) and the user's streams are told. Call in the transaction that sets it and bumps
 * the token version.
 */
export async function passwordReplaced(tx: Executor, userId: string, now: Date): Promise<void> {
  await revokeEmailTokens(tx, userId, 'reset', now)
  await announceRevoked(tx, userId)
}
