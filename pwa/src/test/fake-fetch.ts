/** A scripted fetch for tests: answers by "METHOD /path", records every call. */

import { vi } from 'vitest'

export type Reply = Response | Error | ((call: FetchCall) => Response | Error | Promise<Response | Error>)

export interface FetchCall {
  method: string
  url: string
  headers: Record<string, string>
  body: unknown
  /** The fetch's priority, when one was asked for. */
  priority?: RequestPriority
}

export const json = (status: number, body: unknown): Response =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  })

/**
 * Each route holds a queue of replies, used in order; the last one repeats. An unscripted call fails
 * the test loudly rather than hanging.
 */
export function fakeFetch(routes: Record<string, Reply | Reply[]>) {
  const queues = new Map(
    Object.entries(routes).map(([key, value]) => [key, Array.isArray(value) ? [...value] : [value]]),
  )
  const calls: FetchCall[] = []
  const fn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    const method = init.method ?? 'GET'
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : (init.body ?? undefined)
    const call: FetchCall = { method, url, headers: { ...(init.headers as Record<string, string>) }, body }
    if (init.priority) call.priority = init.priority
    calls.push(call)
    const queue = queues.get(`${method} ${url}`)
    if (!queue || queue.length === 0) throw new Error(`Unexpected request: ${method} ${url}`)
    const next = queue.length > 1 ? queue.shift()! : queue[0]!
    const reply = typeof next === 'function' ? await next(call) : next
    if (reply instanceof Error) throw reply
    return reply.clone()
  })
  return {
    fetch: fn as unknown as typeof fetch,
    calls,
    callsTo: (key: string) => calls.filter((c) => `${c.method} ${c.url}` === key),
  }
}
