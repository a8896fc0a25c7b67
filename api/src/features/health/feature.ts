import { Hono } from 'hono'
import type { Deps } from '../../deps.ts'
import type { AppEnv } from '../../lib/auth.ts'
import { defineFeature } from '../../lib/feature.ts'
import { healthRoutes } from './routes.ts'

export const healthFeature = (deps: Deps) =>
  defineFeature({
    routes: new Hono<AppEnv>().route('/health', healthRoutes(deps.database.kind, deps.config.version)),
  })
