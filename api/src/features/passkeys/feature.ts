import { Hono } from 'hono'
import type { Deps } from '../../deps.ts'
import type { AppEnv } from '../../lib/auth.ts'
import { defineFeature } from '../../lib/feature.ts'
import { memberPasskeyRoutes, passkeySignInRoutes } from './routes.ts'
import { type PasskeyHooks, passkeysService } from './service.ts'

/** Passkeys (decision 102): a member's WebAuthn credentials, and signing in with one. */
export function passkeysFeature(deps: Deps, hooks: PasskeyHooks) {
  const passkeys = passkeysService(deps, hooks)
  return defineFeature({
    service: passkeys,
    routes: new Hono<AppEnv>()
      .route('/users', memberPasskeyRoutes(passkeys))
      .route('/auth', passkeySignInRoutes(passkeys, deps.config.trustProxy)),
  })
}
