import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Backend, backends } from '../../testing/databases.ts'
import { readEvents } from '../../testing/events.ts'
import { createHarness, type Harness, PASSWORD } from '../../testing/harness.ts'
import { twoProcessesOnPostgres } from '../../testing/two-processes.ts'

/** A new chat message reaches the other members' open streams as a `chat_message` poke (CONTRACT §6). */

type Events = ReturnType<typeof readEvents>

/** The next poke for a chat message, skipping others; null when none comes in time. */
async function nextChatPoke(events: Events, timeoutMs: number) {
  const until = Date.now() + timeoutMs
  for (;;) {
    const event = await events.next(Math.max(1, until - Date.now()))
    if (!event) return null
    if (event.event === 'poke' && JSON.parse(event.data).entity === 'chat_message') return JSON.parse(event.data)
  }
}

describe.each(backends())('chat on the live stream on %s', (backend: Backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
  })
  afterAll(() => h?.close())

  test('a member with an open stream is poked when another member sends', async () => {
    const owner = await h.register()
    const member = await h.register()
    const buble = (await (await h.call('POST', '/api/bubles', { token: owner.token, body: { name: 'Chatty' } })).json())
      .id as string
    const { code } = await (
      await h.call('POST', `/api/bubles/${buble}/invites`, { token: owner.token, body: {} })
    ).json()
    await h.call('POST', `/api/bubles/invites/${code}/accept`, { token: member.token })
    const res = await h.call('GET', '/api/stream', { token: member.token })
    const events = readEvents(res)
    try {
      expect((await events.next())?.event).toBe('ready')
      const sent = await h.call('POST', `/api/chat/${buble}/messages`, { token: owner.token, body: { content: 'Hi' } })
      expect(sent.status).toBe(201)
      expect(await nextChatPoke(events, 2000)).toEqual({ buble_id: buble, entity: 'chat_message' })
    } finally {
      await events.close()
    }
  })
})

if (backends().includes('postgres')) {
  describe('chat across two API processes on one PostgreSQL', () => {
    const nodes = twoProcessesOnPostgres()

    const api = async (base: string, method: string, path: string, token?: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      return { status: res.status, json: (await res.json()) as Record<string, string> }
    }
    const register = async (name: string) =>
      (
        await api(nodes.a.url, 'POST', '/api/auth/register', undefined, {
          name,
          email: `chat-${uuidv7()}@example.com`,
          password: PASSWORD,
        })
      ).json.access_token as string

    test('a message sent on process A pokes a stream open on process B within a second', async () => {
      const owner = await register('Ann')
      const member = await register('Bo')
      const buble = (await api(nodes.a.url, 'POST', '/api/bubles', owner, { name: 'Across' })).json.id as string
      const { code } = (await api(nodes.a.url, 'POST', `/api/bubles/${buble}/invites`, owner, {})).json
      expect((await api(nodes.a.url, 'POST', `/api/bubles/invites/${code}/accept`, member)).status).toBe(200)
      const stream = await fetch(`${nodes.b.url}/api/stream`, { headers: { authorization: `Bearer ${member}` } })
      const events = readEvents(stream)
      try {
        expect((await events.next())?.event).toBe('ready')
        const sent = await api(nodes.a.url, 'POST', `/api/chat/${buble}/messages`, owner, { content: 'Across nodes' })
        expect(sent.status).toBe(201)
        expect(await nextChatPoke(events, 1000)).toEqual({ buble_id: buble, entity: 'chat_message' })
      } finally {
        await events.close()
      }
    })
  })
}
