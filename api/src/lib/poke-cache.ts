/**
 * Answers kept in memory per process until a poke for their buble (or their user) says something
 * they were built from may have changed (lib/poke-clock.ts). Bounded by entries and by bytes: a big
 * list is hundreds of kilobytes, and one kept per member must not grow without end.
 */

import type { PokeClock } from './poke-clock.ts'

interface Entry<V> {
  value: V
  since: number
  bubleIds: readonly string[]
  userId: string | undefined
  bytes: number
}

/**
 * The bubles a kept value was read from: one, several (a user's list of bubles), or, when only the
 * read itself can say (the bubles it found), a function of the value read.
 */
export type BublesOf<V> = string | readonly string[] | ((value: V) => readonly string[])

interface Read<V> {
  since: number
  bubles: BublesOf<V>
  userId: string | undefined
  pending: Promise<V>
}

const listOf = (bubleIds: string | readonly string[]): readonly string[] =>
  typeof bubleIds === 'string' ? [bubleIds] : bubleIds

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
  const loading = new Map<string, Read<V>>()

  /** Whether a read begun earlier may still answer a caller asking now: nothing it reads was poked since it began. */
  function fresh(read: Read<V>): boolean {
    // Which bubles a read depends on may be known only once it is done: then any poke counts.
    if (typeof read.bubles === 'function') return pokes.listening() && pokes.mark() === read.since
    return !pokes.pokedSince(read.since, listOf(read.bubles), read.userId)
  }

  function get(key: string): V | undefined {
    const entry = entries.get(key)
    if (!entry) return undefined
    if (pokes.pokedSince(entry.since, entry.bubleIds, entry.userId)) {
      drop(key)
      return undefined
    }
    return entry.value
  }

  function set(key: string, value: V, since: number, bubles: string | readonly string[], userId?: string): void {
    const bubleIds = listOf(bubles)
    // Not listening, or changed while it was read: the value may already be stale.
    if (!pokes.listening() || pokes.pokedSince(since, bubleIds, userId)) return
    drop(key)
    const size = sizeOf?.(value) ?? 0
    if (size > maxBytes) return
    // Oldest first: Map keeps insertion order.
    while (entries.size >= maxEntries || bytes + size > maxBytes) drop(entries.keys().next().value as string)
    entries.set(key, { value, since, bubleIds, userId, bytes: size })
    bytes += size
  }

  return {
    /** The value kept under `key`, unless its buble (or user) was poked since it was read. */
    get,

    /**
     * Keeps a value read from the database after `since` (a mark taken before the read), for the
     * bubles it was read from and, when the value is one user's, `userId`.
     */
    set,

    /**
     * The kept value, else the one `load` reads. Callers asking for one key at once share a single
     * read: after a poke, a busy list is read once, not once per waiting request. A read begun
     * before a poke of what it reads is not shared with a caller who comes after that poke (who
     * may be the writer, reading their own change back): they start a read of their own.
     */
    getOrLoad(key: string, bubles: BublesOf<V>, userId: string | undefined, load: () => Promise<V>): Promise<V> {
      const kept = get(key)
      if (kept !== undefined) return Promise.resolve(kept)
      const shared = loading.get(key)
      if (shared && fresh(shared)) return shared.pending
      const since = pokes.mark()
      const pending = load().then((value) => {
        set(key, value, since, typeof bubles === 'function' ? bubles(value) : bubles, userId)
        return value
      })
      const read = { since, bubles, userId, pending }
      loading.set(key, read)
      // Failures are answered to their callers and never kept; a later read under the key stays.
      const done = () => loading.get(key) === read && loading.delete(key)
      pending.then(done, done)
      return pending
    },

    /** How many values are kept, and their size by `sizeOf` (tests, and the bound's own check). */
    size: () => ({ entries: entries.size, bytes }),

    close(): void {
      stopForgetting()
      clear()
    },
  }
}
