import { Hono } from 'hono'
import type { Deps } from '../../deps.ts'
import type { AppEnv } from '../../lib/auth.ts'
import { defineFeature } from '../../lib/feature.ts'
import { sessionsRoutes } from './routes.ts'
import { sessionsService } from './service.ts'

/** The devices signed in to one's account (decision 103); signing in itself is lib/sessions.ts. */
export function sessionsFeature(deps: Deps) {
  const sessions = sessionsService(deps)
  return defineFeature({
    service: sessions,
    routes: new Hono<AppEnv>().route('/users/sessions', sessionsRoutes(sessions)),
    jobs: [sessions.expiryJob],
  })
}
