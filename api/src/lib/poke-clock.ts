/**
 * What a per-process cache needs to know about changes: a count of every poke this process has
 * heard (its own commits at once, other processes' through NOTIFY), when each buble and each user
 * was last poked, and whether pokes can be trusted at all (the listening connection may be down).
 * A cache remembers `mark()` taken before it read the database; its entry holds while nothing it
 * depends on was poked after that mark.
 */

import type { ChangeBus } from './change-bus.ts'
import { onCommitted, type Poke } from './sync-writes.ts'

export interface PokeClock {
  /** A mark to take before reading the database: changes from then on still count. */
  mark(): number
  /** Whether pokes are heard now (false while the listening connection is down). */
  listening(): boolean
  /** Whether one of these bubles, or this user, was poked after `since`. */
  pokedSince(since: number, bubleIds: Iterable<string>, userId?: string): boolean
  /** Runs when everything must be forgotten (pokes were or may be missed). */
  onForget(listener: () => void): () => void
  close(): void
}

export function createPokeClock(bus: ChangeBus): PokeClock {
  let count = 0
  let listening = true
  const bublePoked = new Map<string, number>()
  const userPoked = new Map<string, number>()
  const forgetListeners = new Set<() => void>()

  const hear = (poke: Poke) => {
    count += 1
    if (poke.user_id) userPoked.set(poke.user_id, count)
    // A user-scoped poke names a buble too (joined, left, deleted): that buble changed for everyone.
    bublePoked.set(poke.buble_id, count)
  }
  const forgetAll = () => {
    count += 1
    bublePoked.clear()
    userPoked.clear()
    for (const listener of forgetListeners) listener()
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
    mark: () => count,
    listening: () => listening,
    pokedSince(since, bubleIds, userId) {
      if (!listening) return true
      if (userId !== undefined && (userPoked.get(userId) ?? 0) > since) return true
      for (const id of bubleIds) if ((bublePoked.get(id) ?? 0) > since) return true
      return false
    },
    onForget(listener) {
      forgetListeners.add(listener)
      return () => forgetListeners.delete(listener)
    },
    close() {
      unsubscribe()
      stopLocal()
      forgetListeners.clear()
    },
  }
}
