/** The sync engine's transport in the app: the API client, so sync calls follow the same token rules as every call. */

import { kindOfStatus, retryAfterOf, type Transport, TransportError } from '@buble/sync/client/transport'
import {
  type PullResponse,
  PullResponse as PullSchema,
  type PushResponse,
  PushResponse as PushSchema,
} from '@buble/sync/protocol'
import { type ApiClient, ApiError, type RequestOptions } from '../session/api-client.ts'
import { SessionError } from '../session/session.ts'

/** What a failed call means to the engine. */
export function toTransportError(err: unknown): TransportError {
  if (err instanceof TransportError) return err
  if (err instanceof ApiError)
    return new TransportError(kindOfStatus(err.status), err.message, err.status, err.code, retryAfterOf(err.retryAfter))
  // The session ended (expired, refresh failed): the app is on its way to /login.
  if (err instanceof SessionError) return new TransportError('auth', err.message)
  // fetch rejects with a TypeError when there is no answer at all.
  if (err instanceof TypeError) return new TransportError('network', err.message)
  return new TransportError('server', err instanceof Error ? err.message : String(err))
}

/**
 * One sync call and its checked answer. A body that breaks off while read, or is not JSON, is the
 * server's failure ('server', with the status it sent), not the network's: the server answered,
 * and the engine counts it against the batch (engine.ts `isServerFault`).
 */
async function call<T>(
  api: ApiClient,
  path: string,
  options: RequestOptions,
  schema: { safeParse(v: unknown): { success: boolean } },
): Promise<T> {
  let res: Response
  try {
    res = await api.exchange(path, options)
  } catch (err) {
    throw toTransportError(err)
  }
  let answer: unknown
  try {
    answer = JSON.parse(await res.text())
  } catch {
    throw new TransportError('server', 'Unreadable answer', res.status)
  }
  if (!schema.safeParse(answer).success) throw new TransportError('server', 'Unexpected answer from the server')
  return answer as T
}

export function apiTransport(api: ApiClient): Transport {
  return {
    push: (body) => call<PushResponse>(api, '/sync/push', { method: 'POST', json: body }, PushSchema),
    pull(cursor, limit) {
      const query = new URLSearchParams({ limit: String(limit) })
      if (cursor) query.set('cursor', cursor)
      return call<PullResponse>(api, `/sync/pull?${query}`, {}, PullSchema)
    },
  }
}
