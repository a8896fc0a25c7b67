/** Reads a server-sent event stream in tests: each event in order, waiting for the next with a timeout. */

import { EventSourceParserStream } from 'eventsource-parser/stream'

export interface ServerEvent {
  event: string
  data: string
}

export interface EventReader {
  /** The next event, or null when the stream ended; fails after `timeoutMs`. */
  next(timeoutMs?: number): Promise<ServerEvent | null>
  /** Resolves with null if no event arrives within `ms` (and keeps that event for the next `next`). */
  quietFor(ms: number): Promise<ServerEvent | null>
  close(): Promise<void>
}

export function readEvents(response: Response): EventReader {
  if (!response.body) throw new Error('no body')
  const reader = response.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader()
  let pending: Promise<ServerEvent | null> | null = null
  const read = () => {
    pending ??= reader
      .read()
      .then(({ value, done }) => (done ? null : { event: value.event ?? 'message', data: value.data }))
    return pending
  }
  const take = async (timeoutMs: number, quiet: boolean) => {
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs)
    })
    const result = await Promise.race([read(), timeout])
    clearTimeout(timer)
    if (result === 'timeout') {
      if (quiet) return null
      throw new Error(`no event within ${timeoutMs} ms`)
    }
    pending = null
    return result
  }
  return {
    next: (timeoutMs = 5000) => take(timeoutMs, false),
    async quietFor(ms) {
      const event = await take(ms, true)
      if (event) pending = Promise.resolve(event)
      return event
    },
    async close() {
      await reader.cancel().catch(() => {})
    },
  }
}
