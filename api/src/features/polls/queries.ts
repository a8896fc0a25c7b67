/**
 * Polls in their answer shape (CONTRACT §3.3), built by PostgreSQL: a list with every option and
 * the caller's vote is one statement, never a query per row.
 */

import type { Poll, PollOption } from '@buble/shared/polls'
import { type SQL, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { isoJson, jsonObject, memberRefJson, rowsOf } from '../../lib/sql-json.ts'
import { pgUuidArray } from '../../lib/sync-writes.ts'

/** The JSON of poll `p` made by `u`, with `v` the caller's vote (left joined, may be null). */
export const POLL_JSON = jsonObject<Poll>({
  id: 'p.id',
  buble_id: 'p.buble_id',
  question: 'p.question',
  options: `coalesce((select json_agg(${jsonObject<PollOption>({ id: 'o.id', option_text: 'o.option_text', votes_count: 'o.votes_count' })}
      order by o.position)
    from poll_options o where o.poll_id = p.id), '[]'::json)`,
  totalVotes: 'p.total_votes',
  userVote: 'v.option_id',
  hasVoted: 'v.option_id is not null',
  created_at: isoJson('p.created_at'),
  creator: memberRefJson('u'),
  creator_id: 'p.creator_id',
})

/** Every poll of buble `bubleId` as `userId` sees it, newest first, as one JSON text. */
export const pollListJson = (bubleId: SQL, userId: SQL) => sql`(select coalesce(json_agg(x.data
    order by x.created_at desc, x.added_version desc), '[]'::json)::text
  from (select p.created_at, p.added_version, ${sql.raw(POLL_JSON)} as data
    from polls p join users u on u.id = p.creator_id
    left join poll_votes v on v.poll_id = p.id and v.user_id = ${userId}
    where p.buble_id = ${bubleId}) x)`

/** Polls by id as `userId` sees them (their own vote in `userVote`). */
export async function loadPolls(db: Executor, ids: readonly string[], userId: string): Promise<Map<string, Poll>> {
  if (ids.length === 0) return new Map()
  const rows = rowsOf<{ data: Poll }>(
    await db.execute(sql`select ${sql.raw(POLL_JSON)} as data from polls p join users u on u.id = p.creator_id
      left join poll_votes v on v.poll_id = p.id and v.user_id = ${userId}
      where p.id = any(${pgUuidArray(ids)})`),
  )
  return new Map(rows.map(({ data }) => [data.id, data]))
}

export async function loadPoll(db: Executor, id: string, userId: string): Promise<Poll> {
  const poll = (await loadPolls(db, [id], userId)).get(id)
  if (!poll) throw new Error(`poll ${id} vanished`)
  return poll
}
