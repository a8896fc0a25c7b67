import { Hono } from 'hono'
import type { Deps } from '../../deps.ts'
import type { AppEnv } from '../../lib/auth.ts'
import type { ContentAddedBus } from '../../lib/content-added.ts'
import { defineFeature } from '../../lib/feature.ts'
import type { PokeClock } from '../../lib/poke-clock.ts'
import { pollLists } from './lists.ts'
import { pollsRoutes } from './routes.ts'
import { pollsService } from './service.ts'
import { pollsMutations, pollsSyncSources, pollsUnreadSources } from './sync.ts'

/** Polls and votes. */
export function pollsFeature(deps: Deps, contentAdded: ContentAddedBus, pokes: PokeClock) {
  const polls = pollsService(deps, contentAdded)
  const lists = pollLists(deps.db, pokes)
  return defineFeature({
    service: polls,
    routes: new Hono<AppEnv>().route('/', pollsRoutes({ polls, lists })),
    mutations: pollsMutations(polls),
    syncSources: pollsSyncSources,
    unreadSources: pollsUnreadSources,
    jobs: [polls.closingJob],
    close: () => lists.close(),
  })
}
