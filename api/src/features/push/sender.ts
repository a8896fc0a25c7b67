/**
 * Sends the Web Push of CONTRACT §5 when something new arrives in a buble: after the commit, to the
 * other members who have push on and the buble unmuted, each with their own unread counters. An
 * in-process queue sends with bounded concurrency through the guarded fetch (CONTRACT §7), retries
 * 5xx, 429 and network failures with exponential backoff and jitter, and deletes a subscription its
 * push service answers 404 or 410 for. Nothing here can block or fail the write: errors are logged.
 */

import { mentionPushTitle } from '@buble/shared/mentions'
import type { UnreadPush } from '@buble/shared/push'
import type { ContentType } from '@buble/shared/unread'
import { eq, sql } from 'drizzle-orm'
import webpush from 'web-push'
import type { Executor } from '../../db/client.ts'
import { pushSubscriptions } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import type { ContentAdded, ContentAddedBus, Mentioned } from '../../lib/content-added.ts'
import { readableTexts } from '../../lib/mentions.ts'
import { pgUuidArray } from '../../lib/sync-writes.ts'
import { pushAudiences, type Recipient } from './audiences.ts'
import { createDeliverer } from './delivery.ts'
import type { PushOptions } from './service.ts'

const MAX_QUEUED = 10_000
const MAX_RETRY_DELAY_MS = 5 * 60_000

interface Subscription {
  id: string
  endpoint: string
  p256dh: string
  auth: string
}

interface Job {
  subscription: Subscription
  payload: string
  attempt: number
}

/** A VAPID JWT is signed to live 12 hours (at most 24 allowed) and reused for 11. */
const VAPID_LIFETIME_S = 12 * 60 * 60
const VAPID_REUSE_MS = 11 * 60 * 60 * 1000
/** How long deliveries gather before their subscriptions are stamped in one UPDATE. */
const STAMP_DELAY_MS = 250

