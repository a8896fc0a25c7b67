import { Hono } from 'hono'
import type { Deps } from '../../deps.ts'
import type { AppEnv } from '../../lib/auth.ts'
import { defineFeature } from '../../lib/feature.ts'
import { donationsRoutes } from './routes.ts'
import { donationsService } from './service.ts'

export const donationsFeature = (deps: Deps) =>
  defineFeature({
    routes: new Hono<AppEnv>().route('/donations', donationsRoutes(donationsService(deps), deps.config.trustProxy)),
  })
