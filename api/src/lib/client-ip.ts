/** The caller's address: X-Forwarded-For only when TRUST_PROXY=1, otherwise the socket's. */

import { getConnInfo } from '@hono/node-server/conninfo'
import type { Context } from 'hono'

export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    // The last entry is the one our proxy added; anything before it came from the client and may be forged.
    const forwarded = c.req
      .header('x-forwarded-for')
      ?.split(',')
      .map((entry) => entry.trim())
      .filter(Boolean)
      .at(-1)
    if (forwarded) return forwarded
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown'
  } catch {
    // app.request() in tests has no socket.
    return 'unknown'
  }
}
