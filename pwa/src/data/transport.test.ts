import { isServerFault } from '@buble/sync/client/engine'
import { TransportError } from '@buble/sync/client/transport'
import type { PushBody } from '@buble/sync/protocol'
import { beforeEach, expect, test, vi } from 'vitest'
import { createApiClient } from '../session/api-client.ts'
import { createSession } from '../session/session.ts'
import { fakeFetch, json, type Reply } from '../test/fake-fetch.ts'
import { alice } from '../test/fixtures.ts'
import { apiTransport } from './transport.ts'

const PUSH = 'POST /api/sync/push'
const body: PushBody = {
  clientId: 'device-1',
  mutations: [
    {
      id: '0190f5b4-2000-7000-8000-000000000001',
      name: 'invite.accept',
      args: { code: 'ABCDEFGH' },
      createdAt: '2026-11-23T10:00:00.000Z',
    },
  ],
}

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})

function transportAnswering(reply: Reply) {
  const server = fakeFetch({ [PUSH]: reply })
  const session = createSession({ storage: localStorage, fetch: server.fetch })
  session.signIn({ access_token: 'jwt', user: alice })
  return apiTransport(createApiClient({ session, fetch: server.fetch, redirectToLogin: () => {} }))
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure')
    },
    (err: unknown) => err as TransportError,
  )

test('a 503 with Retry-After (the database down) waits as asked and is not the batch’s fault', async () => {
  const down = new Response(JSON.stringify({ message: 'Service unavailable', code: 'SERVICE_UNAVAILABLE' }), {
    status: 503,
    headers: { 'Content-Type': 'application/json', 'Retry-After': '30' },
  })
  const err = await failureOf(transportAnswering(down).push(body))
  expect(err).toBeInstanceOf(TransportError)
  expect(err).toMatchObject({ kind: 'server', status: 503, code: 'SERVICE_UNAVAILABLE', retryAfterMs: 30_000 })
  expect(isServerFault(err)).toBe(false)
})

test('an answer cut off while it is read is the server’s failure, not the network’s, and never counted against the batch: the server did the work', async () => {
  const cut = () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"results":[{"id":'))
          controller.error(new TypeError('terminated'))
        },
      }),
      { status: 200, headers: { 'Content-Type': 'application/json' } },
    )
  const err = await failureOf(transportAnswering(cut).push(body))
  expect(err).toMatchObject({ kind: 'server', status: 200 })
  // Sent again as it is, it comes back duplicate (sync/src/client/engine.ts).
  expect(isServerFault(err)).toBe(false)
})

test('a 500 counts against the batch; no answer at all is the network', async () => {
  const failed = await failureOf(
    transportAnswering(json(500, { message: 'Internal server error', code: 'INTERNAL_ERROR' })).push(body),
  )
  expect(failed).toMatchObject({ kind: 'server', status: 500 })
  expect(isServerFault(failed)).toBe(true)

  const offline = await failureOf(transportAnswering(new TypeError('Failed to fetch')).push(body))
  expect(offline).toMatchObject({ kind: 'network' })
  expect(isServerFault(offline)).toBe(false)
})

test('a readable answer is checked and handed over', async () => {
  const answer = { results: [{ id: body.mutations[0]!.id, status: 'applied' }] }
  await expect(transportAnswering(json(200, answer)).push(body)).resolves.toEqual(answer)
})
