import { Hono } from 'hono'
import type { Deps } from '../../deps.ts'
import type { AppEnv, Authenticate } from '../../lib/auth.ts'
import { defineFeature } from '../../lib/feature.ts'
import { describe } from '../../lib/openapi.ts'
import type { PokeClock } from '../../lib/poke-clock.ts'
import type { MutationBatchers, MutationHandlers, SyncSource, UnreadSource } from '../../lib/sync-sources.ts'
import { syncMaintenanceJob } from './maintenance.ts'
import type { PushHooks } from './push.ts'
import { syncRoutes } from './routes.ts'
import { syncService } from './service.ts'
import { streamHandler } from './stream.ts'

/** What the other features put into sync, folded by app.ts. */
export interface SyncParts {
  syncSources: readonly SyncSource[]
  unreadSources: readonly UnreadSource[]
  mutations: MutationHandlers
  batchers: MutationBatchers
}

export interface SyncOptions {
  pushHooks?: PushHooks | undefined
  /** How often a live stream sends a keep-alive and checks its token again (default 25 s). */
  streamHeartbeatMs?: number | undefined
}

/** Push, pull and the live stream (CONTRACT §5) over the other features' parts. */
export function syncFeature(
  deps: Deps,
  { pokes, authenticate }: { pokes: PokeClock; authenticate: Authenticate },
  parts: SyncParts,
  options: SyncOptions,
) {
  const sync = syncService(
    { db: deps.db, log: deps.log, pokes },
    parts.syncSources,
    parts.unreadSources,
    parts.mutations,
    parts.batchers,
    options.pushHooks,
  )
  const stream = streamHandler({
    db: deps.db,
    bus: deps.bus,
    authenticate,
    log: deps.log,
    heartbeatMs: options.streamHeartbeatMs,
  })
  return defineFeature({
    routes: new Hono<AppEnv>()
      .route('/sync', syncRoutes(sync))
      .get(
        '/stream',
        describe({ tag: 'sync', summary: 'Server-sent events: ready, then a poke whenever your bubles change' }),
        stream,
      ),
    jobs: [syncMaintenanceJob],
    close: () => sync.close(),
  })
}
