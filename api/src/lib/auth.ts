/** Bearer authentication for every route that is not public: the token and the account are checked on each request. */

import { SESSION_ENDED_MESSAGE, SESSION_REVOKED_MESSAGE } from '@buble/shared/auth'
import { SESSION_TOUCH_INTERVAL_MS } from '@buble/shared/sessions'
import DataLoader from 'dataloader'
import { and, eq, sql } from 'drizzle-orm'
import type { MiddlewareHandler } from 'hono'
import type { Db } from '../db/client.ts'
import { sessions, users } from '../db/schema.ts'
import type { UserRow } from './accounts.ts'
import { unauthorized } from './errors.ts'
import type { AccessTokens } from './tokens.ts'

/** `sessionId`: the session of the request's token (decision 103); undefined for a token older than sessions. */
export type AppEnv = { Variables: { user: UserRow; sessionId: string | undefined; requestId: string } }

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

/** Who a valid token signs in, and the session it belongs to. */
export interface SignedIn {
  user: UserRow
  sessionId: string | undefined
}

export type Authenticate = (header: string | undefined) => Promise<SignedIn>

/** The account of a (user, session) pair, and the session's last use when it still exists. */
interface Account {
  user: UserRow | undefined
  /** Undefined: the session has ended (or the token has none). */
  lastUsedAt: Date | undefined
}

const NONE: Account = { user: undefined, lastUsedAt: undefined }
// How long the last uses heard wait to be written together: never on a request's way.
const TOUCH_DELAY_MS = 1_000

/**
 * Resolves a bearer header to its signed-in user and session, or throws UNAUTHORIZED. The account and
 * the session are read afresh for every request, never cached; the requests of one event-loop turn
 * read theirs in one query (a busy process otherwise spends a fifth of its time writing one tiny
 * query per request to the database's socket), so a revocation or an ended session counts from the
 * next turn. A session's last use is written at most every SESSION_TOUCH_INTERVAL_MS, batched, after
 * the answer: never a query on a request's way.
 */
export function createAuthenticator(
  db: Db,
  tokens: AccessTokens,
  { now = () => new Date(), onError = () => {} }: { now?: () => Date; onError?: (err: unknown) => void } = {},
): Authenticate {
  // Runs on every authenticated request: prepared once, so the SQL is neither rebuilt nor re-planned.
  // One row per user, or per (user, asked session of theirs): a user's other sessions never match.
  const accountsByIds = db
    .select({ user: users, sessionId: sessions.id, lastUsedAt: sessions.lastUsedAt })
    .from(users)
    .leftJoin(
      sessions,
      and(eq(sessions.userId, users.id), sql`${sessions.id} = any(${sql.placeholder('sids')}::uuid[])`),
    )
    .where(sql`${users.id} = any(${sql.placeholder('ids')}::uuid[])`)
    .prepare('auth_accounts_by_ids')
  // Keys are "userId" or "userId sessionId", both checked UUIDs.
  const accounts = new DataLoader<string, Account>(
    async (keys) => {
      const pairs = keys.map((key) => key.split(' ') as [string, string | undefined])
      const ids = [...new Set(pairs.map(([id]) => id))]
      const sids = [...new Set(pairs.flatMap(([, sid]) => (sid ? [sid] : [])))]
      // The ids passed the UUID test: an array literal of them is safe as it stands.
      const rows = await accountsByIds.execute({ ids: `{${ids.join(',')}}`, sids: `{${sids.join(',')}}` })
      const byUser = new Map(rows.map((row) => [row.user.id, row.user]))
      const bySession = new Map(rows.flatMap((row) => (row.sessionId ? [[row.sessionId, row]] : [])))
      return pairs.map(([id, sid]): Account => {
        const user = byUser.get(id)
        if (!user) return NONE
        return { user, lastUsedAt: sid ? (bySession.get(sid)?.lastUsedAt ?? undefined) : undefined }
      })
    },
    // Gathers every request of this turn (the next tick would take them one socket at a time).
    { cache: false, maxBatchSize: 500, batchScheduleFn: (dispatch) => setImmediate(dispatch) },
  )

  // Sessions whose last use is due to be written, and the one write that will take them all.
  const due = new Set<string>()
  let touching: NodeJS.Timeout | undefined
  const touch = (sessionId: string) => {
    due.add(sessionId)
    touching ??= setTimeout(() => {
      const ids = [...due]
      const at = now()
      touching = undefined
      db.update(sessions)
        .set({ lastUsedAt: at })
        .where(
          and(
            sql`${sessions.id} = any(${`{${ids.join(',')}}`}::uuid[])`,
            // Another process may have written it meanwhile.
            sql`${sessions.lastUsedAt} <= ${new Date(at.getTime() - SESSION_TOUCH_INTERVAL_MS)}`,
          ),
        )
        .then(
          () => undefined,
          (err) => onError(err),
        )
        .finally(() => {
          for (const id of ids) due.delete(id)
        })
    }, TOUCH_DELAY_MS)
    touching.unref()
  }

  return async (header) => {
    const match = header?.match(/^Bearer\s+(\S+)$/i)
    if (!match) throw unauthorized()
    const claims = await tokens.verify(match[1]!)
    if (!claims || !UUID.test(claims.sub) || (claims.sid !== undefined && !UUID.test(claims.sid)))
      throw unauthorized('Invalid or expired token')
    const sessionId = claims.sid?.toLowerCase()
    const { user, lastUsedAt } = await accounts.load(
      sessionId ? `${claims.sub.toLowerCase()} ${sessionId}` : claims.sub.toLowerCase(),
    )
    if (user?.status !== 'active') throw unauthorized('Invalid or expired token')
    // A new password (changed, reset by link or by an admin) bumps the version and so revokes every older token;
    // the answer says so, for the sign-in page to tell the user why.
    if (user.tokenVersion !== claims.tv) throw unauthorized(SESSION_REVOKED_MESSAGE)
    if (sessionId) {
      // Signed out (here or from another device): this token is done, and the sign-in page says why.
      if (!lastUsedAt) throw unauthorized(SESSION_ENDED_MESSAGE)
      if (now().getTime() - lastUsedAt.getTime() >= SESSION_TOUCH_INTERVAL_MS && !due.has(sessionId)) touch(sessionId)
    }
    // A token of no session was issued before sessions existed: it holds until it expires (decision 103).
    return { user, sessionId }
  }
}

/** Requires a valid token on every path that CONTRACT §2 does not list as public. */
export function requireAuth(authenticate: Authenticate): MiddlewareHandler<AppEnv> {
  const signedIn: MiddlewareHandler<AppEnv> = async (c, next) => {
    const { user, sessionId } = await authenticate(c.req.header('authorization'))
    c.set('user', user)
    c.set('sessionId', sessionId)
    return next()
  }
  // A public path passes without a promise of its own.
  return (c, next) => (isPublicPath(c.req.path) ? next() : signedIn(c, next))
}
