/**
 * Listens to `GET /api/stream` and asks for a pull on every event: `ready` (connected, so catch
 * up), `poke` and `resync`. Reconnects with backoff when the connection fails or ends; stops for
 * good on 401 (the session decides what happens next).
 */

import { EventSourceParserStream } from 'eventsource-parser/stream'
import { backoffDelay, type Timers } from './engine.ts'
import { TransportError } from './transport.ts'

export interface StreamOptions {
  /** Opens the stream (an authenticated fetch); throws TransportError or answers a Response. */
  open(signal: AbortSignal): Promise<Response>
  /** An event arrived: the device should pull. */
  onEvent(event: string, data: string): void
  /** Resolves once there is a network to connect over (default: at once). */
  whenOnline?: () => Promise<void>
  random?: () => number
  timers?: Timers
}

export interface LiveStream {
  stop(): void
}

export function startStream({ open, onEvent, whenOnline, random = Math.random, timers }: StreamOptions): LiveStream {
  const clock: Timers = timers ?? {
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  }
  const controller = new AbortController()
  let failures = 0
  let retry: unknown = null

  async function connect(): Promise<void> {
    if (controller.signal.aborted) return
    // Offline, a connection attempt can only fail: wait for the network first.
    await whenOnline?.()
    if (controller.signal.aborted) return
    try {
      const res = await open(controller.signal)
      if (res.status === 401) return
      if (!res.ok || !res.body) throw new TransportError('server', `stream answered ${res.status}`, res.status)
      const events = res.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream())
      const reader = events.getReader()
      for (;;) {
        const { value, done } = await reader.read()
        if (done) break
        failures = 0
        onEvent(value.event ?? 'message', value.data)
      }
    } catch (err) {
      if (controller.signal.aborted) return
      if (err instanceof TransportError && err.kind === 'auth') return
    }
    if (controller.signal.aborted) return
    // Ended or failed: come back, sooner the first time.
    const wait = Math.max(250, backoffDelay(failures, random))
    failures += 1
    retry = clock.setTimeout(() => void connect(), wait)
  }

  void connect()
  return {
    stop() {
      controller.abort()
      if (retry !== null) clock.clearTimeout(retry)
    },
  }
}
