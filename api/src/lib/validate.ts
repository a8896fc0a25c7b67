/** Request validation with the shared zod schemas; the same middleware feeds the OpenAPI document. */

import { findUnsafeText } from '@buble/shared/text'
import type { StandardSchemaV1 } from '@standard-schema/spec'
import type { ValidationTargets } from 'hono'
import { validator } from 'hono-openapi'
import { AppError, validationError } from './errors.ts'

/**
 * Validates one part of the request, refusing with CONTRACT §2's 400 body naming the first problem.
 * What passes its schema then passes the one text rule of @buble/shared/text, every field and key
 * of it (a schema's own, more precise message comes first: a NUL in a name is a control character).
 */
export const validate = <Schema extends StandardSchemaV1, Target extends keyof ValidationTargets>(
  target: Target,
  schema: Schema,
  /** `perItem`: the route applies the text rule to each item itself (a push: one bad mutation is rejected alone). */
  options: { textRule: 'whole' | 'perItem' } = { textRule: 'whole' },
) =>
  validator(target, schema, (result) => {
    if (!result.success) {
      const issues = result.error.map((issue) => ({
        path: (issue.path ?? []).map((segment) => (typeof segment === 'object' ? segment.key : segment)),
        message: issue.message,
      }))
      throw validationError(issues)
    }
    const unsafe = options.textRule === 'whole' ? findUnsafeText(result.data) : null
    if (unsafe) throw validationError([unsafe])
  })

export const malformedJson = () => new AppError('VALIDATION_ERROR', 'Malformed JSON in request body')
