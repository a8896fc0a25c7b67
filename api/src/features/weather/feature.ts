import { Hono } from 'hono'
import type { Deps } from '../../deps.ts'
import type { AppEnv } from '../../lib/auth.ts'
import { defineFeature } from '../../lib/feature.ts'
import { providerJson } from '../../lib/provider-fetch.ts'
import type { SafeFetch } from '../../lib/safe-fetch.ts'
import { weatherRoutes } from './routes.ts'
import { WEATHER_SERVICE, weatherService } from './service.ts'

/** Weather for a place, from the configured provider (`providerFetch`: with the providers' timeout). */
export function weatherFeature({ config, log, now }: Deps, providerFetch: SafeFetch) {
  const weather = weatherService({
    json: providerJson(providerFetch, log, WEATHER_SERVICE),
    config: config.weather,
    now,
  })
  return defineFeature({ routes: new Hono<AppEnv>().route('/', weatherRoutes(weather)) })
}
