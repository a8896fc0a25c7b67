/** Route descriptions for the OpenAPI document; request shapes come from the `validate` middleware itself. */

import { ErrorBody } from '@buble/shared/errors'
import type { StandardSchemaV1 } from '@standard-schema/spec'
import { describeRoute, resolver } from 'hono-openapi'

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
  return describeRoute({
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
  })
}
