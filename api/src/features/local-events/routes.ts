/** The local events finder over HTTP (CONTRACT §3.3): signed in, online-only. */

import { TicketmasterQuery } from '@buble/shared/providers'
import { Hono } from 'hono'
import type { AppEnv } from '../../lib/auth.ts'
import { describe } from '../../lib/openapi.ts'
import { validate } from '../../lib/validate.ts'
import type { TicketmasterService } from './service.ts'

// A point needs both halves; half of one would silently search somewhere else.
const FinderQuery = TicketmasterQuery.refine((query) => (query.lat === undefined) === (query.lng === undefined), {
  error: 'lat and lng must be given together',
  path: ['lat'],
})

export function localEventsRoutes(ticketmaster: TicketmasterService) {
  return new Hono<AppEnv>().get(
    '/ticketmaster/events',
    describe({ tag: 'providers', summary: 'Events from Ticketmaster for the local events finder' }),
    validate('query', FinderQuery),
    async (c) => c.json(await ticketmaster.search(c.req.valid('query'))),
  )
}
