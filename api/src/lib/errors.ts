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

/** What an answer says when the database cannot serve it now (down, restarting, or every connection busy for too long). */
export const UNAVAILABLE_MESSAGE = 'The server is busy. Please try again in a moment.'
/** Seconds a client waits before trying again after a 503. */
export const UNAVAILABLE_RETRY_AFTER = 2

// SQLSTATEs of a database that cannot serve the request now, whatever the request: connection
// exceptions (08), insufficient resources (53), operator intervention (57: statement_timeout,
// shutdown), system errors (58), a lock not had within lock_timeout, a serialization failure or
// deadlock (a retry succeeds), a session ended for idling in a transaction.
const UNAVAILABLE_STATE = /^(08|53|57|58)...$|^(55P03|40001|40P01|25P03)$/
// node-postgres and pg-pool say these without a SQLSTATE; PGlite says it is closed.
const UNAVAILABLE_TEXT =
  /timeout exceeded when trying to connect|Connection terminated|connection error|not queryable|after calling end on the pool|PGlite is closed/i
const UNAVAILABLE_SYSCALL = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH'])

/**
 * True when `err` (or what it wraps: drizzle wraps driver errors) says the database is unavailable,
 * not that the request or the code is wrong: the request may succeed as it is a moment later.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && (UNAVAILABLE_STATE.test(code) || UNAVAILABLE_SYSCALL.has(code))) return true
    if (UNAVAILABLE_TEXT.test(e.message)) return true
  }
  return false
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
  if (isDatabaseUnavailable(err)) {
    log.warn('database unavailable', { err })
    return {
      status: 503,
      body: { message: UNAVAILABLE_MESSAGE, code: 'SERVICE_UNAVAILABLE' },
      headers: { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER) },
    }
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
