/** What every request to the API passes before a feature's route: security headers, CORS, size and input checks, sign-in. */

import { LIMITS } from '@buble/shared/constants'
import type { Hono } from 'hono'
import { cors } from 'hono/cors'
import { type AppEnv, type Authenticate, requireAuth } from './auth.ts'
import { jsonBodies } from './json-body.ts'
import { safeInput } from './safe-input.ts'
import { securityHeaders } from './security-headers.ts'

/** CONTRACT §7: no inline or eval'd script, nothing framed, nothing embedded. */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  mediaSrc: ["'self'", 'blob:'],
  connectSrc: ["'self'"],
  fontSrc: ["'self'"],
  workerSrc: ["'self'"],
  manifestSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  frameAncestors: ["'none'"],
  formAction: ["'self'"],
}

export function useApiMiddleware(app: Hono<AppEnv>, corsOrigins: readonly string[], authenticate: Authenticate): void {
  app.use(
    securityHeaders({
      contentSecurityPolicy: CONTENT_SECURITY_POLICY,
      referrerPolicy: 'strict-origin-when-cross-origin',
      xContentTypeOptions: 'nosniff',
      crossOriginEmbedderPolicy: false,
    }),
  )
  if (corsOrigins.length > 0) {
    app.use('/api/*', cors({ origin: [...corsOrigins], credentials: false, maxAge: 600 }))
  }
  const jsonBodyLimit = jsonBodies(LIMITS.jsonBodyBytes)
  // Uploads set their own, larger limits.
  app.use('/api/*', (c, next) => (c.req.path.startsWith('/api/uploads/') ? next() : jsonBodyLimit(c, next)))
  // No NUL or unpaired surrogate in any path or query (bodies: validate(); a push: per mutation).
  app.use('/api/*', safeInput())
  app.use('/api/*', requireAuth(authenticate))
}
