/**
 * The events and polls lists of a buble, kept in memory per process as the bytes of the answer
 * until a poke for the buble (lib/poke-cache.ts). An events list is the same for every member: one
 * copy per buble, and whether the caller belongs is remembered per caller and buble. A polls list
 * carries the caller's own vote: one copy per caller and buble, bounded in bytes.
 */

import { sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { answerBytes, type JsonAnswer, jsonAnswer } from '../../lib/json-answers.ts'
import { bubleNotFound, findMembership } from '../../lib/memberships.ts'
import { createPokeCache } from '../../lib/poke-cache.ts'
import type { PokeClock } from '../../lib/poke-clock.ts'
import { eventListJson, pollListJson } from './queries.ts'

const MiB = 1024 * 1024

export type ContentLists = ReturnType<typeof contentLists>

export function contentLists(db: Db, pokes: PokeClock) {
  const members = createPokeCache<true>(pokes, { maxEntries: 50_000 })
  const eventLists = createPokeCache<JsonAnswer>(pokes, { maxEntries: 2_000, maxBytes: 64 * MiB, sizeOf: answerBytes })
  const pollLists = createPokeCache<JsonAnswer>(pokes, { maxEntries: 20_000, maxBytes: 64 * MiB, sizeOf: answerBytes })

  // One statement builds a whole list. The polls statement is also the membership check (no
  // row: not a member); events, the same for every member, are read apart from it.
  const bubleId$ = sql`${sql.placeholder('bubleId')}::uuid`
  const userId$ = sql`${sql.placeholder('userId')}::uuid`
  const eventsStatement = db
    .select({ json: sql<string>`${eventListJson(sql`b.id`)}` })
    .from(sql`bubles b`)
    .where(sql`b.id = ${bubleId$}`)
    .prepare('events_list')
  const pollsStatement = db
    .select({ json: sql<string>`${pollListJson(sql`m.buble_id`, sql`m.user_id`)}` })
    .from(sql`memberships m`)
    .where(sql`m.buble_id = ${bubleId$} and m.user_id = ${userId$}`)
    .prepare('polls_list')

  return {
    /** `Event[]` of a buble, soonest first, as the kept answer; 404 for a non-member. */
    async events(userId: string, bubleId: string): Promise<JsonAnswer> {
      await members.getOrLoad(`${userId}:${bubleId}`, bubleId, userId, async () => {
        if (!(await findMembership(db, bubleId, userId))) throw bubleNotFound()
        return true
      })
      return eventLists.getOrLoad(bubleId, bubleId, undefined, async () => {
        const [row] = await eventsStatement.execute({ bubleId })
        if (!row) throw bubleNotFound()
        return jsonAnswer(row.json)
      })
    },

    /** `Poll[]` of a buble as `userId` sees it, newest first, as the kept answer; 404 for a non-member. */
    polls(userId: string, bubleId: string): Promise<JsonAnswer> {
      return pollLists.getOrLoad(`${userId}:${bubleId}`, bubleId, userId, async () => {
        const [row] = await pollsStatement.execute({ bubleId, userId })
        if (!row) throw bubleNotFound()
        return jsonAnswer(row.json)
      })
    },

    close(): void {
      members.close()
      eventLists.close()
      pollLists.close()
    },
  }
}
