import { Hono } from 'hono'
import type { Deps } from '../../deps.ts'
import type { AppEnv } from '../../lib/auth.ts'
import { defineFeature } from '../../lib/feature.ts'
import { adminListCache } from './list-cache.ts'
import { type AdminReports, adminRoutes } from './routes.ts'
import { type AdminServices, adminService } from './service.ts'

/** The platform admin area; its writes go through the owning features' services. */
export function adminFeature(deps: Deps, services: Omit<AdminServices, 'adminLists'>, reports: AdminReports) {
  const adminLists = adminListCache(deps)
  return defineFeature({
    routes: new Hono<AppEnv>().route(
      '/admin',
      adminRoutes(adminService(deps, { ...services, adminLists }), deps.now, reports),
    ),
    close: () => void adminLists.close(),
  })
}
