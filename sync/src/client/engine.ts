/**
 * The sync engine: queues mutations with their optimistic change, pushes them in order in batches,
 * pulls until up to date, and retries with exponential backoff and full jitter when the network or
 * the server fails. A refused mutation is never retried: it is rolled back and kept as a rejection.
 * Rounds never overlap (in this context, and across contexts through `exclusive`, a Web Lock in
 * the browser), and a round asked for while one runs happens right after it.
 */

import { v7 as uuidv7 } from 'uuid'
import { type HandledMutation, MAX_PUSH_BATCH, MUTATION_ARGS, type MutationInput } from '../protocol.ts'
import { type Actor, type LocalDb, readMeta, writeMeta } from './local-db.ts'
import { applyPulled, CURSOR_KEY, pendingEntries, recordMutation, rejectLocally, settleResults } from './replica.ts'
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
export const DEFAULT_PULL_LIMIT = 500
export const DEFAULT_INTERVAL_MS = 60_000
export const BACKOFF = { baseMs: 1000, maxMs: 60_000 } as const

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

export interface EngineOptions {
  db: LocalDb
  transport: Transport
  /** Who is signed in; mutations need someone. */
  actor: () => Actor | null
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
  async mutate<N extends HandledMutation>(name: N, input: MutationInput<N>): Promise<string> {
    const args = MUTATION_ARGS[name].parse(input)
    const actor = this.options.actor()
    if (!actor) throw new Error('Sign in to make changes')
    const id = (this.options.newId ?? uuidv7)()
    await recordMutation(this.db, { id, name, args, createdAt: new Date(this.now()).toISOString(), actor })
    void this.sync()
    return id
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

  private async pushAll(): Promise<void> {
    const clientId = await this.deviceId()
    let batchSize = Math.min(this.options.pushBatch ?? MAX_PUSH_BATCH, MAX_PUSH_BATCH)
    for (;;) {
      const batch = await pendingEntries(this.db, batchSize)
      if (batch.length === 0) return
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
            batchSize = 1
            continue
          }
          await rejectLocally(this.db, batch[0]!, err.code ?? 'VALIDATION_ERROR', err.message, this.isoNow())
          continue
        }
        throw err
      }
      await settleResults(this.db, answer.results, this.isoNow())
      if (answer.results.length < batch.length)
        throw new TransportError('server', 'The server answered part of a batch')
    }
  }

  private async pullAll(): Promise<void> {
    let cursor = await readMeta<string>(this.db, CURSOR_KEY)
    for (;;) {
      const page = await this.transport.pull(cursor, this.options.pullLimit ?? DEFAULT_PULL_LIMIT)
      await applyPulled(this.db, page)
      cursor = page.cursor
      if (!page.hasMore) return
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
