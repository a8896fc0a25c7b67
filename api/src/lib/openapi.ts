/** Route descriptions for the OpenAPI document; request shapes come from the `validate` middleware itself. */

import { ErrorBody } from '@buble/shared/errors'
import type { StandardSchemaV1 } from '@standard-schema/spec'
import type { Hono, MiddlewareHandler } from 'hono'
import { describeRoute, generateSpecs, resolver } from 'hono-openapi'
import type { AppEnv } from './auth.ts'

const json = (schema: StandardSchemaV1) => ({ 'application/json': { schema: resolver(schema) } })

/** Describes a route: its tag, summary, success answer, and whether it needs a bearer token. */
export function describe(opts: {
  tag: string
  summary: string
  status?: number
  response?: StandardSchemaV1
  auth?: boolean
  /** The route takes a multipart upload with one `file` field (judged by its bytes, not a schema). */
  upload?: boolean
}) {
  const status = opts.status ?? 200
  return passThrough(
    describeRoute({
      tags: [opts.tag],
      summary: opts.summary,
      ...(opts.auth === false ? { security: [] } : {}),
      ...(opts.upload
        ? {
            requestBody: {
              required: true,
              content: {
                'multipart/form-data': {
                  schema: {
                    type: 'object' as const,
                    properties: { file: { type: 'string' as const, format: 'binary' } },
                    required: ['file'],
                  },
                },
              },
            },
          }
        : {}),
      responses: {
        [status]: { description: opts.summary, ...(opts.response ? { content: json(opts.response) } : {}) },
        default: { description: 'An error: `{message, code, issues?}`', content: json(ErrorBody) },
      },
    }),
  )
}

/**
 * hono-openapi's description is a middleware of every route that only awaits `next()`, an async
 * step of every request; the document is read from what it carries (its symbol-keyed spec). This
 * is the same description on a step that hands on `next()`'s promise as it is.
 */
function passThrough<M extends MiddlewareHandler>(described: M): M {
  const step = ((_c, next) => next()) as M
  Object.defineProperty(step, 'name', { value: described.name })
  for (const key of Object.getOwnPropertySymbols(described)) Object.assign(step, { [key]: Reflect.get(described, key) })
  return step
}

/** Serves the OpenAPI document of every route of `app`, generated once, on first request. */
export function serveOpenApi(app: Hono<AppEnv>, version: string): void {
  let spec: Promise<unknown> | undefined
  app.get('/api/openapi.json', async (c) => {
    spec ??= generateSpecs(app, {
      documentation: {
        openapi: '3.1.0',
        info: {
          title: 'Buble API',
          version: version,
          description: 'The HTTP contract of Buble (CONTRACT.md).',
        },
        components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
        security: [{ bearer: [] }],
      },
      exclude: ['/api/openapi.json'],
    })
    return c.json(await spec)
  })
}
