/**
 * The sessions signed in to an account (decision 103): every sign-in opens one through `startSession`,
 * whose id the token carries (`sid`); a refresh or a password change keeps it going (`renewSession`);
 * ending one deletes its row (refused from the next request on) and tells every process's streams.
 */

import { SESSION_LIFETIME_MS } from '@buble/shared/constants'
import { and, eq, inArray, lt, ne, sql } from 'drizzle-orm'
import type { Context } from 'hono'
import UAParser from 'ua-parser-js'
import { v7 as uuidv7 } from 'uuid'
import type { Executor } from '../db/client.ts'
import { sessions } from '../db/schema.ts'
import { SYNC_CHANNEL } from './sync-writes.ts'
import type { AccessTokens } from './tokens.ts'

/** Where a sign-in came from, as the session list shows it. */
export interface SignInFrom {
  device: string | null
  browser: string | null
  place: string | null
}

const UNKNOWN: SignInFrom = { device: null, browser: null, place: null }
// A User-Agent longer than this is no browser's: parsing it would only cost time.
const MAX_USER_AGENT = 512
const MAX_PLACE = 80
const NOTIFY_CHUNK = 50

// ua-parser-js names of systems, as a member calls them.
const SYSTEMS: Readonly<Record<string, string>> = {
  'Mac OS': 'macOS',
  'Chrome OS': 'ChromeOS',
  Chromium_OS: 'ChromeOS',
}

/** "iPhone" / "iPad" for Apple's handhelds, else the system ("Android", "macOS", "Windows"); and the browser. */
export function describeUserAgent(userAgent: string | undefined): Pick<SignInFrom, 'device' | 'browser'> {
  if (!userAgent || userAgent.length > MAX_USER_AGENT) return { device: null, browser: null }
  const { browser, os, device } = new UAParser(userAgent).getResult()
  const model =
    device.vendor === 'Apple' && (device.model === 'iPhone' || device.model === 'iPad') ? device.model : null
  const system = os.name ? (SYSTEMS[os.name] ?? os.name) : null
  // "Mobile Safari", "Chrome Headless", "Mobile Firefox": the browser's own name is the one people know.
  const name = browser.name?.replace(/^Mobile /, '').replace(/ (Headless|WebView)$/, '') ?? null
  return { device: model ?? system, browser: name || null }
}

/** The place the operator's trusted headers name ("Stockholm, SE"), or null; nothing else is trusted. */
export function placeFrom(headers: Headers, placeHeaders: readonly string[]): string | null {
  const parts = placeHeaders
    .map((name) =>
      headers
        .get(name)
        ?.replace(/\p{Cc}/gu, '')
        .trim(),
    )
    // Cloudflare answers XX (unknown) and T1 (Tor) for places it does not know.
    .filter((value): value is string => !!value && value !== 'XX' && value !== 'T1')
  const place = parts.join(', ').slice(0, MAX_PLACE)
  return place || null
}

/** What a sign-in request says of its device and place: pass it to `startSession`. */
export function signInFrom(headers: Headers | undefined, placeHeaders: readonly string[]): SignInFrom {
  if (!headers) return UNKNOWN
  return { ...describeUserAgent(headers.get('user-agent') ?? undefined), place: placeFrom(headers, placeHeaders) }
}

/** `signInFrom` of a Hono request. */
export const signInFromRequest = (c: Context, placeHeaders: readonly string[]): SignInFrom =>
  signInFrom(c.req.raw.headers, placeHeaders)

/**
 * THE sign-in: opens a session for `user` and answers its token (any door that signs someone in:
 * password, registration, an invite's link, a passkey). `db` may be the caller's transaction.
 */
export async function startSession(
  db: Executor,
  tokens: AccessTokens,
  user: { id: string; tokenVersion: number },
  from: SignInFrom,
  now: Date,
): Promise<{ token: string; sessionId: string }> {
  const session = { id: uuidv7(), expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS) }
  await db.insert(sessions).values({
    id: session.id,
    userId: user.id,
    device: from.device,
    browser: from.browser,
    place: from.place,
    createdAt: now,
    lastUsedAt: now,
    expiresAt: session.expiresAt,
  })
  // The token's own expiry is read on the real clock (tokens.ts), which the row's matches outside tests.
  return { token: await tokens.sign(user, { id: session.id }), sessionId: session.id }
}

/**
 * A fresh token for the session `sessionId` (a refresh, a password change), which lives on for a
 * new lifetime; a token of no session (issued before sessions existed) is given a session now.
 * Answers null when the session has ended meanwhile.
 */
export async function renewSession(
  db: Executor,
  tokens: AccessTokens,
  user: { id: string; tokenVersion: number },
  sessionId: string | undefined,
  from: SignInFrom,
  now: Date,
): Promise<string | null> {
  if (!sessionId) return (await startSession(db, tokens, user, from, now)).token
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS)
  const [kept] = await db
    .update(sessions)
    .set({ expiresAt, lastUsedAt: now })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, user.id)))
    .returning({ id: sessions.id })
  return kept ? tokens.sign(user, { id: kept.id }) : null
}

/** The NOTIFY payload announcing that one session ended, on the pokes' channel (lib/change-bus.ts). */
export const sessionEndedPayload = (userId: string, sessionIds: readonly string[]): string =>
  JSON.stringify(sessionIds.map((session) => ({ revoked: userId, session })))

/**
 * Ends sessions of `userId`: `only` these (absent: all), `except` one. Deletes the rows, so their
 * tokens are refused from the next request on, and tells every process's streams of each, after the
 * commit (NOTIFY in `db`'s transaction). Answers the ids ended.
 */
export async function endSessions(
  db: Executor,
  userId: string,
  { only, except }: { only?: readonly string[]; except?: string | undefined } = {},
): Promise<string[]> {
  const conditions = [eq(sessions.userId, userId)]
  if (only) conditions.push(inArray(sessions.id, [...only]))
  if (except) conditions.push(ne(sessions.id, except))
  const ended = await db
    .delete(sessions)
    .where(and(...conditions))
    .returning({ id: sessions.id })
  const ids = ended.map((row) => row.id)
  // A NOTIFY payload holds under 8000 bytes: a long list goes in several.
  for (let at = 0; at < ids.length; at += NOTIFY_CHUNK)
    await db.execute(
      sql`select pg_notify(${SYNC_CHANNEL}, ${sessionEndedPayload(userId, ids.slice(at, at + NOTIFY_CHUNK))})`,
    )
  return ids
}

/** Deletes the sessions whose newest token has expired (a job's work). */
export async function deleteExpiredSessions(db: Executor, now: Date): Promise<number> {
  const gone = await db.delete(sessions).where(lt(sessions.expiresAt, now)).returning({ id: sessions.id })
  return gone.length
}
