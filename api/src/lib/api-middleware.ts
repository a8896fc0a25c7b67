/** What every request to the API passes before a feature's route: security headers, CORS, size and input checks, sign-in. */

import { LIMITS } from '@buble/shared/constants'
import type { Hono, MiddlewareHandler } from 'hono'
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
  app.use(
    '/api/*',
    inOrder(
      // Uploads set their own, larger limits.
      (c, next) => (c.req.path.startsWith('/api/uploads/') ? next() : jsonBodyLimit(c, next)),
      // No NUL or unpaired surrogate in any path or query (bodies: validate(); a push: per mutation).
      safeInput(),
      requireAuth(authenticate),
    ),
  )
}

/**
 * Middleware run one after another as one: each `next` is the following one, the last's is the
 * route's. Every request passes all of them, so each step Hono's dispatch would add (a promise and
 * a try per middleware) is saved, and a step that is not async (most of them, for a read) costs
 * none. A throw from any of them reaches the app's error handler as before.
 */
function inOrder(...steps: MiddlewareHandler<AppEnv>[]): MiddlewareHandler<AppEnv> {
  // Built once, last step first: a request makes one small closure per step, and no named function.
  return steps.reduceRight<MiddlewareHandler<AppEnv>>(
    (rest, step) => (c, next) => step(c, () => rest(c, next) as Promise<void>),
    (_c, next) => next(),
  )
}
