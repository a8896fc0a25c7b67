/** Sync (CONTRACT §5): push through the same services REST uses, pull from every feature's synced tables. */

import type { PullQuery } from '@buble/sync/protocol'
import { pull } from '@buble/sync/server/pull'
import type { Db } from '../../db/client.ts'
import type { UserRow } from '../../lib/accounts.ts'
import type { Logger } from '../../lib/log.ts'
import type { PokeClock } from '../../lib/poke-clock.ts'
import type { MutationBatchers, MutationHandlers, SyncSource, UnreadSource } from '../../lib/sync-sources.ts'
import { createPushHandler, type PushHooks } from './push.ts'
import { createQuietCache } from './quiet-cache.ts'
import { createSettleWatch } from './settle-watch.ts'
import { createPullStore } from './store.ts'

export type SyncService = ReturnType<typeof syncService>

export function syncService(
  { db, log, pokes }: { db: Db; log: Logger; pokes: PokeClock },
  sources: readonly SyncSource[],
  unreadSources: readonly UnreadSource[],
  handlers: MutationHandlers,
  batchers: MutationBatchers,
  hooks: PushHooks = {},
) {
  const watch = createSettleWatch(db, log)
  const store = createPullStore(db, sources, unreadSources, watch)
  const quietCache = createQuietCache(pokes)
  return {
    push: createPushHandler(db, log, handlers, batchers, hooks),
    pull: (user: UserRow, query: PullQuery) => pull(store, user.id, query, quietCache),
    close: () => {
      quietCache.close()
      watch.close()
    },
  }
}
