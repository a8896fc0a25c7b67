/** How the engine reaches the server, and how it tells failures apart (retry later, sign in again, or give up on a batch). */

import { type PullResponse, PullResponse as PullResponseSchema, type PushBody, PushResponse } from '../protocol.ts'

export interface Transport {
  push(body: PushBody): Promise<PushResponse>
  pull(cursor: string | undefined, limit: number): Promise<PullResponse>
}

export type FailureKind =
  /** No answer at all: offline, DNS, connection refused. Retry when back online. */
  | 'network'
  /** The server failed or asked to wait (5xx, 408, 429). Retry with backoff. */
  | 'server'
  /** The session is gone (401). Wait for a new sign-in. */
  | 'auth'
  /** The server refused the request itself (another 4xx). Retrying the same request will not help. */
  | 'client'

export class TransportError extends Error {
  override name = 'TransportError'
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly status?: number,
    readonly code?: string,
    readonly retryAfterMs?: number,
  ) {
    super(message)
  }
}

/** Classifies an HTTP status. */
export function kindOfStatus(status: number): FailureKind {
  if (status === 401) return 'auth'
  if (status === 408 || status === 429 || status >= 500) return 'server'
  return 'client'
}

/** Retry-After in milliseconds (seconds or an HTTP date), if present and sane. */
export function retryAfterOf(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined
  const seconds = Number(header)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const date = Date.parse(header)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

async function failure(res: Response): Promise<TransportError> {
  let body: { message?: unknown; code?: unknown } = {}
  try {
    body = (await res.json()) as typeof body
  } catch {
    // Not JSON (a proxy's error page): the status says enough.
  }
  return new TransportError(
    kindOfStatus(res.status),
    typeof body.message === 'string' ? body.message : `HTTP ${res.status}`,
    res.status,
    typeof body.code === 'string' ? body.code : undefined,
    retryAfterOf(res.headers.get('retry-after')),
  )
}

export interface FetchTransportOptions {
  /** Where the API lives, e.g. `https://buble.example` ('' for the same origin). */
  baseUrl: string
  /** The bearer token for each request; null when signed out. */
  token: () => string | null | Promise<string | null>
  fetch?: typeof fetch
}

/** A transport over fetch with a bearer token (Node tests, benchmarks, the service worker). */
export function createFetchTransport({ baseUrl, token, fetch: fetchFn = fetch }: FetchTransportOptions): Transport {
  async function call(path: string, init: RequestInit): Promise<unknown> {
    const bearer = await token()
    if (!bearer) throw new TransportError('auth', 'Not signed in')
    let res: Response
    try {
      res = await fetchFn(`${baseUrl}/api/sync${path}`, {
        ...init,
        headers: { ...init.headers, Authorization: `Bearer ${bearer}`, Accept: 'application/json' },
      })
    } catch (err) {
      throw new TransportError('network', err instanceof Error ? err.message : 'Network error')
    }
    if (!res.ok) throw await failure(res)
    try {
      return await res.json()
    } catch {
      throw new TransportError('server', 'Unreadable answer', res.status)
    }
  }
  const checked = <T>(parse: (value: unknown) => { success: boolean; data?: T }, value: unknown): T => {
    const result = parse(value)
    if (!result.success) throw new TransportError('server', 'Unexpected answer from the server')
    return result.data as T
  }
  return {
    async push(body) {
      const answer = await call('/push', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      })
      return checked((value) => PushResponse.safeParse(value), answer)
    },
    async pull(cursor, limit) {
      const query = new URLSearchParams({ limit: String(limit) })
      if (cursor) query.set('cursor', cursor)
      return checked((value) => PullResponseSchema.safeParse(value), await call(`/pull?${query}`, { method: 'GET' }))
    },
  }
}
