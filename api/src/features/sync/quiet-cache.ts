/**
 * Remembers, per user, a cursor the database last found up to date, so the same pull again (the
 * most common request: every device, on every poke, focus and timer) answers without a query.
 * Any poke this process hears for one of the user's bubles, or for the user, forgets it (see
 * lib/poke-clock.ts); while the listening connection is down nothing is trusted. A pull racing a
 * NOTIFY still in flight may answer "nothing new" a few milliseconds early; that same poke then
 * makes the device pull again.
 */

import type { QuietCache } from '@buble/sync/server/pull'
import type { PokeClock } from '../../lib/poke-clock.ts'

const MAX_USERS = 50_000

interface Entry {
  cursor: string
  bubles: readonly string[]
  /** The clock's mark when the database was asked. */
  since: number
}

export function createQuietCache(clock: PokeClock): QuietCache & { close(): void } {
  const entries = new Map<string, Entry>()
  const stopForgetting = clock.onForget(() => entries.clear())
  return {
    isQuiet(userId, cursor) {
      const entry = entries.get(userId)
      return !!entry && entry.cursor === cursor && !clock.pokedSince(entry.since, entry.bubles, userId)
    },
    begin: () => clock.mark(),
    quiet(userId, cursor, bubles, since) {
      if (!clock.listening()) return
      // Oldest out first: a Map keeps insertion order.
      entries.delete(userId)
      if (entries.size >= MAX_USERS) entries.delete(entries.keys().next().value as string)
      entries.set(userId, { cursor, bubles, since })
    },
    close() {
      stopForgetting()
      entries.clear()
    },
  }
}
