/** Who belongs to a buble, as every buble-scoped feature checks it (404 for outsiders: they must not learn it exists). */

import { BUBLE_MESSAGES } from '@buble/shared/bubles'
import { MEMBER_MESSAGES } from '@buble/shared/members'
import { mutedMessage } from '@buble/shared/mute-texts'
import { isMutedAt } from '@buble/shared/mutes'
import type { MemberActor } from '@buble/shared/permissions'
import { and, eq, type SQL, sql } from 'drizzle-orm'
import type { Executor } from '../db/client.ts'
import { memberships } from '../db/schema.ts'
import { forbidden, notFound } from './errors.ts'
import { openWrite } from './sync-writes.ts'

export type MembershipRow = typeof memberships.$inferSelect

export const bubleNotFound = () => notFound(BUBLE_MESSAGES.notFound)
export const memberNotFound = () => notFound(MEMBER_MESSAGES.memberNotFound)

/** The id of a `member` change: `<buble_id>:<user_id>`, so a device can name a row it makes offline. */
export const memberKey = (bubleId: string, userId: string) => `${bubleId}:${userId}`

/**
 * The member row of a user in a buble. Inside a sync write, it first locks the buble's row (once
 * per write): writes in one buble run one at a time, so what a write checks (a role, a
 * vote, a code's uses) holds until it commits, while writes in other bubles go on (decision 91).
 */
export async function findMembership(
  db: Executor,
  bubleId: string,
  userId: string,
): Promise<MembershipRow | undefined> {
  // The lock first, on its own: a statement that waited for it reads from the snapshot it took
  // before waiting, so the member row must be read by the next one.
  await openWrite()?.enter(bubleId)
  const [row] = await db
    .select()
    .from(memberships)
    .where(and(eq(memberships.bubleId, bubleId), eq(memberships.userId, userId)))
    .limit(1)
  return row
}

/** The member row of a user in a buble, or 404: a non-member must not learn that the buble exists. */
export async function requireMembership(db: Executor, bubleId: string, userId: string): Promise<MembershipRow> {
  const row = await findMembership(db, bubleId, userId)
  if (!row) throw bubleNotFound()
  return row
}

/** The member row, or `missing()` thrown: a row in a buble one is not in is "not found" like a missing row. */
export async function requireMembershipOr(
  db: Executor,
  bubleId: string,
  userId: string,
  missing: () => Error,
): Promise<MembershipRow> {
  const row = await findMembership(db, bubleId, userId)
  if (!row) throw missing()
  return row
}

/** The rules' view of a member row (shared/permissions.ts `MemberActor`). */
export const memberActorOf = (row: MembershipRow): MemberActor => ({
  userId: row.userId,
  role: row.role,
  permissions: row.permissions,
})

/**
 * Refuses a write by a muted member (issue 24 §2): reading stays, writing content does not. It reads
 * the member row the write already fetched, so it costs no query; REST answers 403 and sync
 * `rejected`, both with the text the banner shows.
 */
export function requireWriter(row: Pick<MembershipRow, 'mutedUntil'>, now: Date): void {
  if (isMutedAt(row.mutedUntil, now)) throw forbidden(mutedMessage(row.mutedUntil!, now))
}

/**
 * The same guard in SQL, for the one-statement writes (runs of posts, chat messages): the member row
 * `alias` is not muted at `now`. A row it leaves out goes one by one, where `requireWriter` refuses it
 * with the text.
 */
export const notMutedSql = (alias: string, now: Date | SQL): SQL => {
  const at = now instanceof Date ? sql`${now.toISOString()}::timestamptz` : now
  return sql`(${sql.raw(alias)}.muted_until is null or ${sql.raw(alias)}.muted_until <= ${at})`
}
