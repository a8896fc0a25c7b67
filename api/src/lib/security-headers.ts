/**
 * The security headers of CONTRACT §7 on every answer. Hono's secureHeaders sets them on the
 * finished response, which makes @hono/node-server turn a body it would have written in one go
 * into a stream read chunk by chunk: a large kept answer (the events and polls lists) then costs
 * several times its size in CPU. API answers get the very same headers set before the handler
 * runs; other answers (the PWA's files) keep the middleware as it is.
 *
 * On the real server they go straight onto Node's response (`setHeader`), which merges them into
 * whatever the answer sets (the answer's own win, as with `c.header`). Set on Hono's context, they
 * made a WHATWG Headers of every answer (a dozen checked `set`s, then sorted and copied back into
 * an object for Node): a fifth of what `GET /api/health` cost. Without Node's response
 * (`app.request()` in tests) they are set on the context as before.
 */

import type { ServerResponse } from 'node:http'
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
  // Read once, when the app is made; until the probe answers, a request waits for it.
  let known: [string, string][] | undefined
  const probed = headersOf(options).then((headers) => {
    known = headers
    return headers
  })
  return async (c, next) => {
    if (!c.req.path.startsWith(apiPrefix)) return afterwards(c, next)
    const headers = known ?? (await probed)
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing
    if (outgoing) for (const [name, value] of headers) outgoing.setHeader(name, value)
    else for (const [name, value] of headers) c.header(name, value)
    return next()
  }
}
