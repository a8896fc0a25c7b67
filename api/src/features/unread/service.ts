/**
 * Unread counters (CONTRACT §3.2, §6): for each tab of a buble, what others added since the member
 * last read it; a member who never read a tab counts from their join. "Since" is by version, which
 * never ties. Each registered content type is counted with one index range read per buble, stopped
 * at the cap.
 */

import { CONTENT_TYPES, type ContentType, UNREAD_CAP, type UnreadCounter } from '@buble/shared/unread'
import { type SQL, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import type { Deps } from '../../deps.ts'
import type { UserRow } from '../../lib/accounts.ts'
import { requireMembership } from '../../lib/memberships.ts'
import type { UnreadSource } from '../../lib/sync-sources.ts'
import { pgUuidArray, syncWrite } from '../../lib/sync-writes.ts'

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows

/** The change id of a counter: `<buble_id>:<contentType>`. */
export const counterKey = (bubleId: string, contentType: ContentType) => `${bubleId}:${contentType}`

/** One source's counts for a user in several bubles: what others added since the mark, at most the cap. */
function countQuery(source: UnreadSource, userId: string, bubleIds: readonly string[]): SQL {
  const row = sql.raw(
    `select 1 from ${source.table} x where x.${source.bubleColumn} = b.id ` +
      `and x.${source.addedColumn} > coalesce(m.read_version, me.joined_version) and x.${source.authorColumn} <> `,
  )
  return sql`select b.id as buble_id, ${source.contentType}::text as content_type,
      (select count(*) from (${row}${userId} limit ${sql.raw(String(UNREAD_CAP))}) capped) as n
    from unnest(${pgUuidArray(bubleIds)}) as b(id)
    join memberships me on me.buble_id = b.id and me.user_id = ${userId}
    left join unread_marks m on m.user_id = ${userId} and m.buble_id = b.id and m.content_type = ${source.contentType}`
}

export type UnreadService = ReturnType<typeof unreadService>

export function unreadService(deps: Deps, sources: readonly UnreadSource[]) {
  const { db, now } = deps

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
    const rows = rowsOf<{ buble_id: string; content_type: ContentType; n: string | number }>(
      await exec.execute(sql.join(queries, sql` union all `)),
    )
    for (const row of rows)
      answer.set(counterKey(row.buble_id, row.content_type), {
        contentType: row.content_type,
        unreadCount: Number(row.n),
      })
    return answer
  }

  return {
    countersOf,

    async counts(user: UserRow, bubleId: string): Promise<UnreadCounter[]> {
      await requireMembership(db, bubleId, user.id)
      const counters = await countersOf(
        db,
        user.id,
        CONTENT_TYPES.map((contentType) => ({ bubleId, contentType })),
      )
      return CONTENT_TYPES.map((contentType) => counters.get(counterKey(bubleId, contentType))!)
    },

    /** The member has read a tab: its counter starts again from now (REST and the `unread.read` mutation). */
    markRead(user: UserRow, bubleId: string, contentType: ContentType): Promise<void> {
      return syncWrite(db, async (w) => {
        await requireMembership(w.tx, bubleId, user.id)
        // Read up to now: everything added before this version (taken under the version lock).
        await w.tx.execute(sql`insert into unread_marks (user_id, buble_id, content_type, read_at, read_version)
          values (${user.id}, ${bubleId}, ${contentType}, ${now()}, nextval('sync_version'))
          on conflict (user_id, buble_id, content_type)
          do update set read_at = excluded.read_at, read_version = excluded.read_version, version = nextval('sync_version')`)
        // The reader's other devices clear the counter too.
        w.userChanged(user.id, bubleId, 'unread')
      })
    },
  }
}
