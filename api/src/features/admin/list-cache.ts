/**
 * The admin lists' pages kept in memory per process (issue 12): counting a search's matches costs
 * PostgreSQL tens of milliseconds, so a page is read once and answered from here until a table its
 * list reads changes (NOTIFY from the triggers of migration 0008: any process, any code, plain SQL
 * too), an admin write here returns, or it grows old. While changes may go unheard it answers nothing.
 */

import type { Database } from '../../db/client.ts'
import type { Deps } from '../../deps.ts'
import type { JsonAnswer } from '../../lib/json-answers.ts'
import type { Logger } from '../../lib/log.ts'
import type { ListName } from './queries.ts'

/** The channel the triggers of migration 0008 notify, with the changed table's name as payload. */
export const ADMIN_LIST_CHANNEL = 'buble_admin'

export const LIST_NAMES: readonly ListName[] = ['users', 'bubles', 'events', 'polls', 'posts', 'invites', 'audit']

/** Which lists read each table (their FROM clause, row JSON and search in queries.ts); 0008 notifies each. */
export const LISTS_OF_TABLE: Readonly<Record<string, readonly ListName[]>> = {
  users: ['users', 'bubles', 'events', 'polls', 'posts', 'invites'],
  memberships: ['users', 'bubles'],
  bubles: ['bubles', 'events', 'polls', 'posts', 'invites'],
  posts: ['posts'],
  events: ['events'],
  event_rsvps: ['events'],
  polls: ['polls'],
  poll_options: ['polls'],
  invites: ['invites'],
  admin_audit: ['audit'],
}

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
 * Feeds `cache` from the triggers' NOTIFY: a changed table drops the lists that read it. Until
 * LISTEN is in place, and whenever its connection is lost, the cache answers nothing. Answers the
 * function that stops listening.
 */
export function listenForListChanges(
  database: Database,
  cache: Pick<ListCache<ListName, unknown>, 'changed' | 'setListening'>,
  log: Logger,
): () => Promise<void> {
  let stopped = false
  const unlisten = database.listen(
    ADMIN_LIST_CHANNEL,
    // A table this code does not know: every list, to be safe.
    (table) => cache.changed(LISTS_OF_TABLE[table] ?? LIST_NAMES),
    () => {
      if (stopped) return
      log.warn('admin list listener reconnected; kept lists forgotten')
      cache.setListening(true)
    },
    () => {
      log.warn('admin list listener lost its connection; lists read from the database meanwhile')
      cache.setListening(false)
    },
  )
  unlisten.then(
    () => !stopped && cache.setListening(true),
    (err) => log.error('admin list listener failed to start; lists read from the database', { err }),
  )
  return async () => {
    stopped = true
    cache.setListening(false)
    await unlisten.then((stop) => stop()).catch(() => {})
  }
}

const MiB = 1024 * 1024

export type AdminListCache = ReturnType<typeof adminListCache>

/** The admin lists' answers as bytes (a page is at most 100 rows), listening from the start; `close` stops it. */
export function adminListCache({ database, log, now }: Pick<Deps, 'database' | 'log' | 'now'>) {
  const cache = createListCache<ListName, JsonAnswer>({
    maxEntries: 2_000,
    maxBytes: 32 * MiB,
    maxAgeMs: 60_000,
    now: () => now().getTime(),
  })
  const stop = listenForListChanges(database, cache, log)
  return {
    getOrLoad: cache.getOrLoad,
    /** Every list may have changed (an admin write here returned: its answer must show at once). */
    forget: () => cache.changed(LIST_NAMES),
    size: cache.size,
    close: () => {
      cache.close()
      return stop()
    },
  }
}
