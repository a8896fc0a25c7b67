/** Bearer authentication for every route that is not public: the token and the account are checked on each request. */

import { eq, sql } from 'drizzle-orm'
import type { MiddlewareHandler } from 'hono'
import type { Db } from '../db/client.ts'
import { users } from '../db/schema.ts'
import type { UserRow } from './accounts.ts'
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export type Authenticate = (header: string | undefined) => Promise<UserRow>

/** Resolves a bearer header to its signed-in user, or throws UNAUTHORIZED. */
export function createAuthenticator(db: Db, tokens: AccessTokens): Authenticate {
  // Runs on every authenticated request: prepared once, so the SQL is neither rebuilt nor re-planned.
  const userById = db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare('auth_user_by_id')
  return async (header) => {
    const match = header?.match(/^Bearer\s+(\S+)$/i)
    if (!match) throw unauthorized()
    const claims = await tokens.verify(match[1]!)
    if (!claims || !UUID.test(claims.sub)) throw unauthorized('Invalid or expired token')
    const [user] = await userById.execute({ id: claims.sub })
    // A password change, reset or deletion bumps the version and so revokes every older token.
    if (user?.status !== 'active' || user.tokenVersion !== claims.tv) throw unauthorized('Invalid or expired token')
    return user
  }
}

/** Requires a valid token on every path that CONTRACT §2 does not list as public. */
export function requireAuth(authenticate: Authenticate): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (isPublicPath(c.req.path)) return next()
    c.set('user', await authenticate(c.req.header('authorization')))
    return next()
  }
}
