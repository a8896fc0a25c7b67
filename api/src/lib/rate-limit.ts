/**
 * Rate limits of CONTRACT §6 on rate-limiter-flexible's drizzle store: the counters live in the
 * database, so every API process sharing one PostgreSQL shares them too.
 */

import { and, eq, gt, sql } from 'drizzle-orm'
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible'
import type { Db, Executor } from '../db/client.ts'
import { rateLimits } from '../db/schema.ts'
import { openWriteTx } from '../db/write-scope.ts'
import { AppError } from './errors.ts'

const MINUTE = 60
const HOUR = 60 * MINUTE

const RULES = {
  loginFailuresPerIpEmail: { points: 10, duration: 15 * MINUTE },
  loginFailuresPerIp: { points: 100, duration: 15 * MINUTE },
  registerPerIp: { points: 10, duration: HOUR },
  emailActionPerEmail: { points: 5, duration: HOUR },
  emailActionPerIp: { points: 20, duration: HOUR },
  // Passkey sign-in challenges (decision 102): each is a row until answered or expired.
  passkeyOptionsPerIp: { points: 60, duration: 15 * MINUTE },
  pledgePerIp: { points: 10, duration: HOUR },
  // The public invite previews (a code, a registration link): a person opens a few; a guesser is stopped.
  invitePreviewPerIp: { points: 60, duration: 15 * MINUTE },
  // E-mail invites: no member can make Buble mail strangers by the hundred.
  inviteMailsPerUser: { points: 30, duration: HOUR },
  // A data export reads everything a member ever wrote: a few per hour is plenty for one person.
  dataExportsPerUser: { points: 5, duration: HOUR },
} as const

export type RateRule = keyof typeof RULES

export interface RateLimits {
  /** Counts one hit against each (rule, key); refuses with 429 once any is over its limit. */
  consume(...hits: [RateRule, string][]): Promise<void>
  /**
   * Counts one hit against each (rule, key) before the work it limits, each with one atomic upsert,
   * so requests in parallel can never slip under the limit together (a check first and a count
   * after the work let 30 parallel logins all through to the password check). Refuses with 429 once
   * any is over its limit, and then counts nothing: a refused request takes its hits back.
   */
  claim(...hits: [RateRule, string][]): Promise<void>
  /** Takes one hit back from each (rule, key): never below zero, and never from a window that has ended. */
  giveBack(...hits: [RateRule, string][]): Promise<void>
  /** Forgets a key, e.g. the failed logins of an address that has just signed in. */
  reset(rule: RateRule, key: string): Promise<void>
}

/** Whole seconds until a refused caller may try again (at least 1). */
export const retryAfterSeconds = (msBeforeNext: number) => Math.max(1, Math.ceil(msBeforeNext / 1000))

const tooMany = (msBeforeNext: number) =>
  new AppError('RATE_LIMITED', 'Too many requests. Please try again later.', undefined, {
    'Retry-After': String(retryAfterSeconds(msBeforeNext)),
  })

/**
 * The limiters' store: the write open in this async context when there is one (a mutation of a
 * push counts in the push's own transaction, and is taken back with it), else the database. Inside
 * a write, the root database is not ours to use (db/write-scope.ts).
 */
function storeOf(db: Db): Db {
  return new Proxy(db, {
    get(target, property) {
      const exec = openWriteTx<Executor>() ?? target
      const value = Reflect.get(exec, property)
      return typeof value === 'function' ? value.bind(exec) : value
    },
  })
}

export function createRateLimits(db: Db, enabled: boolean): RateLimits {
  if (!enabled)
    return { consume: async () => {}, claim: async () => {}, giveBack: async () => {}, reset: async () => {} }
  const store = storeOf(db)
  const limiters = Object.fromEntries(
    Object.entries(RULES).map(([name, rule]) => [
      name,
      new RateLimiterDrizzle({
        storeClient: store,
        schema: rateLimits,
        keyPrefix: name,
        clearExpiredByTimeout: false,
        ...rule,
      }),
    ]),
  ) as Record<RateRule, RateLimiterDrizzle>
  async function giveBack(...hits: [RateRule, string][]): Promise<void> {
    for (const [rule, key] of hits)
      await store
        .update(rateLimits)
        .set({ points: sql`${rateLimits.points} - 1` })
        .where(
          and(
            eq(rateLimits.key, limiters[rule].getKey(key)),
            gt(rateLimits.points, 0),
            gt(rateLimits.expire, new Date()),
          ),
        )
  }
  return {
    async consume(...hits) {
      for (const [rule, key] of hits) {
        try {
          await limiters[rule].consume(key)
        } catch (err) {
          if (err instanceof RateLimiterRes) throw tooMany(err.msBeforeNext)
          throw err
        }
      }
    },
    async claim(...hits) {
      const counted: [RateRule, string][] = []
      for (const hit of hits) {
        try {
          await limiters[hit[0]].consume(hit[1])
          counted.push(hit)
        } catch (err) {
          if (!(err instanceof RateLimiterRes)) throw err
          // The refused hit was counted too (the upsert is what decides): all go back.
          await giveBack(hit, ...counted)
          throw tooMany(err.msBeforeNext)
        }
      }
    },
    giveBack,
    async reset(rule, key) {
      await limiters[rule].delete(key)
    },
  }
}
