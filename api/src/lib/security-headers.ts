/**
 * The security headers of CONTRACT §7 on every answer. Hono's secureHeaders sets them on the
 * finished response, which makes @hono/node-server turn a body it would have written in one go
 * into a stream read chunk by chunk: a large kept answer (the events and polls lists) then costs
 * several times its size in CPU. API answers get the very same headers set before the handler
 * runs, merged into the response as it is made; other answers (the PWA's files) keep the
 * middleware as it is.
 */

import { Hono, type MiddlewareHandler } from 'hono'
import { secureHeaders } from 'hono/secure-headers'

type SecureHeadersOptions = NonNullable<Parameters<typeof secureHeaders>[0]>

/** The headers `secureHeaders(options)` puts on an answer, read once from a probe. */
async function headersOf(options: SecureHeadersOptions): Promise<[string, string][]> {
  const probe = new Hono().use(secureHeaders(options)).get('/', (c) => c.body(null, 204))
  const res = await probe.request('/')
  return [...res.headers.entries()]
}

export function securityHeaders(options: SecureHeadersOptions, apiPrefix = '/api/'): MiddlewareHandler {
  const afterwards = secureHeaders(options)
  let headers: Promise<[string, string][]> | undefined
  return async (c, next) => {
    if (!c.req.path.startsWith(apiPrefix)) return afterwards(c, next)
    headers ??= headersOf(options)
    for (const [name, value] of await headers) c.header(name, value)
    await next()
  }
}
