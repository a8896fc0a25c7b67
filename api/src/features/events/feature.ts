import { Hono } from 'hono'
import type { Deps } from '../../deps.ts'
import type { AppEnv } from '../../lib/auth.ts'
import type { ContentAddedBus } from '../../lib/content-added.ts'
import { defineFeature } from '../../lib/feature.ts'
import type { PokeClock } from '../../lib/poke-clock.ts'
import { eventLists } from './lists.ts'
import { eventsRoutes } from './routes.ts'
import { eventsService } from './service.ts'
import { eventsMutations, eventsSyncSources, eventsUnreadSources } from './sync.ts'

/** Events, RSVPs and "add to calendar". */
export function eventsFeature(deps: Deps, contentAdded: ContentAddedBus, pokes: PokeClock) {
  const events = eventsService(deps, contentAdded)
  const lists = eventLists(deps.db, pokes)
  return defineFeature({
    service: events,
    routes: new Hono<AppEnv>().route('/', eventsRoutes({ events, lists, now: deps.now })),
    mutations: eventsMutations(events),
    syncSources: eventsSyncSources,
    unreadSources: eventsUnreadSources,
    close: () => lists.close(),
  })
}
