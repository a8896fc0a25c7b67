import { Hono } from 'hono'
import type { Deps } from '../../deps.ts'
import type { AppEnv } from '../../lib/auth.ts'
import type { ContentAddedBus } from '../../lib/content-added.ts'
import { defineFeature } from '../../lib/feature.ts'
import { pushRoutes } from './routes.ts'
import { type BadgeCounters, pushSender } from './sender.ts'
import { type PushOptions, pushService } from './service.ts'

/** Web Push: subscriptions, and notifications of what `contentAdded` announces, with the `unread` badge. */
export function pushFeature(
  deps: Deps,
  { unread, contentAdded }: { unread: BadgeCounters; contentAdded: ContentAddedBus },
  options: PushOptions,
) {
  const sending = pushSender(deps, unread, contentAdded, options)
  const push = pushService(deps, options, { audienceChanged: sending.audienceChanged })
  return defineFeature({
    sending,
    routes: new Hono<AppEnv>().route('/push', pushRoutes(push, deps.vapid.publicKey)),
    close: () => sending.close(),
  })
}
