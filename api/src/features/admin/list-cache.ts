/**
 * The admin lists' pages kept in memory per process (issue 12): counting a search's matches costs
 * PostgreSQL tens of milliseconds, so a page is read once and answered from here until a table its
 * list reads changes (NOTIFY from the triggers of migration 0008: any process, any code, plain SQL
 * too), an admin write here returns, or it grows old. While changes may go unheard it answers nothing.
 */

import type { Database } from '../../db/client.ts'
import type { Deps } from '../../deps.ts'
import type { JsonAnswer } from '../../lib/json-answers.ts'
import { createListCache, type ListCache, listenForTableChanges } from '../../lib/kept-reads.ts'
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
  // A table this code does not know: every list, to be safe.
  return listenForTableChanges(
    database,
    ADMIN_LIST_CHANNEL,
    (table) => LISTS_OF_TABLE[table] ?? LIST_NAMES,
    cache,
    log,
    'admin list',
  )
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
