/** Request validation with the shared zod schemas; the same middleware feeds the OpenAPI document. */

import type { StandardSchemaV1 } from '@standard-schema/spec'
import type { ValidationTargets } from 'hono'
import { validator } from 'hono-openapi'
import { AppError, validationError } from './errors.ts'

/** Validates one part of the request, refusing with CONTRACT §2's 400 body naming the first problem. */
export const validate = <Schema extends StandardSchemaV1, Target extends keyof ValidationTargets>(
  target: Target,
  schema: Schema,
) =>
  validator(target, schema, (result) => {
    if (!result.success) {
      const issues = result.error.map((issue) => ({
        path: (issue.path ?? []).map((segment) => (typeof segment === 'object' ? segment.key : segment)),
        message: issue.message,
      }))
      throw validationError(issues)
    }
  })

export const malformedJson = () => new AppError('VALIDATION_ERROR', 'Malformed JSON in request body')
