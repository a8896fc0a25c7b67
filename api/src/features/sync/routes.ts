import { PullQuery, PullResponse, PushBody, PushResponse } from '@buble/sync/protocol'
import { Hono } from 'hono'
import type { AppEnv } from '../../lib/auth.ts'
import { describe } from '../../lib/openapi.ts'
import { validate } from '../../lib/validate.ts'
import type { SyncService } from './service.ts'

const tag = 'sync'

export function syncRoutes(sync: SyncService) {
  return new Hono<AppEnv>()
    .post(
      '/push',
      describe({ tag, summary: 'Apply queued mutations in order, each exactly once', response: PushResponse }),
      // The text rule runs per mutation (push.ts): one bad mutation is rejected alone, its batch applies.
      validate('json', PushBody, { textRule: 'perItem' }),
      async (c) => c.json(await sync.push(c.var.user, c.req.valid('json'))),
    )
    .get(
      '/pull',
      describe({ tag, summary: 'Changes in your bubles since a cursor', response: PullResponse }),
      validate('query', PullQuery),
      async (c) => c.json(await sync.pull(c.var.user, c.req.valid('query'))),
    )
}
