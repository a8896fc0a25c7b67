/**
 * Online-only data: what a screen asks the server for directly (admin, profile, donations, weather,
 * the events finder, a buble not on this device yet), and the writes made over REST. A write whose
 * answer concerns synced rows stores them here, so the device store is written only from data/.
 */

import type { Change } from '@buble/sync/protocol'
import { useCallback, useEffect, useRef, useState } from 'react'
import { ApiError, messageOf } from '../session/api-client.ts'
import { SessionError } from '../session/session.ts'
import { useDevice } from './data-context.tsx'
import { useOnline } from './sync-status.ts'

/** A query's state; `data` is the last answer while loading again or after a failure when the query keeps it. */
export type OnlineQuery<T> =
  | { status: 'loading'; data?: T; message?: undefined }
  | { status: 'failed'; data?: T; message: string }
  | { status: 'ready'; data: T; message?: undefined }

export type OnlineQueryResult<T> = OnlineQuery<T> & {
  /** Asks the server again. */
  reload(): void
  /** Changes the answer on screen after a write the server confirmed; only once it is ready. */
  update(change: (data: T) => T): void
}

export interface QueryOptions {
  /**
   * The text a failure shows: the server's message, else this text; or a function that chooses it
   * (null shows nothing and keeps the query as it was).
   */
  failure: string | ((err: unknown) => string | null)
  /** Offline, nothing is asked and this text shows; back online, the query runs again. No answer at all shows it too. */
  offline?: string
  /** The last answer stays on screen while loading again and after a failure. */
  keepData?: boolean
  /** A lost answer or a 5xx gets one more try; a refusal or an ended session would only fail again (spec part 2 §9). */
  retryOnce?: boolean
}

/** True when the session ended on this failure: the client is already moving to /login. */
export const sessionEnded = (err: unknown) =>
  err instanceof SessionError || (err instanceof ApiError && err.status === 401)

const worthRetrying = (err: unknown) => !(err instanceof SessionError) && !(err instanceof ApiError && err.status < 500)

// fetch rejects with a TypeError when no answer came at all.
const unanswered = (err: unknown) => err instanceof TypeError

/**
 * An online-only read. It loads when mounted, again whenever `key` changes or `reload` is called;
 * while `key` is null there is nothing to ask yet, and it stays loading. A load still running is
 * aborted when the key changes or the screen goes away, and its answer is dropped.
 */
export function useOnlineQuery<T>(
  key: string | null,
  load: (signal: AbortSignal) => Promise<T>,
  { failure, offline, keepData = false, retryOnce = false }: QueryOptions,
): OnlineQueryResult<T> {
  const online = useOnline()
  const offlineText = offline !== undefined && !online ? offline : null
  const [query, setQuery] = useState<OnlineQuery<T>>({ status: 'loading' })
  const [round, setRound] = useState(0)
  // The latest callbacks, so that a screen's inline functions do not start a load on every render.
  const latest = useRef({ load, failure, offline })
  latest.current = { load, failure, offline }

  // biome-ignore lint/correctness/useExhaustiveDependencies: `round` is how reload asks again.
  useEffect(() => {
    if (offlineText !== null) return setQuery({ status: 'failed', message: offlineText })
    if (key === null) return setQuery({ status: 'loading' })
    const controller = new AbortController()
    const kept = (current: OnlineQuery<T>) => (keepData ? current.data : undefined)
    setQuery((current) => ({ status: 'loading', data: kept(current) }))
    const attempt = async (): Promise<T> => {
      try {
        return await latest.current.load(controller.signal)
      } catch (err) {
        if (!retryOnce || controller.signal.aborted || !worthRetrying(err)) throw err
        return latest.current.load(controller.signal)
      }
    }
    attempt().then(
      (data) => {
        if (!controller.signal.aborted) setQuery({ status: 'ready', data })
      },
      (err: unknown) => {
        if (controller.signal.aborted) return
        const message = describe(err, latest.current.failure, latest.current.offline)
        if (message !== null) setQuery((current) => ({ status: 'failed', message, data: kept(current) }))
      },
    )
    return () => controller.abort()
  }, [key, round, offlineText, keepData, retryOnce])

  const reload = useCallback(() => setRound((n) => n + 1), [])
  const update = useCallback((change: (data: T) => T) => {
    setQuery((current) => (current.status === 'ready' ? { status: 'ready', data: change(current.data) } : current))
  }, [])
  return { ...query, reload, update }
}

function describe(err: unknown, failure: QueryOptions['failure'], offline: string | undefined): string | null {
  if (offline !== undefined && unanswered(err)) return offline
  return typeof failure === 'string' ? messageOf(err, failure) : failure(err)
}

/** Stores rows a REST answer carried, as a pull would, then pulls for whatever else changed with them. */
export function useRecord(): (changes: readonly Change[]) => Promise<void> {
  const device = useDevice()
  return useCallback(
    async (changes) => {
      if (changes.length > 0) await device.remember(changes)
      void device.engine.sync()
    },
    [device],
  )
}

export type Outcome<T> = { ok: true; value: T } | { ok: false }

/**
 * An online-only write made from a form: busy while it runs, and a failure turned into the text to
 * show (offline, or no answer at all: `offlineText`; else the server's message, else the fallback).
 */
export function useOnlineCall(offlineText: string) {
  const record = useRecord()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  /**
   * Makes `call`. A write that concerns synced rows says so with `synced`: true, or the rows its
   * answer carries, which are stored on the device at once; either way a pull brings the rest.
   */
  async function run<T>(
    call: () => Promise<T>,
    failure: string | ((err: unknown) => string),
    { synced }: { synced?: true | ((answer: T) => readonly Change[]) } = {},
  ): Promise<Outcome<T>> {
    setError(null)
    if (!navigator.onLine) {
      setError(offlineText)
      return { ok: false }
    }
    setBusy(true)
    try {
      const value = await call()
      if (synced) await record(synced === true ? [] : synced(value))
      return { ok: true, value }
    } catch (err) {
      setError(unanswered(err) ? offlineText : typeof failure === 'string' ? messageOf(err, failure) : failure(err))
      return { ok: false }
    } finally {
      setBusy(false)
    }
  }

  return { busy, error, setError, run }
}
