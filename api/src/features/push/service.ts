/**
 * Web Push subscriptions and preferences (CONTRACT §5, §7): a device's subscription is stored only
 * when its endpoint is an https address whose every resolved address is public; a profile has one
 * global switch and a mute per buble, both read by the sender.
 */

import type { PushPreferences, PushSubscriptionBody } from '@buble/shared/push'
import { and, eq } from 'drizzle-orm'
import { v7 as uuidv7 } from 'uuid'
import { memberships, pushMutes, pushSubscriptions, users } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import type { UserRow } from '../../lib/accounts.ts'
import { conflict, validationError } from '../../lib/errors.ts'
import { requireMembership } from '../../lib/memberships.ts'
import { assertFetchableUrl, type Resolver, SafeFetchError } from '../../lib/safe-fetch.ts'

/** Options only code sets (tests): a local push service, a stub resolver, short retries. */
export interface PushOptions {
  /** Lets endpoints on 127.0.0.1 / ::1 (plain http included) be stored and reached; the app's `allowLoopbackFetch`. */
  allowLoopback?: boolean
  /** Resolves endpoint host names; defaults to the system resolver. */
  lookup?: Resolver
  /** The first retry's delay (default 2 s); each later one doubles, with jitter. */
  retryBaseMs?: number
  /** Tries per push, the first included (default 4). */
  maxAttempts?: number
  /** Pushes in flight at once (default 4). */
  concurrency?: number
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]'])
// An uncompressed P-256 point (65 bytes) and a 16-byte auth secret, base64url (RFC 8291).
const P256DH = /^[A-Za-z0-9_-]{86,87}={0,2}$/
const AUTH = /^[A-Za-z0-9_-]{22}={0,2}$/

const endpointError = (message: string) => validationError([{ path: ['endpoint'], message }])

export const PUSH_MESSAGES = {
  /** Says nothing of whose it is: the browser answers it by subscribing afresh, with a new endpoint. */
  endpointTaken: 'This push subscription cannot be used. Subscribe this device again.',
} as const

export type PushService = ReturnType<typeof pushService>

/** What the service tells the sender: a subscription or preference changed here (its kept audiences go at once). */
export interface PushServiceHooks {
  audienceChanged(): void
}

export function pushService(deps: Deps, options: PushOptions = {}, hooks: PushServiceHooks = { audienceChanged() {} }) {
  const { db, now } = deps
  const allowLoopback = options.allowLoopback === true

  /** CONTRACT §7: https only, and no address of the host loopback, private, link-local and the like. */
  async function checkEndpoint(endpoint: string): Promise<void> {
    // Plain http only to a local test push service, under the code-only loopback option.
    const scheme = URL.canParse(endpoint) ? new URL(endpoint) : null
    const localTest = allowLoopback && scheme?.protocol === 'http:' && LOOPBACK_HOSTS.has(scheme.hostname)
    if (scheme && scheme.protocol !== 'https:' && !localTest) throw endpointError('endpoint must be an https address')
    try {
      await assertFetchableUrl(endpoint, { allowLoopback, lookup: options.lookup })
    } catch (err) {
      if (!(err instanceof SafeFetchError)) throw err
      if (err.reason === 'scheme') throw endpointError('endpoint must be an https address')
      if (err.reason === 'url') throw endpointError('endpoint must be a valid https URL without credentials')
      throw endpointError(`endpoint must be a public push service: ${err.message}`)
    }
  }

  return {
    checkEndpoint,

    /**
     * Stores a device's subscription for the caller, or refreshes the keys of one they already hold.
     * An endpoint another user registered is a 409: it names one browser, and moving it (or sharing
     * it) would push one account's buble names and texts to whoever uses that browser now.
     */
    async subscribe(user: UserRow, body: PushSubscriptionBody): Promise<void> {
      const p256dh = body.keys.p256dh.replace(/=+$/, '')
      const auth = body.keys.auth.replace(/=+$/, '')
      if (
        !P256DH.test(p256dh) ||
        !Buffer.from(p256dh, 'base64url')
          .subarray(0, 1)
          .equals(Buffer.from([4]))
      )
        throw validationError([{ path: ['keys', 'p256dh'], message: 'keys.p256dh must be a P-256 public key' }])
      if (!AUTH.test(auth))
        throw validationError([{ path: ['keys', 'auth'], message: 'keys.auth must be a 16-byte secret' }])
      await checkEndpoint(body.endpoint)
      // One statement, so two accounts racing for one endpoint cannot both win: the update runs only
      // on the caller's own row, and no row back means the endpoint is someone else's.
      const stored = await db
        .insert(pushSubscriptions)
        .values({ id: uuidv7(), userId: user.id, endpoint: body.endpoint, p256dh, auth, createdAt: now() })
        .onConflictDoUpdate({
          target: pushSubscriptions.endpoint,
          set: { p256dh, auth, lastSuccessAt: null },
          setWhere: eq(pushSubscriptions.userId, user.id),
        })
        .returning({ id: pushSubscriptions.id })
      if (stored.length === 0) throw conflict(PUSH_MESSAGES.endpointTaken)
      hooks.audienceChanged()
    },

    /** Forgets one of the caller's subscriptions; someone else's endpoint is left alone. */
    async unsubscribe(user: UserRow, endpoint: string): Promise<void> {
      await db
        .delete(pushSubscriptions)
        .where(and(eq(pushSubscriptions.endpoint, endpoint), eq(pushSubscriptions.userId, user.id)))
      hooks.audienceChanged()
    },

    async preferences(user: UserRow): Promise<PushPreferences> {
      const [row] = await db.select({ enabled: users.pushEnabled }).from(users).where(eq(users.id, user.id)).limit(1)
      // Only bubles the caller still belongs to (a mute outlives leaving, harmlessly).
      const muted = await db
        .select({ bubleId: pushMutes.bubleId })
        .from(pushMutes)
        .innerJoin(
          memberships,
          and(eq(memberships.bubleId, pushMutes.bubleId), eq(memberships.userId, pushMutes.userId)),
        )
        .where(eq(pushMutes.userId, user.id))
      return { enabled: row?.enabled ?? true, muted: muted.map((m) => m.bubleId) }
    },

    /** The profile's global switch: off, nothing is pushed to any of the caller's devices. */
    async setEnabled(user: UserRow, enabled: boolean): Promise<PushPreferences> {
      await db.update(users).set({ pushEnabled: enabled }).where(eq(users.id, user.id))
      hooks.audienceChanged()
      return this.preferences(user)
    },

    /** Mutes or unmutes one buble for the caller; a buble they are not in is not found. */
    async setMuted(user: UserRow, bubleId: string, muted: boolean): Promise<{ buble_id: string; muted: boolean }> {
      await requireMembership(db, bubleId, user.id)
      if (muted) await db.insert(pushMutes).values({ userId: user.id, bubleId, createdAt: now() }).onConflictDoNothing()
      else await db.delete(pushMutes).where(and(eq(pushMutes.userId, user.id), eq(pushMutes.bubleId, bubleId)))
      hooks.audienceChanged()
      return { buble_id: bubleId, muted }
    },
  }
}
