/**
 * The polls list of a buble, kept in memory per process as the bytes of the answer until a poke
 * for the buble (lib/poke-cache.ts). A polls list carries the caller's own vote: one copy per
 * caller and buble, bounded in bytes.
 */

import { sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { answerBytes, type JsonAnswer, jsonAnswer } from '../../lib/json-answers.ts'
import { bubleNotFound } from '../../lib/memberships.ts'
import { createPokeCache } from '../../lib/poke-cache.ts'
import type { PokeClock } from '../../lib/poke-clock.ts'
import { pollListJson } from './queries.ts'

const MiB = 1024 * 1024

export type PollLists = ReturnType<typeof pollLists>

export function pollLists(db: Db, pokes: PokeClock) {
  const lists = createPokeCache<JsonAnswer>(pokes, { maxEntries: 20_000, maxBytes: 64 * MiB, sizeOf: answerBytes })

  // One statement builds the list, and it is also the membership check (no row: not a member).
  const bubleId$ = sql`${sql.placeholder('bubleId')}::uuid`
  const userId$ = sql`${sql.placeholder('userId')}::uuid`
  const pollsStatement = db
    .select({ json: sql<string>`${pollListJson(sql`m.buble_id`, sql`m.user_id`)}` })
    .from(sql`memberships m`)
    .where(sql`m.buble_id = ${bubleId$} and m.user_id = ${userId$}`)
    .prepare('polls_list')

  return {
    /** `Poll[]` of a buble as `userId` sees it, newest first, as the kept answer; 404 for a non-member. */
    polls(userId: string, bubleId: string): Promise<JsonAnswer> {
      return lists.getOrLoad(`${userId}:${bubleId}`, bubleId, userId, async () => {
        const [row] = await pollsStatement.execute({ bubleId, userId })
        if (!row) throw bubleNotFound()
        return jsonAnswer(row.json)
      })
    },

    close(): void {
      lists.close()
    },
  }
}
