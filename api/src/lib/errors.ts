/** AppError and the one mapping from any thrown error to CONTRACT §2's JSON body. */

import { ERROR_STATUS, type ErrorBody, type ErrorCode } from '@buble/shared/errors'
import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { ZodError } from 'zod'
import type { Logger } from './log.ts'

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues?: ErrorBody['issues'],
    readonly headers?: Record<string, string>,
  ) {
    super(message)
  }
  get status(): ContentfulStatusCode {
    return ERROR_STATUS[this.code] as ContentfulStatusCode
  }
  body(): ErrorBody {
    return this.issues
      ? { message: this.message, code: this.code, issues: this.issues }
      : { message: this.message, code: this.code }
  }
}

export const notFound = (message = 'Not found') => new AppError('NOT_FOUND', message)
export const forbidden = (message = 'You are not allowed to do that') => new AppError('FORBIDDEN', message)
export const unauthorized = (message = 'Authentication required') => new AppError('UNAUTHORIZED', message)
export const conflict = (message: string) => new AppError('CONFLICT', message)
export const tokenInvalid = (message: string) => new AppError('TOKEN_INVALID', message)

/** A validation failure named by its first problem, every problem listed in `issues`. */
export function validationError(issues: { path: PropertyKey[]; message: string }[]): AppError {
  const list = issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }))
  return new AppError('VALIDATION_ERROR', list[0]?.message ?? 'Invalid request', list)
}

/** Turns anything thrown into a `{status, body}`; unknown errors are logged and answered without detail. */
export function toErrorResponse(
  err: unknown,
  log: Logger,
): { status: ContentfulStatusCode; body: ErrorBody; headers?: Record<string, string> } {
  if (err instanceof AppError) return { status: err.status, body: err.body(), headers: err.headers }
  if (err instanceof ZodError) {
    const e = validationError(err.issues)
    return { status: e.status, body: e.body() }
  }
  if (err instanceof HTTPException) {
    if (err.status === 413)
      return { status: 413, body: { message: 'Request body is too large', code: 'PAYLOAD_TOO_LARGE' } }
    if (err.status === 400)
      return { status: 400, body: { message: err.message || 'Bad request', code: 'VALIDATION_ERROR' } }
    if (err.status === 401) return { status: 401, body: { message: 'Authentication required', code: 'UNAUTHORIZED' } }
  }
  log.error('unhandled error', { err })
  return { status: 500, body: { message: 'Something went wrong', code: 'INTERNAL_ERROR' } }
}

export function errorHandler(log: Logger) {
  return (err: Error, c: Context) => {
    const { status, body, headers } = toErrorResponse(err, log)
    if (headers) for (const [name, value] of Object.entries(headers)) c.header(name, value)
    return c.json(body, status)
  }
}
