/** The gallery's REST call: `GET /api/bubles/:id/media?before=&limit=` → `{items, next}` (shared/media.ts). */

import { MediaQuery } from '@buble/shared/media'
import { Hono } from 'hono'
import type { AppEnv } from '../../lib/auth.ts'
import { describe } from '../../lib/openapi.ts'
import { bubleIdFromPath } from '../../lib/path-ids.ts'
import { validate } from '../../lib/validate.ts'
import type { MediaService } from './service.ts'

export function mediaRoutes(media: MediaService) {
  return new Hono<AppEnv>().get(
    '/:id/media',
    describe({ tag: 'media', summary: "The buble's images and videos, newest first, a page after `before`" }),
    validate('query', MediaQuery),
    async (c) => c.json(await media.page(c.var.user, bubleIdFromPath(c.req.param('id')), c.req.valid('query'))),
  )
}
