import { Hono } from 'hono'
import type { Deps } from '../../deps.ts'
import type { AppEnv } from '../../lib/auth.ts'
import { defineFeature } from '../../lib/feature.ts'
import { reportsRoutes } from './routes.ts'
import { type ReportsHooks, reportsService } from './service.ts'
import { reportsMutations, reportsUnreadSources } from './sync.ts'

/** Reports and the moderation queue (issue 24 §1): deletes go through each content's own service. */
export function reportsFeature(deps: Deps, hooks: ReportsHooks) {
  const reports = reportsService(deps, hooks)
  return defineFeature({
    service: reports,
    routes: new Hono<AppEnv>().route('/', reportsRoutes(reports)),
    mutations: reportsMutations(reports),
    unreadSources: reportsUnreadSources,
  })
}