/** Push services take about 4 KB: a notification needs only the start of a long post. */
const clip = (text: string, max: number): string => {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`
}

/** Where a notification leads: the tab it counts on, or the buble with its chat panel open. */
const pathOf = (slug: string, contentType: ContentType): string =>
  contentType === 'chat' ? `/bubles/${slug}?chat=open` : `/bubles/${slug}/${contentType}`

/** Each member's unread counters in a buble, for the badge: what the unread feature gives (app.ts hands it over). */
export interface BadgeCounters {
  membersCounters(
    exec: Executor,
    bubleId: string,
    userIds: readonly string[],
  ): Promise<Map<string, Record<ContentType, number>>>
}

export type PushSender = ReturnType<typeof pushSender>

export function pushSender(
  deps: Pick<Deps, 'db' | 'database' | 'log' | 'now' | 'vapid'>,
  unread: BadgeCounters,
  bus: ContentAddedBus,
  options: PushOptions = {},
) {
  const { db, log, now, vapid } = deps
  const { retryBaseMs = 2000, maxAttempts = 4, concurrency = 4 } = options
  const deliverer = createDeliverer({ allowLoopback: options.allowLoopback === true, lookup: options.lookup }, log)
  const waiting: Job[] = []
  const timers = new Set<NodeJS.Timeout>()
  let running = 0
  let preparing = 0
  let closed = false
  /** Each buble's audience, kept until what it reads changes (audiences.ts). */
  const audiences = pushAudiences(deps)

  /** A text as its reader sees it: each mention with the member's name now (a read only when it mentions). */
  const readable = async (bubleId: string, text: string): Promise<string> =>
    (await readableTexts(db, bubleId, [text]))[0]!

  /** One payload per user, queued for each of their subscriptions. */
  async function send(
    added: Pick<ContentAdded, 'bubleId' | 'contentType'>,
    buble: { name: string; slug: string },
    rows: readonly Recipient[],
    text: (userId: string) => { title: string; body: string },
  ): Promise<void> {
    const byUser = new Map<string, Subscription[]>()
    for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row])
    const counters = await unread.membersCounters(db, added.bubleId, [...byUser.keys()])
    for (const [userId, subscriptions] of byUser) {
      const unreadNow = counters.get(userId)
      // Left the buble between the commit and now: nothing to tell them.
      if (!unreadNow) continue
      const { title, body } = text(userId)
      const payload: UnreadPush = {
        type: 'unread',
        buble_id: added.bubleId,
        buble_name: buble.name,
        contentType: added.contentType,
        title: clip(title, 100),
        body: clip(body, 200),
        url: pathOf(buble.slug, added.contentType),
        unread: unreadNow,
      }
      const json = JSON.stringify(payload)
      for (const { id, endpoint, p256dh, auth } of subscriptions)
        enqueue({ subscription: { id, endpoint, p256dh, auth }, payload: json, attempt: 1 })
    }
  }

  /**
   * The members a text mentions (decision 94): pushed even where they muted the buble, never when
   * their push is off altogether (or their account is not active), and never once they have left.
   */
  async function prepareMentions(mentioned: Mentioned): Promise<void> {
    const buble = await audiences.load(mentioned.bubleId)
    if (!buble) return
    const { rows } = (await db.execute(
      sql`select s.id, s.user_id, s.endpoint, s.p256dh, s.auth from push_subscriptions s
        join memberships m on m.user_id = s.user_id and m.buble_id = ${mentioned.bubleId}
        join users u on u.id = s.user_id
        where s.user_id = any(${pgUuidArray(mentioned.userIds)}) and s.user_id <> ${mentioned.actorId}
          and u.push_enabled and u.status = 'active'`,
    )) as unknown as { rows: Recipient[] }
    if (rows.length === 0) return
    const body = await readable(mentioned.bubleId, mentioned.body)
    const title = mentionPushTitle(mentioned.actorName, buble.name)
    await send(mentioned, buble, rows, () => ({ title, body }))
  }

  /** Everyone to tell and the payload each gets: the buble's audience (shared), then one statement for all their counters. */
  async function prepare(added: ContentAdded): Promise<void> {
    // A new member is in the audience of the push that announces them (other processes hear the
    // trigger's NOTIFY; here the change must not wait for it).
    if (added.contentType === 'members') audiences.forget()
    const buble = await audiences.load(added.bubleId)
    if (!buble) return
    // Never told of their own content; the members it mentions get the mention's push instead; an
    // event's reminder goes to its `recipients` only.
    const skipped = new Set([added.actorId, ...(added.mentioned ?? [])])
    const only = added.recipients && new Set(added.recipients)
    const rows = buble.subscriptions.filter(
      (subscription) => !skipped.has(subscription.user_id) && (!only || only.has(subscription.user_id)),
    )
    if (rows.length === 0) return
    const body = await readable(added.bubleId, added.body)
    await send(added, buble, rows, () => ({ title: added.title, body }))
  }

  function enqueue(job: Job): void {
    if (closed) return
    if (waiting.length >= MAX_QUEUED) {
      log.warn('push queue full; a push was dropped', { subscription: job.subscription.id })
      return
    }
    waiting.push(job)
    pump()
  }

  function pump(): void {
    while (!closed && running < concurrency && waiting.length > 0) {
      const job = waiting.shift() as Job
      running++
      deliver(job)
        .catch((err) => log.error('push delivery failed', { err, subscription: job.subscription.id }))
        .finally(() => {
          running--
          pump()
        })
    }
  }

  /** The VAPID `Authorization` of each push service (its origin), signed once per VAPID_REUSE_MS. */
  const vapidKept = new Map<string, { authorization: string; until: number }>()
  function vapidAuthorization(endpoint: string): string {
    const audience = new URL(endpoint).origin
    const kept = vapidKept.get(audience)
    if (kept && kept.until > Date.now()) return kept.authorization
    const expiration = Math.floor(Date.now() / 1000) + VAPID_LIFETIME_S
    const { Authorization } = webpush.getVapidHeaders(
      audience,
      vapid.subject,
      vapid.publicKey,
      vapid.privateKey,
      'aes128gcm',
      expiration,
    ) as { Authorization: string }
    vapidKept.set(audience, { authorization: Authorization, until: Date.now() + VAPID_REUSE_MS })
    return Authorization
  }

  /**
   * Subscriptions that took a push, stamped `last_success_at` together a moment later: one UPDATE
   * for a burst of pushes, not one commit each.
   */
  const succeeded = new Set<string>()
  let stampTimer: NodeJS.Timeout | undefined
  let stamping: Promise<void> | undefined
  function delivered(id: string): void {
    succeeded.add(id)
    if (!stampTimer) {
      stampTimer = setTimeout(() => void stampSucceeded(), STAMP_DELAY_MS)
      stampTimer.unref()
    }
  }
  async function stampSucceeded(): Promise<void> {
    clearTimeout(stampTimer)
    stampTimer = undefined
    const ids = [...succeeded]
    succeeded.clear()
    if (ids.length === 0) return
    // A stamp is only a note: rows another transaction holds (an account being deleted, a device
    // re-subscribing) are skipped, not waited for. Waiting, a stamp of many rows and a delete of many
    // could each hold what the other wants next: a deadlock that PostgreSQL would settle by failing one.
    const write = db
      .execute(
        sql`update push_subscriptions set last_success_at = ${now()} where id in (
          select id from push_subscriptions where id = any(${pgUuidArray(ids)}) for update skip locked)`,
      )
      .then(() => undefined)
      .catch((err) => {
        if (!closed) log.warn('could not stamp delivered push subscriptions', { err, subscriptions: ids.length })
      })
    stamping = write
    await write
    if (stamping === write) stamping = undefined
  }

  async function deliver(job: Job): Promise<void> {
    const { subscription } = job
    const outcome = await deliverer.deliver({
      endpoint: subscription.endpoint,
      p256dh: subscription.p256dh,
      auth: subscription.auth,
      payload: job.payload,
      authorization: vapidAuthorization(subscription.endpoint),
    })
    if ('failed' in outcome) {
      if (outcome.failed === 'retry') return retry(job, null, outcome.message)
      log.warn('push endpoint refused', { subscription: subscription.id, reason: outcome.message })
      return
    }
    const { status, retryAfter } = outcome
    if (status >= 200 && status < 300) {
      delivered(subscription.id)
      return
    }
    if (status === 404 || status === 410) {
      // The push service says this subscription is gone for good (the user unsubscribed, the browser forgot it).
      await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, subscription.id))
      audiences.forget()
      return
    }
    if (status === 429 || status >= 500) return retry(job, retryAfter, `status ${status}`)
    log.warn('push service refused a push', { subscription: subscription.id, status })
  }

  function retry(job: Job, retryAfter: string | null, why: string): void {
    if (job.attempt >= maxAttempts) {
      log.warn('push given up', { subscription: job.subscription.id, attempts: job.attempt, why })
      return
    }
    // Exponential backoff with full jitter in its upper half; a Retry-After asks for at least that long.
    const backoff = retryBaseMs * 2 ** (job.attempt - 1) * (0.5 + Math.random() / 2)
    const asked = retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) * 1000 : 0
    const delay = Math.min(MAX_RETRY_DELAY_MS, Math.max(backoff, asked))
    const timer = setTimeout(() => {
      timers.delete(timer)
      enqueue({ ...job, attempt: job.attempt + 1 })
    }, delay)
    timer.unref()
    timers.add(timer)
  }

  function preparation(work: Promise<void>, bubleId: string): void {
    preparing++
    work
      .catch((err) => {
        // Once closed, the database may be gone too: a preparation cut short is not a failure.
        if (!closed) log.error('push preparation failed', { err, bubleId })
      })
      .finally(() => {
        preparing--
      })
  }
  const stopContent = bus.listen((added) => {
    if (!closed) preparation(prepare(added), added.bubleId)
  })
  const stopMentions = bus.listenMentions((mentioned) => {
    if (!closed) preparation(prepareMentions(mentioned), mentioned.bubleId)
  })
  const stopListening = () => {
    stopContent()
    stopMentions()
  }

  return {
    /** Resolves once nothing is being prepared, queued, in flight or waiting for a retry (tests). */
    async idle(): Promise<void> {
      while (preparing > 0 || running > 0 || waiting.length > 0 || timers.size > 0)
        await new Promise((resolve) => setTimeout(resolve, 5))
      await stampSucceeded()
      await stamping
    },
    /** A subscription or a preference changed in this process: the next push reads its audience afresh. */
    audienceChanged: (): void => audiences.forget(),
    /** How many audience statements ran (tests). */
    audienceReads: (): number => audiences.reads(),
    /** Stops listening and drops what is queued (in-flight sends finish on their own). */
    close(): void {
      closed = true
      stopListening()
      void audiences.close()
      // What was delivered is still stamped, if the database is still there.
      void stampSucceeded()
      void deliverer.close()
      waiting.length = 0
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
    },
  }
}
