/** Weather and the events finder over HTTP (CONTRACT §3.3): both signed in, both online-only. */

import { TicketmasterQuery, WeatherQuery } from '@buble/shared/providers'
import { Hono } from 'hono'
import type { AppEnv } from '../../lib/auth.ts'
import type { Logger } from '../../lib/log.ts'
import { describe } from '../../lib/openapi.ts'
import type { SafeFetch } from '../../lib/safe-fetch.ts'
import { validate } from '../../lib/validate.ts'
import { providerJson } from './provider-fetch.ts'
import { TICKETMASTER_SERVICE, type TicketmasterService, ticketmasterService } from './ticketmaster.ts'
import { WEATHER_SERVICE, type WeatherService, weatherService } from './weather.ts'

export interface ProvidersDeps {
  config: {
    ticketmaster: { apiKey: string | undefined; baseUrl: string }
    weather: { baseUrl: string; geocodingUrl: string }
  }
  log: Logger
  now: () => Date
  /** The guarded fetch, with the providers' timeout (CONTRACT §6: 5 s). */
  safeFetch: SafeFetch
}

export function providersService({ config, log, now, safeFetch }: ProvidersDeps) {
  return {
    weather: weatherService({ json: providerJson(safeFetch, log, WEATHER_SERVICE), config: config.weather, now }),
    ticketmaster: ticketmasterService({
      json: providerJson(safeFetch, log, TICKETMASTER_SERVICE),
      config: config.ticketmaster,
    }),
  }
}
export type ProvidersService = ReturnType<typeof providersService>

// A point needs both halves; half of one would silently search somewhere else.
const FinderQuery = TicketmasterQuery.refine((query) => (query.lat === undefined) === (query.lng === undefined), {
  error: 'lat and lng must be given together',
  path: ['lat'],
})

const tag = 'providers'

export function providersRoutes({
  weather,
  ticketmaster,
}: {
  weather: WeatherService
  ticketmaster: TicketmasterService
}) {
  return new Hono<AppEnv>()
    .get(
      '/weather',
      describe({ tag, summary: 'Current weather and a 5-day forecast for a place (cached 10 minutes)' }),
      validate('query', WeatherQuery),
      async (c) => c.json(await weather.weather(c.req.valid('query').location)),
    )
    .get(
      '/ticketmaster/events',
      describe({ tag, summary: 'Events from Ticketmaster for the local events finder' }),
      validate('query', FinderQuery),
      async (c) => c.json(await ticketmaster.search(c.req.valid('query'))),
    )
}
