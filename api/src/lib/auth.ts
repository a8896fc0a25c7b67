/** Bearer authentication for every route that is not public: the token and the account are checked on each request. */

import type { MiddlewareHandler } from 'hono'
import type { Db } from '../db/client.ts'
import { findUserById, type UserRow } from './accounts.ts'
import { unauthorized } from './errors.ts'
import type { AccessTokens } from './tokens.ts'

export type AppEnv = { Variables: { user: UserRow; requestId: string } }

// CONTRACT §2: the only paths that answer without a token.
const PUBLIC_PATHS: readonly RegExp[] = [
  /^\/api\/health$/,
  /^\/api\/openapi\.json$/,
  /^\/api\/push\/vapid-public-key$/,
  /^\/api\/auth\/(?!refresh-token$)[^/]+$/,
  /^\/api\/bubles\/complete-registration$/,
  /^\/api\/donations\//,
]

export const isPublicPath = (path: string): boolean => PUBLIC_PATHS.some((re) => re.test(path))

/** The signed-in user behind a bearer header, or an UNAUTHORIZED error. */
export async function authenticateBearer(db: Db, tokens: AccessTokens, header: string | undefined): Promise<UserRow> {
  const match = header?.match(/^Bearer\s+(\S+)$/i)
  if (!match) throw unauthorized()
  const claims = await tokens.verify(match[1]!)
  if (!claims) throw unauthorized('Invalid or expired token')
  const user = await findUserById(db, claims.sub)
  // A password change, reset or deletion bumps the version and so revokes every older token.
  if (!user || user.status !== 'active' || user.tokenVersion !== claims.tv)
    throw unauthorized('Invalid or expired token')
  return user
}

/** Requires a valid token on every path that CONTRACT §2 does not list as public. */
export function requireAuth(db: Db, tokens: AccessTokens): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (isPublicPath(c.req.path)) return next()
    c.set('user', await authenticateBearer(db, tokens, c.req.header('authorization')))
    return next()
  }
}
