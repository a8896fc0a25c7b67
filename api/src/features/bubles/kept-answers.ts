/**
 * The answers of `GET /api/bubles` and `GET /api/bubles/:idOrSlug`, kept per process as the JSON
 * bytes sent, until a poke for one of their bubles, or for the viewer, says something they were
 * read from may have changed (lib/poke-cache.ts; the member lists and wall pages do the same).
 *
 * Every screen of the app asks for them, and each read took four round trips to the database
 * (the account, the viewer's buble ids, the bubles with their owners, the members) and drizzle
 * building each statement again: 12 times what the profile costs. What they show changes only by
 * writes that poke the buble: a rename, its tools, a join, a leave, a role, a member's new name or
 * avatar (the profile step pokes every buble of the member); a join or a leave also pokes the
 * viewer. A kept answer is one viewer's (their role and permissions are in it); bounded by count
 * and bytes, oldest out first.
 */

import type { Buble } from '@buble/shared/bubles'
import type { Db } from '../../db/client.ts'
import { createPokeCache } from '../../lib/poke-cache.ts'
import type { PokeClock } from '../../lib/poke-clock.ts'
import { bubleIdsOf, loadBuble, loadBubles, requireBubleFor } from './queries.ts'

const MiB = 1024 * 1024

export const KEPT_ANSWER_LIMITS = { maxEntries: 20_000, maxBytes: 32 * MiB }

export interface KeptAnswer {
  /** The JSON as sent. */
  body: Uint8Array<ArrayBuffer>
  /** The bubles it was read from: a poke for any of them forgets it. */
  bubleIds: readonly string[]
}

const encoder = new TextEncoder()
const answer = (value: Buble | Buble[], bubleIds: readonly string[]): KeptAnswer => ({
  body: encoder.encode(JSON.stringify(value)) as Uint8Array<ArrayBuffer>,
  bubleIds,
})

export type KeptBubleAnswers = ReturnType<typeof createKeptBubleAnswers>

export function createKeptBubleAnswers(db: Db, pokes: PokeClock, limits = KEPT_ANSWER_LIMITS) {
  const kept = createPokeCache<KeptAnswer>(pokes, { ...limits, sizeOf: (value) => value.body.byteLength })
  const bublesOf = (value: KeptAnswer) => value.bubleIds
  return {
    /** The viewer's bubles, newest first: `bubles.list` as bytes. */
    list(viewerId: string): Promise<KeptAnswer> {
      return kept.getOrLoad(`list:${viewerId}`, bublesOf, viewerId, async () => {
        const ids = await bubleIdsOf(db, viewerId)
        return answer(await loadBubles(db, ids, viewerId), ids)
      })
    },

    /** One of the viewer's bubles by id or slug: `bubles.get` as bytes; a 404 is never kept. */
    one(viewerId: string, idOrSlug: string): Promise<KeptAnswer> {
      // Ids and slugs are compared without case (a UUID's hex, a slug stored in lower case).
      return kept.getOrLoad(`one:${viewerId}:${idOrSlug.toLowerCase()}`, bublesOf, viewerId, async () => {
        const row = await requireBubleFor(db, idOrSlug, viewerId)
        return answer(await loadBuble(db, row.id, viewerId), [row.id])
      })
    },

    size: () => kept.size(),
    close: () => kept.close(),
  }
}
