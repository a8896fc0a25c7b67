import { Hono } from 'hono'
import type { Deps } from '../../deps.ts'
import type { AppEnv } from '../../lib/auth.ts'
import { defineFeature } from '../../lib/feature.ts'
import type { MutationHandlers } from '../../lib/sync-sources.ts'
import { usersRoutes } from './routes.ts'
import { type UsersHooks, usersService } from './service.ts'

/** One's own account: profile, password, deletion (and the job that carries deletions out). */
export function profileFeature(deps: Deps, hooks: UsersHooks) {
  const users = usersService(deps, hooks)
  return defineFeature({
    service: users,
    routes: new Hono<AppEnv>().route('/users', usersRoutes(users)),
    mutations: {
      'profile.update': (user, args) => users.updateProfile(user, args),
    } satisfies Partial<MutationHandlers>,
    jobs: [users.deletionJob],
  })
}
