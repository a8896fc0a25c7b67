import { isUuid } from '@buble/shared/bubles'
import {
  PushEnabledBody,
  PushMute,
  PushMuteBody,
  PushPreferences,
  PushSubscriptionBody,
  PushUnsubscribeBody,
} from '@buble/shared/push'
import { Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../lib/auth.ts'
import { bubleNotFound } from '../../lib/memberships.ts'
import { describe } from '../../lib/openapi.ts'
import { validate } from '../../lib/validate.ts'
import type { PushService } from './service.ts'

const tag = 'push'

export function pushRoutes(push: PushService, vapidPublicKey: string) {
  return new Hono<AppEnv>()
    .get(
      '/vapid-public-key',
      describe({
        tag,
        summary: "The server's VAPID public key, for PushManager.subscribe",
        response: z.object({ publicKey: z.string() }),
        auth: false,
      }),
      (c) => c.json({ publicKey: vapidPublicKey }),
    )
    .post(
      '/subscriptions',
      describe({ tag, summary: "Store this device's push subscription (https, public endpoints only)", status: 201 }),
      validate('json', PushSubscriptionBody),
      async (c) => {
        const body = c.req.valid('json')
        await push.subscribe(c.var.user, body)
        return c.json({ endpoint: body.endpoint }, 201)
      },
    )
    .delete(
      '/subscriptions',
      describe({ tag, summary: 'Forget one of your push subscriptions', status: 204 }),
      validate('json', PushUnsubscribeBody),
      async (c) => {
        await push.unsubscribe(c.var.user, c.req.valid('json').endpoint)
        return c.body(null, 204)
      },
    )
    .get(
      '/preferences',
      describe({ tag, summary: 'Your push switch and muted bubles', response: PushPreferences }),
      async (c) => c.json(await push.preferences(c.var.user)),
    )
    .put(
      '/preferences',
      describe({ tag, summary: 'Turn push on or off for all your devices', response: PushPreferences }),
      validate('json', PushEnabledBody),
      async (c) => c.json(await push.setEnabled(c.var.user, c.req.valid('json').enabled)),
    )
    .put(
      '/mutes/:bubleId',
      describe({ tag, summary: "Mute or unmute a buble's pushes", response: PushMute }),
      validate('json', PushMuteBody),
      async (c) => {
        const raw = c.req.param('bubleId')
        if (!isUuid(raw)) throw bubleNotFound()
        return c.json(await push.setMuted(c.var.user, raw.toLowerCase(), c.req.valid('json').muted))
      },
    )
}
