/** Weather over HTTP (CONTRACT §3.3): signed in, online-only. */

import { WeatherQuery } from '@buble/shared/providers'
import { Hono } from 'hono'
import type { AppEnv } from '../../lib/auth.ts'
import { describe } from '../../lib/openapi.ts'
import { validate } from '../../lib/validate.ts'
import type { WeatherService } from './service.ts'

export function weatherRoutes(weather: WeatherService) {
  return new Hono<AppEnv>().get(
    '/weather',
    describe({ tag: 'providers', summary: 'Current weather and a 5-day forecast for a place (cached 10 minutes)' }),
    validate('query', WeatherQuery),
    async (c) => c.json(await weather.weather(c.req.valid('query').location)),
  )
}
