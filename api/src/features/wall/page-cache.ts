/**
 * Wall pages kept in memory per process, as PostgreSQL built them, until a poke for their buble
 * says something there changed (a post, comment, reaction or member: lib/poke-clock.ts). A page is
 * the same for every member, so one copy serves them all; whether the caller is a member is
 * remembered separately, per caller and buble, and forgotten on a poke for either.
 */

import type { PokeClock } from '../../lib/poke-clock.ts'

export interface CachedPage {
  json: string
  hasMore: boolean
  body: Uint8Array
}

const MAX_BUBLES = 2_000
const MAX_PAGES_PER_BUBLE = 50
const MAX_MEMBERSHIPS = 50_000

export function createPageCache(pokes: PokeClock) {
  const bubles = new Map<string, { since: number; pages: Map<string, CachedPage> }>()
  const members = new Map<string, number>()
  const stopForgetting = pokes.onForget(() => {
    bubles.clear()
    members.clear()
  })

  const evictOldest = (map: Map<string, unknown>, max: number) => {
    if (map.size >= max) map.delete(map.keys().next().value as string)
  }

  return {
    /** The page, if this caller is known to be a member and nothing in the buble changed since it was read. */
    get(userId: string, bubleId: string, skip: number, take: number): CachedPage | undefined {
      const memberSince = members.get(`${userId}:${bubleId}`)
      if (memberSince === undefined || pokes.pokedSince(memberSince, [bubleId], userId)) return undefined
      const entry = bubles.get(bubleId)
      if (!entry || pokes.pokedSince(entry.since, [bubleId])) return undefined
      return entry.pages.get(`${skip}:${take}`)
    },

    /** Stores a page read by a member after `since` (a mark taken before the read). */
    set(userId: string, bubleId: string, skip: number, take: number, page: CachedPage, since: number): void {
      // Not listening, or changed while it was read: the page may already be stale.
      if (!pokes.listening() || pokes.pokedSince(since, [bubleId], userId)) return
      const memberKey = `${userId}:${bubleId}`
      members.delete(memberKey)
      evictOldest(members, MAX_MEMBERSHIPS)
      members.set(memberKey, since)
      let entry = bubles.get(bubleId)
      if (!entry || pokes.pokedSince(entry.since, [bubleId])) {
        bubles.delete(bubleId)
        evictOldest(bubles, MAX_BUBLES)
        entry = { since, pages: new Map() }
        bubles.set(bubleId, entry)
      }
      evictOldest(entry.pages, MAX_PAGES_PER_BUBLE)
      entry.pages.set(`${skip}:${take}`, page)
    },

    close(): void {
      stopForgetting()
      bubles.clear()
      members.clear()
    },
  }
}
