/** Bearer authentication for every route that is not public: the token and the account are checked on each request. */

import { SESSION_REVOKED_MESSAGE } from '@buble/shared/auth'
import DataLoader from 'dataloader'
import { sql } from 'drizzle-orm'
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
  // Signing in with a passkey (decision 102): its challenge, then its answer.
  /^\/api\/auth\/passkeys\/(options|login)$/,
  /^\/api\/bubles\/complete-registration$/,
  // The public preview of an invite code (GET only: accepting it is /accept, which needs a token).
  /^\/api\/bubles\/invites\/[^/]+$/,
  /^\/api\/donations\//,
  // A member's private calendar feed: the secret in the address is the credential (decision 96).
  /^\/api\/calendar\/[^/]+$/,
]

export const isPublicPath = (path: string): boolean => PUBLIC_PATHS.some((re) => re.test(path))

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export type Authenticate = (header: string | undefined) => Promise<UserRow>

/**
 * Resolves a bearer header to its signed-in user, or throws UNAUTHORIZED. The account is read afresh
 * for every request, never cached; the requests of one event-loop turn read theirs in one query (a
 * busy process otherwise spends a fifth of its time writing one tiny query per request to the
 * database's socket), so a revocation counts from the next turn, as before from the next request.
 */
export function createAuthenticator(db: Db, tokens: AccessTokens): Authenticate {
  // Runs on every authenticated request: prepared once, so the SQL is neither rebuilt nor re-planned.
  const usersByIds = db
    .select()
    .from(users)
    .where(sql`${users.id} = any(${sql.placeholder('ids')}::uuid[])`)
    .prepare('auth_users_by_ids')
  const accounts = new DataLoader<string, UserRow | undefined>(
    async (ids) => {
      // The ids passed the UUID test: an array literal of them is safe as it stands.
      const rows = await usersByIds.execute({ ids: `{${ids.join(',')}}` })
      const byId = new Map(rows.map((row) => [row.id, row]))
      return ids.map((id) => byId.get(id))
    },
    // Gathers every request of this turn (the next tick would take them one socket at a time).
    { cache: false, maxBatchSize: 500, batchScheduleFn: (dispatch) => setImmediate(dispatch) },
  )
  return async (header) => {
    const match = header?.match(/^Bearer\s+(\S+)$/i)
    if (!match) throw unauthorized()
    const claims = await tokens.verify(match[1]!)
    if (!claims || !UUID.test(claims.sub)) throw unauthorized('Invalid or expired token')
    const user = await accounts.load(claims.sub.toLowerCase())
    if (user?.status !== 'active') throw unauthorized('Invalid or expired token')
    // A new password (changed, reset by link or by an admin) bumps the version and so revokes every older token;
    // the answer says so, for the sign-in page to tell the user why.
    if (user.tokenVersion !== claims.tv) throw unauthorized(SESSION_REVOKED_MESSAGE)
    return user
  }
}

/** Requires a valid token on every path that CONTRACT §2 does not list as public. */
export function requireAuth(authenticate: Authenticate): MiddlewareHandler<AppEnv> {
  const signedIn: MiddlewareHandler<AppEnv> = async (c, next) => {
    c.set('user', await authenticate(c.req.header('authorization')))
    return next()
  }
  // A public path passes without a promise of its own.
  return (c, next) => (isPublicPath(c.req.path) ? next() : signedIn(c, next))
}
