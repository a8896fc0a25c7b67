import { Hono } from 'hono'
import type { Deps } from '../../deps.ts'
import type { AppEnv } from '../../lib/auth.ts'
import { defineFeature } from '../../lib/feature.ts'
import { searchRoutes } from './routes.ts'
import { searchService } from './service.ts'

/** Search in a buble: online reads only, no mutations (the device searches its own rows first). */
export function searchFeature(deps: Deps) {
  const search = searchService(deps)
  return defineFeature({ service: search, routes: new Hono<AppEnv>().route('/', searchRoutes({ search })) })
}
