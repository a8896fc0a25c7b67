import { Hono } from 'hono'
import type { Deps } from '../../deps.ts'
import type { ActivationStep } from '../../lib/accounts.ts'
import type { AppEnv } from '../../lib/auth.ts'
import { defineFeature } from '../../lib/feature.ts'
import { authRoutes } from './routes.ts'
import { authService } from './service.ts'

/** Sign-up, sign-in and tokens; `activationSteps` run when an account is verified (joining invited bubles). */
export function authFeature(deps: Deps, activationSteps: readonly ActivationStep[]) {
  const auth = authService(deps, { activationSteps })
  return defineFeature({
    service: auth,
    routes: new Hono<AppEnv>().route('/auth', authRoutes(auth, deps.config.trustProxy)),
  })
}
