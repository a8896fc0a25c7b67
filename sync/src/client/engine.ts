/**
 * The sync engine: queues mutations with their optimistic change, pushes them in order in batches,
 * pulls until up to date, and retries with exponential backoff and full jitter when the network or
 * the server fails. A refused mutation is never retried by itself: it is rolled back and kept as a
 * rejection, which the user may queue again (`retryRejected`, a new mutation) or discard. A batch
 * the server keeps failing (STRIKES server errors in a row) goes one by one, and the mutation that
 * fails alone as often is kept as rejected `INTERNAL`, so one mutation never blocks the queue.
 * Rounds never overlap (in this context, and across contexts through `exclusive`, a Web Lock in
 * the browser), and a round asked for while one runs happens right after it.
 */

import type { DeviceAuthor } from '@buble/shared/device-rows'
import { MUTATION_ARGS, type MutationInput, type MutationName } from '@buble/shared/mutations'
import { v7 as uuidv7 } from 'uuid'
import { INTERNAL_REJECTION, MAX_PULL_LIMIT, MAX_PUSH_BATCH } from '../protocol.ts'
import { type LocalDb, type OutboxEntry, readMeta, writeMeta } from './local-db.ts'
import {
  applyPulled,
  CURSOR_KEY,
  pendingEntries,
  recordMutation,
  rejectLocally,
  requeueRejection,
  settleResults,
} from './replica.ts'
import { type Transport, TransportError } from './transport.ts'

export type SyncState = 'idle' | 'syncing' | 'offline' | 'error' | 'signed-out'

export interface SyncStatus {
  state: SyncState
  /** When the device last finished a round with the server (ISO). */
  lastSyncedAt: string | null
  /** When the next attempt is due after a failure (ISO). */
  retryAt: string | null
  /** What went wrong last, for the status panel. */
  error: string | null
}

export const STATUS_KEY = 'status'
export const CLIENT_ID_KEY = 'clientId'
export const DEFAULT_INTERVAL_MS = 60_000
export const BACKOFF = { baseMs: 1000, maxMs: 60_000 } as const
/** Server errors in a row one batch may get before the engine looks for the mutation that causes them. */
export const STRIKES = 3
export const STRIKES_KEY = 'pushStrikes'

/**
 * What the device remembers of a batch the server keeps failing. Kept with the sync state, not in
 * memory, so that every tab and the service worker (each its own engine, one round at a time)
 * count together, and a reload does not start over.
 */
export interface PushStrikes {
  /** The ids of the batch that failed last, in order. */
  ids: string[]
  /** How many times in a row the server failed it. */
  count: number
  /** The batch that failed STRIKES times: its mutations go one by one until one fails alone. */
  suspects: string[]
}

const NO_STRIKES: PushStrikes = { ids: [], count: 0, suspects: [] }

/**
 * Whether a failure may be the batch's own doing: the server itself answered with an error (500,
 * say) or with an answer that cannot be read or is short. Not: no answer at all (offline, DNS,
 * refused, cut before any status), 503 (the database down, or the server's way of saying "later"),
 * 502 and 504 (a gateway that could not reach the server: a restart, a deploy), 408 and 429 (asked
 * to wait). Those never count against a mutation; they only wait, as any failure does.
 */
