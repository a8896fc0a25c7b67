/** The sync engine's transport in the app: the API client, so sync calls follow the same token rules as every call. */

import { kindOfStatus, type Transport, TransportError } from '@buble/sync/client/transport'
import { type PullResponse, PullResponse as PullSchema, type PushResponse, PushResponse as PushSchema } from '@buble/sync/protocol'
import { ApiError, type ApiClient } from '../session/api-client.ts'
import { SessionError } from '../session/session.ts'

/** What a failed call means to the engine. */
export function toTransportError(err: unknown): TransportError {
  if (err instanceof TransportError) return err
  if (err instanceof ApiError) return new TransportError(kindOfStatus(err.status), err.message, err.status, err.code)
  // The session ended (expired, refresh failed): the app is on its way to /login.
  if (err instanceof SessionError) return new TransportError('auth', err.message)
  // fetch rejects with a TypeError when there is no answer at all.
  if (err instanceof TypeError) return new TransportError('network', err.message)
  return new TransportError('server', err instanceof Error ? err.message : String(err))
}

async function guarded<T>(call: () => Promise<unknown>, schema: { safeParse(v: unknown): { success: boolean } }) {
  let answer: unknown
  try {
    answer = await call()
  } catch (err) {
    throw toTransportError(err)
  }
  if (!schema.safeParse(answer).success) throw new TransportError('server', 'Unexpected answer from the server')
  return answer as T
}

export function apiTransport(api: ApiClient): Transport {
  return {
    push: (body) => guarded<PushResponse>(() => api.request('/sync/push', { method: 'POST', json: body }), PushSchema),
    pull(cursor, limit) {
      const query = new URLSearchParams({ limit: String(limit) })
      if (cursor) query.set('cursor', cursor)
      return guarded<PullResponse>(() => api.get(`/sync/pull?${query}`), PullSchema)
    },
  }
}
