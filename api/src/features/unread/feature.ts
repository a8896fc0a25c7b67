import { Hono } from 'hono'
import type { Deps } from '../../deps.ts'
import type { AppEnv } from '../../lib/auth.ts'
import { defineFeature } from '../../lib/feature.ts'
import type { PokeClock } from '../../lib/poke-clock.ts'
import type { UnreadSource } from '../../lib/sync-sources.ts'
import { unreadRoutes } from './routes.ts'
import { unreadService } from './service.ts'
import { unreadMutations, unreadSyncSource } from './sync.ts'

/** The unread counters of every tab, counting what the other features' `sources` name. */
export function unreadFeature(deps: Deps, sources: readonly UnreadSource[], pokes: PokeClock) {
  const unread = unreadService(deps, sources, pokes)
  return defineFeature({
    service: unread,
    routes: new Hono<AppEnv>().route('/unread', unreadRoutes(unread)),
    mutations: unreadMutations(unread),
    syncSources: [unreadSyncSource(unread)],
    close: () => unread.close(),
  })
}
