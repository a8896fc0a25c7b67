/**
 * Answers kept in memory per process until a poke for their buble (or their user) says something
 * they were built from may have changed (lib/poke-clock.ts). Bounded by entries and by bytes: a big
 * list is hundreds of kilobytes, and one kept per member must not grow without end.
 */

import type { PokeClock } from './poke-clock.ts'

interface Entry<V> {
  value: V
  since: number
  bubleId: string
  userId: string | undefined
  bytes: number
}

export interface PokeCacheLimits<V> {
  maxEntries: number
  /** The total size kept, with `sizeOf` (default: no byte bound). */
  maxBytes?: number
  sizeOf?: (value: V) => number
}

export type PokeCache<V> = ReturnType<typeof createPokeCache<V>>

export function createPokeCache<V>(pokes: PokeClock, { maxEntries, maxBytes = Infinity, sizeOf }: PokeCacheLimits<V>) {
  const entries = new Map<string, Entry<V>>()
  let bytes = 0
  const drop = (key: string) => {
    const entry = entries.get(key)
    if (!entry) return
    bytes -= entry.bytes
    entries.delete(key)
  }
  const clear = () => {
    entries.clear()
    bytes = 0
  }
  const stopForgetting = pokes.onForget(clear)
  const loading = new Map<string, Promise<V>>()

  function get(key: string): V | undefined {
    const entry = entries.get(key)
    if (!entry) return undefined
    if (pokes.pokedSince(entry.since, [entry.bubleId], entry.userId)) {
      drop(key)
      return undefined
    }
    return entry.value
  }

  function set(key: string, value: V, since: number, bubleId: string, userId?: string): void {
    // Not listening, or changed while it was read: the value may already be stale.
    if (!pokes.listening() || pokes.pokedSince(since, [bubleId], userId)) return
    drop(key)
    const size = sizeOf?.(value) ?? 0
    if (size > maxBytes) return
    // Oldest first: Map keeps insertion order.
    while (entries.size >= maxEntries || bytes + size > maxBytes) drop(entries.keys().next().value as string)
    entries.set(key, { value, since, bubleId, userId, bytes: size })
    bytes += size
  }

  return {
    /** The value kept under `key`, unless its buble (or user) was poked since it was read. */
    get,

    /**
     * Keeps a value read from the database after `since` (a mark taken before the read), for
     * `bubleId` and, when the value is one user's, `userId`.
     */
    set,

    /**
     * The kept value, else the one `load` reads. Callers asking for one key at once share a single
     * read: after a poke, a busy list is read once, not once per waiting request.
     */
    getOrLoad(key: string, bubleId: string, userId: string | undefined, load: () => Promise<V>): Promise<V> {
      const kept = get(key)
      if (kept !== undefined) return Promise.resolve(kept)
      let pending = loading.get(key)
      if (!pending) {
        const since = pokes.mark()
        pending = load()
          .then((value) => {
            set(key, value, since, bubleId, userId)
            return value
          })
          .finally(() => loading.delete(key))
        loading.set(key, pending)
      }
      return pending
    },

    close(): void {
      stopForgetting()
      clear()
    },
  }
}
