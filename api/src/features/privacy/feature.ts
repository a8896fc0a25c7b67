import { Hono } from 'hono'
import type { Deps } from '../../deps.ts'
import type { AppEnv } from '../../lib/auth.ts'
import { defineFeature } from '../../lib/feature.ts'
import { exportRoutes } from './routes.ts'
import { exportService } from './service.ts'

/** One's personal data as a ZIP. */
export const privacyFeature = (deps: Deps) =>
  defineFeature({ routes: new Hono<AppEnv>().route('/', exportRoutes(exportService(deps))) })
