/** `GET /api/bubles/:id/search` (decision 95): a thin adapter over the service. */

import { SearchQuery } from '@buble/shared/search'
import { Hono } from 'hono'
import type { AppEnv } from '../../lib/auth.ts'
import { describe } from '../../lib/openapi.ts'
import { bubleIdFromPath } from '../../lib/path-ids.ts'
import { validate } from '../../lib/validate.ts'
import type { SearchService } from './service.ts'

export function searchRoutes({ search }: { search: SearchService }) {
  return new Hono<AppEnv>().get(
    '/bubles/:id/search',
    describe({
      tag: 'search',
      summary: "Full text search of a buble's posts, comments, chat, events and polls, newest first (members only)",
    }),
    validate('query', SearchQuery),
    async (c) => c.json(await search.search(c.var.user.id, bubleIdFromPath(c.req.param('id')), c.req.valid('query'))),
  )
}
