import { Hono } from 'hono'
import type { Deps } from '../../deps.ts'
import type { AppEnv } from '../../lib/auth.ts'
import type { ContentAddedBus } from '../../lib/content-added.ts'
import { defineFeature } from '../../lib/feature.ts'
import { mutesService } from '../../lib/mutes.ts'
import type { PokeClock } from '../../lib/poke-clock.ts'
import { invitesService } from './invites.ts'
import { membersService } from './members.ts'
import { bublesRoutes } from './routes.ts'
import { bublesService } from './service.ts'
import { bubleBatchers, bubleMutations, bubleSyncSources, bubleUnreadSources, muteMutations } from './sync.ts'
import { membershipWrites } from './writes.ts'

/** Bubles, their members and invites. */
export function bublesFeature(deps: Deps, contentAdded: ContentAddedBus, pokes: PokeClock) {
  const writes = membershipWrites(deps.now, contentAdded)
  const bubles = bublesService(deps, writes, pokes)
  const members = membersService(deps, writes)
  const invites = invitesService(deps, writes)
  const mutes = mutesService(deps)
  return defineFeature({
    service: bubles,
    invites,
    /** What an account's deletion and a profile change do to its memberships. */
    accountSteps: { deletionSteps: [bubles.accountDeletionStep], profileSteps: [bubles.profileChangeStep] },
    routes: new Hono<AppEnv>().route(
      '/bubles',
      bublesRoutes({ bubles, members, mutes, invites, trustProxy: deps.config.trustProxy }),
    ),
    mutations: { ...bubleMutations({ bubles, invites }), ...muteMutations(mutes) },
    batchers: bubleBatchers(bubles),
    syncSources: bubleSyncSources,
    unreadSources: bubleUnreadSources,
    close: () => bubles.close(),
  })
}
