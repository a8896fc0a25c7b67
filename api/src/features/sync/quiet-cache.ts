/**
 * Remembers, per user, a cursor the database last found up to date, so the same pull again (the
 * most common request: every device, on every poke, focus and timer) answers without a query.
 * Any poke this process hears for one of the user's bubles, or for the user, forgets it: its own
 * commits at once, other processes' through NOTIFY. While the listening connection is down, nothing
 * is remembered. A pull racing a NOTIFY still in flight may answer "nothing new" a few
 * milliseconds early; that same poke then makes the device pull again.
 */

import type { QuietCache } from '@buble/sync/server/pull'
import type { ChangeBus } from '../../lib/change-bus.ts'
import { onCommitted, type Poke } from '../../lib/sync-writes.ts'

const MAX_USERS = 50_000

interface Entry {
  cursor: string
  bubles: readonly string[]
  /** The poke count when the database was asked. */
  since: number
}

export function createQuietCache(bus: ChangeBus): QuietCache & { close(): void } {
  let count = 0
  let listening = true
  const bublePoked = new Map<string, number>()
  const userPoked = new Map<string, number>()
  const entries = new Map<string, Entry>()

  const hear = (poke: Poke) => {
    count += 1
    if (poke.user_id) userPoked.set(poke.user_id, count)
    else bublePoked.set(poke.buble_id, count)
  }
  const forgetAll = () => {
    count += 1
    entries.clear()
    bublePoked.clear()
    userPoked.clear()
  }
  const unsubscribe = bus.subscribe((event) => {
    if ('lost' in event) {
      listening = false
      forgetAll()
    } else if ('resync' in event) {
      listening = true
      forgetAll()
    } else hear(event)
  })
  const stopLocal = onCommitted((pokes) => {
    for (const poke of pokes) hear(poke)
  })

  return {
    isQuiet(userId, cursor) {
      const entry = entries.get(userId)
      if (!listening || !entry || entry.cursor !== cursor) return false
      if ((userPoked.get(userId) ?? 0) > entry.since) return false
      return entry.bubles.every((id) => (bublePoked.get(id) ?? 0) <= entry.since)
    },
    begin: () => count,
    quiet(userId, cursor, bubles, since) {
      if (!listening) return
      // Oldest out first: a Map keeps insertion order.
      entries.delete(userId)
      if (entries.size >= MAX_USERS) entries.delete(entries.keys().next().value as string)
      entries.set(userId, { cursor, bubles, since })
    },
    close() {
      unsubscribe()
      stopLocal()
      entries.clear()
    },
  }
}
