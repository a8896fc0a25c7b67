/**
 * The events list of a buble, kept in memory per process as the bytes of the answer until a poke
 * for the buble (lib/poke-cache.ts). An events list is the same for every member: one copy per
 * buble, and whether the caller belongs is remembered per caller and buble.
 */

import { sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { answerBytes, type JsonAnswer, jsonAnswer } from '../../lib/json-answers.ts'
import { bubleNotFound, findMembership } from '../../lib/memberships.ts'
import { createPokeCache } from '../../lib/poke-cache.ts'
import type { PokeClock } from '../../lib/poke-clock.ts'
import { eventListJson } from './queries.ts'

const MiB = 1024 * 1024

export type EventLists = ReturnType<typeof eventLists>

export function eventLists(db: Db, pokes: PokeClock) {
  const members = createPokeCache<true>(pokes, { maxEntries: 50_000 })
  const lists = createPokeCache<JsonAnswer>(pokes, { maxEntries: 2_000, maxBytes: 64 * MiB, sizeOf: answerBytes })

  // One statement builds the whole list; events, the same for every member, are read apart from
  // the membership check.
  const bubleId$ = sql`${sql.placeholder('bubleId')}::uuid`
  const eventsStatement = db
    .select({ json: sql<string>`${eventListJson(sql`b.id`)}` })
    .from(sql`bubles b`)
    .where(sql`b.id = ${bubleId$}`)
    .prepare('events_list')

  return {
    /** `Event[]` of a buble, soonest first, as the kept answer; 404 for a non-member. */
    async events(userId: string, bubleId: string): Promise<JsonAnswer> {
      await members.getOrLoad(`${userId}:${bubleId}`, bubleId, userId, async () => {
        if (!(await findMembership(db, bubleId, userId))) throw bubleNotFound()
        return true
      })
      return lists.getOrLoad(bubleId, bubleId, undefined, async () => {
        const [row] = await eventsStatement.execute({ bubleId })
        if (!row) throw bubleNotFound()
        return jsonAnswer(row.json)
      })
    },

    close(): void {
      members.close()
      lists.close()
    },
  }
}
