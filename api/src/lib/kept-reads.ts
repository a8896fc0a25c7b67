/**
 * Reads kept in memory per process until what they read changes: each entry depends on one named
 * set of tables (its "list"), and NOTIFY from statement triggers (any process, any code path, plain
 * SQL) drops the lists that read the changed table. While changes may go unheard (LISTEN not yet in
 * place, or its connection lost) nothing is kept or answered from memory. The admin lists (decision
 * 48) and Web Push audiences (decision 54) use it.
 */

import type { Database } from '../db/client.ts'
import type { Logger } from './log.ts'

/** What a load answers: the value, its size, and when it stops being true by itself (ms), if it does. */
export interface Loaded<V> {
  value: V
  bytes: number
  until?: number
}

export interface ListCacheOptions {
  maxEntries: number
  maxBytes: number
  /** The safety net: an entry older than this is read again even if no change was heard. */
  maxAgeMs: number
  /** Milliseconds now (the app's clock, which tests move). */
  now: () => number
}

interface Entry<V> {
  value: V
  list: string
  since: number
  until: number
  bytes: number
}

export type ListCache<L extends string, V> = ReturnType<typeof createListCache<L, V>>

export function createListCache<L extends string, V>({ maxEntries, maxBytes, maxAgeMs, now }: ListCacheOptions) {
  const entries = new Map<string, Entry<V>>()
  const loading = new Map<string, { since: number; pending: Promise<V> }>()
  // A count of changes heard; a read remembers the count before it started and holds while no
  // change to its list (or a forgetting of everything) came after.
  let count = 0
  let forgotAt = 0
  const changedAt = new Map<string, number>()
  let listening = false
  let bytes = 0

  const stale = (list: string, since: number) => forgotAt > since || (changedAt.get(list) ?? 0) > since
  const drop = (key: string) => {
    const entry = entries.get(key)
    if (!entry) return
    bytes -= entry.bytes
    entries.delete(key)
  }
  const forgetAll = () => {
    forgotAt = ++count
    entries.clear()
    bytes = 0
  }

  function keep(key: string, list: string, since: number, startedAt: number, loaded: Loaded<V>): void {
    // Not listening, or changed while it was read: it may already be stale.
    if (!listening || stale(list, since) || loaded.bytes > maxBytes) return
    drop(key)
    // Oldest first: Map keeps insertion order.
    while (entries.size >= maxEntries || bytes + loaded.bytes > maxBytes) drop(entries.keys().next().value as string)
    // Aged from when the read began: what it saw is at least that old.
    const until = Math.min(startedAt + maxAgeMs, loaded.until ?? Infinity)
    entries.set(key, { value: loaded.value, list, since, until, bytes: loaded.bytes })
    bytes += loaded.bytes
  }

  return {
    /**
     * The kept answer of `key` (a page of `list`), else the one `load` reads. Requests for one key
     * at once share a read, unless a change came after that read started.
     */
    async getOrLoad(key: string, list: L, load: () => Promise<Loaded<V>>): Promise<V> {
      if (!listening) return (await load()).value
      const entry = entries.get(key)
      if (entry && now() < entry.until && !stale(list, entry.since)) return entry.value
      if (entry) drop(key)
      const shared = loading.get(key)
      if (shared && !stale(list, shared.since)) return shared.pending
      const since = count
      const startedAt = now()
      const pending = load().then((loaded) => {
        keep(key, list, since, startedAt, loaded)
        return loaded.value
      })
      const mine = { since, pending }
      loading.set(key, mine)
      // Failures are answered to their callers and never kept.
      void pending.then(
        () => loading.get(key) === mine && loading.delete(key),
        () => loading.get(key) === mine && loading.delete(key),
      )
      return pending
    },

    /** These lists may have changed: their kept pages go, and reads already under way are not kept. */
    changed(lists: Iterable<string>): void {
      const at = ++count
      const dropped = new Set<string>()
      for (const list of lists) {
        changedAt.set(list, at)
        dropped.add(list)
      }
      for (const [key, entry] of entries) if (dropped.has(entry.list)) drop(key)
    },

    /** Whether changes are heard; either way everything kept so far goes (some may have been missed). */
    setListening(on: boolean): void {
      listening = on
      forgetAll()
    },

    /** How many answers are kept (tests). */
    size: () => entries.size,

    close(): void {
      listening = false
      forgetAll()
    },
  }
}

/**
 * Feeds `cache` from NOTIFY on `channel`, whose payload names the changed table: `changed` answers
 * the lists to drop. Until LISTEN is in place, and whenever its connection is lost, the cache
 * answers nothing. `what` names the cache in the log. Answers the function that stops listening.
 */
export function listenForTableChanges(
  database: Database,
  channel: string,
  changed: (table: string) => Iterable<string>,
  cache: Pick<ListCache<string, unknown>, 'changed' | 'setListening'>,
  log: Logger,
  what: string,
): () => Promise<void> {
  let stopped = false
  const unlisten = database.listen(
    channel,
    (table) => cache.changed(changed(table)),
    () => {
      if (stopped) return
      log.warn(`${what} listener reconnected; kept reads forgotten`)
      cache.setListening(true)
    },
    () => {
      log.warn(`${what} listener lost its connection; read from the database meanwhile`)
      cache.setListening(false)
    },
  )
  unlisten.then(
    () => !stopped && cache.setListening(true),
    (err) => log.error(`${what} listener failed to start; read from the database`, { err }),
  )
  return async () => {
    stopped = true
    cache.setListening(false)
    await unlisten.then((stop) => stop()).catch(() => {})
  }
}
