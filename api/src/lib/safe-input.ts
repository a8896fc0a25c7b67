/**
 * The one text rule of @buble/shared/text at the API's door, for addresses: no path or query holding
 * NUL or an unpaired surrogate, or a %-escape that does not decode, reaches a route (whether or not
 * it validates its parameters). PostgreSQL refuses NUL in text, so `GET /api/bubles/%00` or an admin
 * `?search=%00` was a 500 (a CSV export broke off in the middle of its stream). JSON bodies pass the
 * same rule in `validate()`, and a push per mutation (sync/push.ts). Decision 56.
 */

import { hasUnsafeText, unsafeTextMessage } from '@buble/shared/text'
import type { MiddlewareHandler } from 'hono'
import { AppError } from './errors.ts'

const badAddress = (message: string) => new AppError('VALIDATION_ERROR', message, [{ path: 'url', message }])

/** Refuses a path or query whose percent-encoding does not decode, or decodes to unsafe text. */
function checkAddress(url: string): void {
  // Node's parser refuses raw control characters in a request line: only an escape can carry one.
  if (!url.includes('%')) return
  const { pathname, search } = new URL(url)
  const parts = [
    ...pathname.split('/'),
    ...search
      .slice(1)
      .split(/[&=]/)
      .map((part) => part.replace(/\+/g, ' ')),
  ]
  for (const part of parts) {
    if (!part.includes('%')) continue
    let decoded: string
    try {
      decoded = decodeURIComponent(part)
    } catch {
      throw badAddress('The address is not valid: a %-escape does not decode')
    }
    if (hasUnsafeText(decoded)) throw badAddress(unsafeTextMessage('The address'))
  }
}

export function safeInput(): MiddlewareHandler {
  // Not async: a refusal throws to the caller's error handling, a pass costs no promise of its own.
  return (c, next) => {
    checkAddress(c.req.url)
    return next()
  }
}