export function isServerFault(err: unknown): boolean {
  if (!(err instanceof TransportError) || err.kind !== 'server') return false
  if (err.status === undefined) return true
  // A 2xx whose body was cut off: the server did the work and answered; the retry comes back
  // duplicate, so it never counts against the batch (a lone mutation would be refused though saved).
  if (err.status >= 200 && err.status < 300) return false
  return ![408, 429, 502, 503, 504].includes(err.status)
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

export interface EngineOptions {
  db: LocalDb
  transport: Transport
  /** Who is signed in; mutations need someone. */
  actor: () => DeviceAuthor | null
  /** Runs a round alone among every context sharing this database (default: no lock). */
  exclusive?: <T>(fn: () => Promise<T>) => Promise<T>
  /** Called when the server could not be reached (the browser registers a background sync). */
  onUnreachable?: () => void
  /** Told of failures outside the protocol (the local database failing, say); rounds carry on. */
  onError?: (err: unknown) => void
  isOnline?: () => boolean
  now?: () => number
  random?: () => number
  timers?: Timers
  pullLimit?: number
  pushBatch?: number
  /** How often to pull without being asked (0: never). */
  intervalMs?: number
  newId?: () => string
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

/** Exponential backoff with full jitter: a random wait up to base·2^attempt, capped. */
export const backoffDelay = (attempt: number, random: () => number) =>
  Math.round(random() * Math.min(BACKOFF.maxMs, BACKOFF.baseMs * 2 ** attempt))

export class SyncEngine {
  private readonly db: LocalDb
  private readonly transport: Transport
  private readonly options: EngineOptions
  private readonly timers: Timers
  private readonly now: () => number
  private running: Promise<void> | null = null
  private again = false
  private stopped = false
  private failures = 0
  private retryTimer: unknown = null
  private intervalTimer: unknown = null
  private clientId: string | null = null

  constructor(options: EngineOptions) {
    this.options = options
    this.db = options.db
    this.transport = options.transport
    this.timers = options.timers ?? realTimers
    this.now = options.now ?? Date.now
  }

  /**
   * Checks the args, applies the change on the device and queues it, then starts a round.
   * Throws the schema's error for bad args; resolves with the mutation's id once it is stored.
   */
  async mutate<N extends MutationName>(name: N, input: MutationInput<N>): Promise<string> {
    const args = MUTATION_ARGS[name].parse(input)
    const actor = this.options.actor()
    if (!actor) throw new Error('Sign in to make changes')
    const id = (this.options.newId ?? uuidv7)()
    await recordMutation(this.db, { id, name, args, createdAt: new Date(this.now()).toISOString(), actor })
    void this.sync()
    return id
  }

  /**
   * Queues a refused change again as a new mutation (a new id, now, with its optimistic change
   * applied again) and removes it from the refusals; then starts a round. Resolves with the new
   * mutation's id, or null when the refusal is already gone. Throws the schema's error when what
   * it carried is no longer valid args (a refusal stored by another version of the app).
   */
  async retryRejected(rejectionId: string): Promise<string | null> {
    const rejection = await this.db.rejections.get(rejectionId)
    if (!rejection) return null
    const actor = this.options.actor()
    if (!actor) throw new Error('Sign in to make changes')
    const schema = MUTATION_ARGS[rejection.name] as { parse(input: unknown): unknown } | undefined
    if (!schema) throw new Error(`This version of the app cannot send ${rejection.name}`)
    const args = schema.parse(rejection.args)
    const id = (this.options.newId ?? uuidv7)()
    const queued = await requeueRejection(this.db, rejectionId, {
      id,
      name: rejection.name,
      args,
      createdAt: this.isoNow(),
      actor,
    })
    if (!queued) return null
    void this.sync()
    return id
  }

  /** Forgets a refused change (the user has copied what they needed, or does not want it). */
  async discardRejected(rejectionId: string): Promise<void> {
    await this.db.rejections.delete(rejectionId)
  }

  /** Pushes what is queued and pulls until up to date; resolves when this (or the running) round ends. */
  sync(): Promise<void> {
    if (this.stopped) return Promise.resolve()
    if (this.running) {
      this.again = true
      return this.running
    }
    this.running = (async () => {
      // Every request gets a round that starts after it was made, even when the current one fails.
      do {
        this.again = false
        await this.exclusive(() => this.round())
      } while (this.again && !this.stopped)
    })()
      // Callers fire and forget: a failure here (the database closed under a round, say) is reported, never thrown.
      .catch((err: unknown) => {
        if (!this.stopped) this.options.onError?.(err)
      })
      .finally(() => {
        this.running = null
      })
    return this.running
  }

  /** Resolves when no round is running (without asking for one). */
  settled(): Promise<void> {
    return this.running ?? Promise.resolve()
  }

  /** Starts syncing now and then on a timer. */
  start(): void {
    this.stopped = false
    const interval = this.options.intervalMs ?? DEFAULT_INTERVAL_MS
    if (interval > 0) {
      const tick = () => {
        this.intervalTimer = this.timers.setTimeout(() => {
          void this.sync()
          tick()
        }, interval)
      }
      tick()
    }
    void this.sync()
  }

  /** Stops timers and further rounds (a round already running finishes). */
  stop(): void {
    this.stopped = true
    if (this.retryTimer !== null) this.timers.clearTimeout(this.retryTimer)
    if (this.intervalTimer !== null) this.timers.clearTimeout(this.intervalTimer)
    this.retryTimer = null
    this.intervalTimer = null
  }

  async status(): Promise<SyncStatus> {
    return (
      (await readMeta<SyncStatus>(this.db, STATUS_KEY)) ?? {
        state: 'idle',
        lastSyncedAt: null,
        retryAt: null,
        error: null,
      }
    )
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.options.exclusive ? this.options.exclusive(fn) : fn()
  }

  private async setStatus(patch: Partial<SyncStatus>): Promise<void> {
    await writeMeta(this.db, STATUS_KEY, { ...(await this.status()), ...patch })
  }

  private async deviceId(): Promise<string> {
    if (this.clientId) return this.clientId
    let id = await readMeta<string>(this.db, CLIENT_ID_KEY)
    if (!id) {
      id = (this.options.newId ?? uuidv7)()
      await writeMeta(this.db, CLIENT_ID_KEY, id)
    }
    this.clientId = id
    return id
  }

  /** One push-then-pull; answers whether it reached the server. */
  private async round(): Promise<boolean> {
    if (this.options.isOnline && !this.options.isOnline()) {
      // The browser's `online` event asks for the next round.
      await this.setStatus({ state: 'offline' })
      this.options.onUnreachable?.()
      return false
    }
    try {
      await this.setStatus({ state: 'syncing' })
      await this.pushAll()
      await this.pullAll()
      this.failures = 0
      this.cancelRetry()
      await this.setStatus({
        state: 'idle',
        lastSyncedAt: new Date(this.now()).toISOString(),
        retryAt: null,
        error: null,
      })
      return true
    } catch (err) {
      await this.fail(err)
      return false
    }
  }

  /**
   * Pushes the queue in order, in full batches. After a 4xx for a whole batch the rest of the round
   * goes one by one and the mutation refused alone is rejected with that 4xx. After STRIKES server
   * errors for one batch (isServerFault) its mutations go one by one; the one that fails alone
   * STRIKES times is rejected `INTERNAL`, and full batches resume. Every other failure ends the
   * round, to be retried after a backoff.
   */
  private async pushAll(): Promise<void> {
    const clientId = await this.deviceId()
    const batchSize = Math.min(this.options.pushBatch ?? MAX_PUSH_BATCH, MAX_PUSH_BATCH)
    let oneByOne = false
    for (;;) {
      const pending = await pendingEntries(this.db, batchSize)
      const head = pending[0]
      let strikes = await this.strikes()
      if (!head) {
        if (strikes !== NO_STRIKES) await this.setStrikes(null)
        return
      }
      if (strikes.suspects.length > 0 && !strikes.suspects.includes(head.id)) {
        // Every suspect went through alone: the batch failed as a whole, none by itself.
        strikes = NO_STRIKES
        await this.setStrikes(null)
      }
      const batch = oneByOne || strikes.suspects.includes(head.id) ? [head] : pending
      let answer: Awaited<ReturnType<Transport['push']>>
      try {
        answer = await this.transport.push({
          clientId,
          mutations: batch.map(({ id, name, args, createdAt }) => ({
            id,
            name,
            args: args as Record<string, unknown>,
            createdAt,
          })),
        })
      } catch (err) {
        // The server refused the batch itself (too large, say): find the culprit one by one, and
        // refuse only that one, keeping what it carried.
        if (err instanceof TransportError && err.kind === 'client') {
          if (batch.length > 1) {
            oneByOne = true
            continue
          }
          await rejectLocally(this.db, batch[0]!, err.code ?? 'VALIDATION_ERROR', err.message, this.isoNow())
          continue
        }
        if (isServerFault(err) && (await this.strike(strikes, batch))) continue
        throw err
      }
      await settleResults(this.db, answer.results, this.isoNow())
      const answered = new Set(answer.results.map((result) => result.id))
      if (!batch.every((entry) => answered.has(entry.id))) {
        // What was answered is settled and the next batch starts after it; a batch answered not at
        // all is a server error against it.
        if (!batch.some((entry) => answered.has(entry.id)) && (await this.strike(strikes, batch))) continue
        throw new TransportError('server', 'The server answered part of a batch')
      }
      if (strikes.count > 0) await this.setStrikes({ ...strikes, ids: [], count: 0 })
    }
  }

  /**
   * Counts a server error against `batch`. The same batch is the one that failed last, or it with
   * mutations queued after it (the queue only grows at its end, and what failed is still in it);
   * any other batch starts a new count. Answers true when it found the culprit and rejected it, so
   * the queue goes on; false when the failure should end the round (and wait) as any other.
   */
  private async strike(last: PushStrikes, batch: OutboxEntry[]): Promise<boolean> {
    const ids = batch.map((entry) => entry.id)
    const same = last.ids.length > 0 && last.ids.length <= ids.length && last.ids.every((id, i) => ids[i] === id)
    const count = same ? last.count + 1 : 1
    if (count < STRIKES) {
      await this.setStrikes({ ...last, ids, count })
      return false
    }
    if (batch.length > 1) {
      // One by one from the next try: those that go through alone go, the culprit fails alone.
      await this.setStrikes({ ids: [], count: 0, suspects: ids })
      return false
    }
    await this.setStrikes({ ...last, ids, count })
    // Before blaming the mutation, the server must show it works otherwise: a server failing every
    // request (a 500 for a database it does not know is down) fails this pull too, and the round
    // waits; the next failure of this mutation asks again.
    await this.pullAll()
    await rejectLocally(this.db, batch[0]!, INTERNAL_REJECTION.code, INTERNAL_REJECTION.message, this.isoNow())
    await this.setStrikes(null)
    return true
  }

  private async strikes(): Promise<PushStrikes> {
    return (await readMeta<PushStrikes>(this.db, STRIKES_KEY)) ?? NO_STRIKES
  }

  private async setStrikes(strikes: PushStrikes | null): Promise<void> {
    if (strikes) await writeMeta(this.db, STRIKES_KEY, strikes)
    else await this.db.meta.delete(STRIKES_KEY)
  }

  /**
   * Pulls page after page, each applied (and its cursor stored) before the next. The next page is
   * asked for as soon as this one's cursor is known, while this one is written: the server reads
   * while the device writes. A page fetched ahead is applied only after the one before it; if that
   * fails, it is dropped, and the next round asks again from the stored cursor.
   */
  private async pullAll(): Promise<void> {
    const limit = this.options.pullLimit ?? MAX_PULL_LIMIT
    let next = this.transport.pull(await readMeta<string>(this.db, CURSOR_KEY), limit)
    for (;;) {
      const page = await next
      const ahead = page.hasMore ? this.transport.pull(page.cursor, limit) : null
      // Its failure is met when it is awaited, not reported as unhandled while this page is written.
      ahead?.catch(() => {})
      await applyPulled(this.db, page)
      if (!ahead) return
      next = ahead
    }
  }

  private async fail(err: unknown): Promise<void> {
    const kind = err instanceof TransportError ? err.kind : 'server'
    const message = err instanceof Error ? err.message : String(err)
    if (kind === 'auth') {
      // Nothing to retry until someone signs in again; the queue waits.
      this.cancelRetry()
      await this.setStatus({ state: 'signed-out', retryAt: null, error: message })
      return
    }
    if (kind === 'network') this.options.onUnreachable?.()
    const wait = Math.max(
      backoffDelay(this.failures, this.options.random ?? Math.random),
      err instanceof TransportError ? (err.retryAfterMs ?? 0) : 0,
    )
    this.failures += 1
    this.scheduleRetry(wait)
    await this.setStatus({
      state: kind === 'network' ? 'offline' : 'error',
      retryAt: new Date(this.now() + wait).toISOString(),
      error: message,
    })
  }

  private scheduleRetry(ms: number): void {
    this.cancelRetry()
    if (this.stopped) return
    this.retryTimer = this.timers.setTimeout(() => {
      this.retryTimer = null
      void this.sync()
    }, ms)
  }

  private cancelRetry(): void {
    if (this.retryTimer !== null) this.timers.clearTimeout(this.retryTimer)
    this.retryTimer = null
  }

  private isoNow(): string {
    return new Date(this.now()).toISOString()
  }
}
