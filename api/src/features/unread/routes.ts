import { isUuid } from '@buble/shared/bubles'
import { ReadBody, UnreadCounter } from '@buble/shared/unread'
import { Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../lib/auth.ts'
import { bubleNotFound } from '../../lib/memberships.ts'
import { describe } from '../../lib/openapi.ts'
import { validate } from '../../lib/validate.ts'
import type { UnreadService } from './service.ts'

const tag = 'unread'

const bubleId = (raw: string) => {
  if (!isUuid(raw)) throw bubleNotFound()
  return raw.toLowerCase()
}

export function unreadRoutes(unread: UnreadService) {
  return new Hono<AppEnv>()
    .get(
      '/buble/:id',
      describe({ tag, summary: "Your unread counters for a buble's tabs", response: z.array(UnreadCounter) }),
      async (c) => c.json(await unread.counts(c.var.user, bubleId(c.req.param('id')))),
    )
    .post(
      '/buble/:id/read',
      describe({ tag, summary: 'Mark a tab of a buble read', status: 204 }),
      validate('json', ReadBody),
      async (c) => {
        await unread.markRead(c.var.user, bubleId(c.req.param('id')), c.req.valid('json').contentType)
        return c.body(null, 204)
      },
    )
}
