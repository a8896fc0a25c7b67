import { Hono } from 'hono'
import type { Deps } from '../../deps.ts'
import type { AppEnv } from '../../lib/auth.ts'
import { defineFeature } from '../../lib/feature.ts'
import { providerJson } from '../../lib/provider-fetch.ts'
import type { SafeFetch } from '../../lib/safe-fetch.ts'
import { localEventsRoutes } from './routes.ts'
import { TICKETMASTER_SERVICE, ticketmasterService } from './service.ts'

/** The local events finder, over Ticketmaster (`providerFetch`: with the providers' timeout). */
export function localEventsFeature({ config, log }: Deps, providerFetch: SafeFetch) {
  const ticketmaster = ticketmasterService({
    json: providerJson(providerFetch, log, TICKETMASTER_SERVICE),
    config: config.ticketmaster,
  })
  return defineFeature({ routes: new Hono<AppEnv>().route('/', localEventsRoutes(ticketmaster)) })
}
