/**
 * Unread counters (CONTRACT §3.2, §6): for each tab of a buble, what others added since the member
 * last read it; a member who never read a tab counts from their join. "Since" is by version, which
 * never ties. Each registered content type is counted with one index range read per buble, stopped
 * at the cap.
 */

import { CONTENT_TYPES, type ContentType, UNREAD_CAP, type UnreadCounter } from '@buble/shared/unread'
import { and, eq, type SQL, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { memberships } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import type { UserRow } from '../../lib/accounts.ts'
import { bubleNotFound, requireMembership } from '../../lib/memberships.ts'
import type { PokeClock } from '../../lib/poke-clock.ts'
import type { UnreadSource } from '../../lib/sync-sources.ts'
import { NEXT_VERSION, pgUuidArray, SETTLED_VERSION, syncWrite } from '../../lib/sync-writes.ts'

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows

/** The change id of a counter: `<buble_id>:<contentType>`. */
export const counterKey = (bubleId: string, contentType: ContentType) => `${bubleId}:${contentType}`

/**
 * What others added to one buble (`bubleId`, an SQL expression) since the member last read the
 * source's tab (or joined, at `joinedVersion`), at most the cap. Ordered by the indexed column so the index scan stops at the
 * cap (a bitmap scan would first collect every match).
 */
function cappedCount(source: UnreadSource, bubleId: SQL, userId: SQL, joinedVersion: SQL): SQL {
  const x = (column: string) => sql.raw(`x.${column}`)
  return sql`(select count(*) from (select 1 from ${sql.raw(source.table)} x
    where ${x(source.bubleColumn)} = ${bubleId}
      and ${x(source.addedColumn)} > coalesce(
        (select m.read_version from unread_marks m
          where m.user_id = ${userId} and m.buble_id = ${bubleId} and m.content_type = ${source.contentType}),
        ${joinedVersion})
      and ${x(source.authorColumn)} <> ${userId}
      ${
        source.onlyWith
          ? sql`and exists (select 1 from memberships p where p.buble_id = ${bubleId} and p.user_id = ${userId}
        and (p.role = 'owner' or ${sql.raw(`'${source.onlyWith}'`)} = any(p.permissions)))`
          : sql``
      }
    order by ${x(source.addedColumn)} limit ${sql.raw(String(UNREAD_CAP))}) capped)`
}

/**
 * Whether the member has an unread mention on the source's tab (decision 94): a mention newer than
 * their read mark of the tab (or their join), by the same versions as the count.
 */
function mentionedFlag(contentType: ContentType, bubleId: SQL, userId: SQL, joinedVersion: SQL): SQL {
  return sql`exists (select 1 from mentions mn
    where mn.user_id = ${userId} and mn.buble_id = ${bubleId} and mn.content_type = ${contentType}
      and mn.version > coalesce(
        (select m.read_version from unread_marks m
          where m.user_id = ${userId} and m.buble_id = ${bubleId} and m.content_type = ${contentType}),
        ${joinedVersion}))`
}

/** One source's counts for a user in several bubles. */
function countQuery(source: UnreadSource, userId: string, bubleIds: readonly string[]): SQL {
  return sql`select me.buble_id, ${source.contentType}::text as content_type,
      ${cappedCount(source, sql`me.buble_id`, sql`${userId}::uuid`, sql`me.joined_version`)} as n,
      ${mentionedFlag(source.contentType, sql`me.buble_id`, sql`${userId}::uuid`, sql`me.joined_version`)} as mentioned
    from memberships me
    where me.user_id = ${userId} and me.buble_id = any(${pgUuidArray(bubleIds)})`
}

/** One source's counts in one buble for several of its members. */
function membersCountQuery(source: UnreadSource, bubleId: string, userIds: readonly string[]): SQL {
  return sql`select me.user_id, ${source.contentType}::text as content_type,
      ${cappedCount(source, sql`me.buble_id`, sql`me.user_id`, sql`me.joined_version`)} as n
    from memberships me
    where me.buble_id = ${bubleId} and me.user_id = any(${pgUuidArray(userIds)})`
}

export type UnreadService = ReturnType<typeof unreadService>

const MAX_CACHED = 50_000

export function unreadService(deps: Deps, sources: readonly UnreadSource[], pokes: PokeClock) {
  const { db, now } = deps
  // Counters as last read from the database, per reader and buble, until a poke for the buble or
  // the reader (new content, a read mark, a removal) says they may have changed (lib/poke-clock.ts).
  const cached = new Map<string, { counters: UnreadCounter[]; since: number }>()
  const stopForgetting = pokes.onForget(() => cached.clear())

  // The REST call, on every tab switch of every device: one prepared statement that is also the
  // membership check (no row: not a member).
  const userId$ = sql`${sql.placeholder('userId')}::uuid`
  const bubleId$ = sql`${sql.placeholder('bubleId')}::uuid`
  const oneBuble = db
    .select(
      Object.fromEntries(
        sources.flatMap((source) => [
          [
            source.contentType,
            sql<string>`${cappedCount(source, bubleId$, userId$, sql`${memberships.joinedVersion}`)}`,
          ],
          [
            `${source.contentType}_mentioned`,
            sql<boolean>`${mentionedFlag(source.contentType, bubleId$, userId$, sql`${memberships.joinedVersion}`)}`,
          ],
        ]),
      ),
    )
    .from(memberships)
    .where(and(eq(memberships.bubleId, sql.placeholder('bubleId')), eq(memberships.userId, sql.placeholder('userId'))))
    .prepare('unread_counts')

  /** Counters of `userId` for the given (buble, content type) pairs; types nobody registered count 0. */
  async function countersOf(
    exec: Executor,
    userId: string,
    wanted: readonly { bubleId: string; contentType: ContentType }[],
  ): Promise<Map<string, UnreadCounter>> {
    const answer = new Map<string, UnreadCounter>()
    for (const { bubleId, contentType } of wanted)
      answer.set(counterKey(bubleId, contentType), { contentType, unreadCount: 0 })
    const queries: SQL[] = []
    for (const source of sources) {
      const bubles = [...new Set(wanted.filter((w) => w.contentType === source.contentType).map((w) => w.bubleId))]
      if (bubles.length > 0) queries.push(countQuery(source, userId, bubles))
    }
    if (queries.length === 0) return answer
    const rows = rowsOf<{ buble_id: string; content_type: ContentType; n: string | number; mentioned: boolean }>(
      await exec.execute(sql.join(queries, sql` union all `)),
    )
    for (const row of rows)
      answer.set(counterKey(row.buble_id, row.content_type), {
        contentType: row.content_type,
        unreadCount: Number(row.n),
        ...(row.mentioned === true ? { mentioned: true } : {}),
      })
    return answer
  }

  /**
   * Every content type's counter in one buble for each of `userIds` (a push to all its members), in
   * one statement; a user who is not a member is left out.
   */
  async function membersCounters(
    exec: Executor,
    bubleId: string,
    userIds: readonly string[],
  ): Promise<Map<string, Record<ContentType, number>>> {
    const answer = new Map<string, Record<ContentType, number>>()
    if (userIds.length === 0 || sources.length === 0) return answer
    const rows = rowsOf<{ user_id: string; content_type: ContentType; n: string | number }>(
      await exec.execute(
        sql.join(
          sources.map((source) => membersCountQuery(source, bubleId, userIds)),
          sql` union all `,
        ),
      ),
    )
    for (const row of rows) {
      let counts = answer.get(row.user_id)
      if (!counts) {
        counts = Object.fromEntries(CONTENT_TYPES.map((type) => [type, 0])) as Record<ContentType, number>
        answer.set(row.user_id, counts)
      }
      counts[row.content_type] = Number(row.n)
    }
    return answer
  }

  return {
    countersOf,
    membersCounters,

    async counts(user: UserRow, bubleId: string): Promise<UnreadCounter[]> {
      const key = `${user.id}:${bubleId}`
      const hit = cached.get(key)
      if (hit && !pokes.pokedSince(hit.since, [bubleId], user.id)) return hit.counters
      const since = pokes.mark()
      const [row] = (await oneBuble.execute({ bubleId, userId: user.id })) as Record<string, string | boolean>[]
      if (!row) throw bubleNotFound()
      const counters: UnreadCounter[] = CONTENT_TYPES.map((contentType) => ({
        contentType,
        unreadCount: Number(row[contentType] ?? 0),
        ...(row[`${contentType}_mentioned`] === true ? { mentioned: true as const } : {}),
      }))
      if (pokes.listening()) {
        cached.delete(key)
        if (cached.size >= MAX_CACHED) cached.delete(cached.keys().next().value as string)
        cached.set(key, { counters, since })
      }
      return counters
    },

    close() {
      stopForgetting()
      cached.clear()
    },

    /** The member has read a tab: its counter starts again from now (REST and the `unread.read` mutation). */
    markRead(user: UserRow, bubleId: string, contentType: ContentType): Promise<void> {
      return syncWrite(db, async (w) => {
        await requireMembership(w.tx, bubleId, user.id)
        // Read up to now: everything that has settled (what any pull could have brought); what
        // commits later, even with a lower version, is still new (decision 91).
        await w.tx.execute(sql`insert into unread_marks (user_id, buble_id, content_type, read_at, read_version)
          values (${user.id}, ${bubleId}, ${contentType}, ${now()}, ${SETTLED_VERSION})
          on conflict (user_id, buble_id, content_type)
          do update set read_at = excluded.read_at, read_version = greatest(unread_marks.read_version, excluded.read_version),
            version = ${NEXT_VERSION}`)
        // The reader's other devices clear the counter too.
        w.userChanged(user.id, bubleId, 'unread')
      })
    },
  }
}
