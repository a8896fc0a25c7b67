/**
 * Polls in their answer shape (CONTRACT §3.3), built by PostgreSQL: a list with every option and
 * the caller's choices is one statement, never a query per row. Totals are left out (null) while a
 * poll hides its results and is not closed; a secret poll's answer never names a choice
 * (docs/decisions/0098).
 */

import type { Poll, PollOption } from '@buble/shared/polls'
import { type SQL, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { isoJson, jsonObject, memberRefJson, rowsOf } from '../../lib/sql-json.ts'
import { pgUuidArray } from '../../lib/sync-writes.ts'

/** Whether poll `p`'s totals may be sent: it shows them all along, or it is closed. */
const SHOWN = '(not p.hide_results or p.closed)'

/** The JSON of poll `p` made by `u`, with `v` the caller's choices and `r` their secret-ballot mark (lateral joins). */
export const POLL_JSON = jsonObject<Poll>({
  id: 'p.id',
  buble_id: 'p.buble_id',
  question: 'p.question',
  options: `coalesce((select json_agg(${jsonObject<PollOption>({
    id: 'o.id',
    option_text: 'o.option_text',
    votes_count: `case when ${SHOWN} then o.votes_count end`,
  })}
      order by o.position)
    from poll_options o where o.poll_id = p.id), '[]'::json)`,
  totalVotes: `case when ${SHOWN} then p.total_votes end`,
  votersCount: 'p.voters_count',
  userVote: 'v.ids->>0',
  userVotes: 'v.ids',
  hasVoted: '(json_array_length(v.ids) > 0 or r.user_id is not null)',
  closes_at: `case when p.closes_at is not null then ${isoJson('p.closes_at')} end`,
  closed: 'p.closed',
  multiple: 'p.multiple',
  hide_results: 'p.hide_results',
  secret: 'p.secret',
  created_at: isoJson('p.created_at'),
  creator: memberRefJson('u'),
  creator_id: 'p.creator_id',
})

/** The joins POLL_JSON reads for the caller `userId` (after `polls p join users u`). */
const callerJoins = (
  userId: SQL,
) => sql`left join lateral (select coalesce(json_agg(cv.option_id order by co.position), '[]'::json) as ids
      from poll_votes cv join poll_options co on co.id = cv.option_id
      where cv.poll_id = p.id and cv.user_id = ${userId}) v on true
    left join poll_voters r on r.poll_id = p.id and r.user_id = ${userId}`

/** Every poll of buble `bubleId` as `userId` sees it, newest first, as one JSON text. */
export const pollListJson = (bubleId: SQL, userId: SQL) => sql`(select coalesce(json_agg(x.data
    order by x.created_at desc, x.added_version desc), '[]'::json)::text
  from (select p.created_at, p.added_version, ${sql.raw(POLL_JSON)} as data
    from polls p join users u on u.id = p.creator_id
    ${callerJoins(userId)}
    where p.buble_id = ${bubleId}) x)`

/** Polls by id as `userId` sees them (their own choices in `userVotes`, never in a secret poll). */
export async function loadPolls(db: Executor, ids: readonly string[], userId: string): Promise<Map<string, Poll>> {
  if (ids.length === 0) return new Map()
  const rows = rowsOf<{ data: Poll }>(
    await db.execute(sql`select ${sql.raw(POLL_JSON)} as data from polls p join users u on u.id = p.creator_id
      ${callerJoins(sql`${userId}::uuid`)}
      where p.id = any(${pgUuidArray(ids)})`),
  )
  return new Map(rows.map(({ data }) => [data.id, data]))
}

export async function loadPoll(db: Executor, id: string, userId: string): Promise<Poll> {
  const poll = (await loadPolls(db, [id], userId)).get(id)
  if (!poll) throw new Error(`poll ${id} vanished`)
  return poll
}
