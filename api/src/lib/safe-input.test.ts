/**
 * Issue 18 §3: bad text and bad dates are a 400, never a 500. NUL and unpaired surrogates anywhere
 * (a field, a path, a query, a mutation), dates no database stores, and names made of nothing visible.
 */

import { BUBLE_MESSAGES } from '@buble/shared/bubles'
import { EVENT_MESSAGES } from '@buble/shared/events'
import { eq, sql } from 'drizzle-orm'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { appliedMutations, users } from '../db/schema.ts'
import { backends } from '../testing/databases.ts'
import { createHarness, type Harness, type TestResponse, uniqueEmail } from '../testing/harness.ts'
import { mutation, push } from '../testing/sync.ts'
import { rowsOf } from './sql-json.ts'

const NUL = 'a\u0000b'
const LONE = 'a\ud800b'

describe.each(backends())('bad text and dates on %s', (backend) => {
  let h: Harness
  let owner: { token: string; id: string; email: string }
  let admin: { token: string; id: string }
  let ids: { buble: string; post: string; event: string; poll: string; message: string }

  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
    owner = await h.register({ name: 'Nora Null' })
    admin = await h.register({ name: 'Ada Admin' })
    await h.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, admin.id))
    const made = async (res: TestResponse) => {
      expect(res.status, await res.clone().text()).toBe(201)
      return ((await res.json()) as { id: string }).id
    }
    const buble = await made(await h.call('POST', '/api/bubles', { token: owner.token, body: { name: 'Odd Text' } }))
    ids = {
      buble,
      post: await made(
        await h.call('POST', `/api/wall/${buble}/posts`, { token: owner.token, body: { content: 'hi' } }),
      ),
      event: await made(
        await h.call('POST', `/api/bubles/${buble}/events`, {
          token: owner.token,
          body: { title: 'Picnic', event_time: '2027-06-01T12:00:00Z' },
        }),
      ),
      poll: await made(
        await h.call('POST', `/api/bubles/${buble}/polls`, {
          token: owner.token,
          body: { question: 'Where?', options: ['here', 'there'] },
        }),
      ),
      message: await made(
        await h.call('POST', `/api/chat/${buble}/messages`, { token: owner.token, body: { content: 'hello' } }),
      ),
    }
  })
  afterAll(() => h?.close())

  const expect400 = async (res: TestResponse, message?: string) => {
    const text = await res.text()
    expect(res.status, text).toBe(400)
    const body = JSON.parse(text)
    expect(body.code).toBe('VALIDATION_ERROR')
    if (message) expect(body.message).toBe(message)
    return body
  }

  /** Each call with `text` placed where a user could put it. */
  const places: [string, (text: string) => Promise<TestResponse>][] = [
    [
      'post content',
      (t) => h.call('POST', `/api/wall/${ids.buble}/posts`, { token: owner.token, body: { content: t } }),
    ],
    ['post edit', (t) => h.call('PUT', `/api/wall/posts/${ids.post}`, { token: owner.token, body: { content: t } })],
    [
      'comment content',
      (t) => h.call('POST', `/api/wall/posts/${ids.post}/comments`, { token: owner.token, body: { content: t } }),
    ],
    [
      'chat text',
      (t) => h.call('POST', `/api/chat/${ids.buble}/messages`, { token: owner.token, body: { content: t } }),
    ],
    [
      'chat edit',
      (t) => h.call('PUT', `/api/chat/messages/${ids.message}`, { token: owner.token, body: { content: t } }),
    ],
    ['bio', (t) => h.call('PUT', '/api/users/profile', { token: owner.token, body: { bio: t } })],
    [
      'event description',
      (t) =>
        h.call('POST', `/api/bubles/${ids.buble}/events`, {
          token: owner.token,
          body: { title: 'Party', event_time: '2027-06-01T12:00:00Z', description: t },
        }),
    ],
    ['event location', (t) => h.call('PUT', `/api/events/${ids.event}`, { token: owner.token, body: { location: t } })],
    [
      'poll question',
      (t) =>
        h.call('POST', `/api/bubles/${ids.buble}/polls`, {
          token: owner.token,
          body: { question: t, options: ['a', 'b'] },
        }),
    ],
    [
      'poll option',
      (t) => h.call('PUT', `/api/polls/${ids.poll}`, { token: owner.token, body: { options: ['here', t] } }),
    ],
    [
      'pledge message',
      (t) =>
        h.call('POST', '/api/donations/pledge', {
          body: { name: 'Penny', email: 'penny@example.com', amount: 5, currency: 'EUR', message: t },
        }),
    ],
    ['login e-mail', (t) => h.call('POST', '/api/auth/login', { body: { email: `x${t}@example.com`, password: 'x' } })],
    [
      'forgot-password e-mail',
      (t) => h.call('POST', '/api/auth/forgot-password', { body: { email: `x${t}@example.com` } }),
    ],
    [
      'invite e-mail',
      (t) =>
        h.call('POST', `/api/bubles/${ids.buble}/invites`, { token: owner.token, body: { email: `x${t}@ex.com` } }),
    ],
    [
      'push unsubscribe endpoint',
      (t) =>
        h.call('DELETE', '/api/push/subscriptions', {
          token: owner.token,
          body: { endpoint: `https://push.example.com/${t}` },
        }),
    ],
    [
      'an admin write (recorded in the audit log)',
      (t) => h.call('PUT', `/api/admin/users/${owner.id}`, { token: admin.token, body: { bio: t } }),
    ],
    [
      'a key of a body',
      (t) => h.call('PUT', '/api/users/profile', { token: owner.token, body: { [t]: 1, bio: 'ok' } }),
    ],
  ]

  describe.each([
    ['a NUL', NUL],
    ['an unpaired surrogate', LONE],
  ])('%s', (_what, text) => {
    test.each(places)('in the %s is a 400, and nothing is written', async (_where, call) => {
      await expect400(await call(text))
    })
  })

  test.each([
    ['a buble id', () => h.call('GET', '/api/bubles/%00', { token: owner.token })],
    ['an invite code', () => h.call('POST', '/api/bubles/invites/%00/accept', { token: owner.token })],
    ['an id in a path', () => h.call('DELETE', `/api/wall/posts/${ids.post}%00`, { token: owner.token })],
    ['an admin search', () => h.call('GET', '/api/admin/users?search=%00', { token: admin.token })],
    [
      'an admin CSV export search',
      () => h.call('GET', '/api/admin/posts/export.csv?search=a%00', { token: admin.token }),
    ],
    [
      'a query value of another route',
      () => h.call('GET', `/api/wall/${ids.buble}/posts?page=1%00`, { token: owner.token }),
    ],
    [
      'a %-escape that does not decode',
      () => h.call('GET', '/api/admin/users?search=%E0%A4%A', { token: admin.token }),
    ],
    ['an escaped surrogate half', () => h.call('GET', '/api/bubles/%ED%A0%80', { token: owner.token })],
  ])('a NUL or a broken escape in %s is a 400', async (_where, call) => {
    await expect400(await call())
  })

  test('the text of the posts still reads back unchanged, and the post was not edited by the refused calls', async () => {
    const res = await h.call('GET', `/api/wall/${ids.buble}/posts`, { token: owner.token })
    const { posts } = await res.json()
    expect(posts.map((p: { content: string }) => p.content)).toEqual(['hi'])
  })

  test.each([
    ['the year 0', '0000-01-01T00:00:00Z'],
    ['the year 10000 once in UTC', '9999-12-31T23:59:59-14:00'],
    ['the year 10000', '+010000-01-01T00:00:00Z'],
  ])('an event at %s is a 400 by REST and rejected by sync', async (_what, eventTime) => {
    await expect400(
      await h.call('POST', `/api/bubles/${ids.buble}/events`, {
        token: owner.token,
        body: { title: 'Far off', event_time: eventTime },
      }),
    )
    const [result] = await push(h, owner.token, [
      mutation('event.create', { id: uuidv7(), buble_id: ids.buble, title: 'Far off', event_time: eventTime }),
    ])
    expect(result).toMatchObject({ status: 'rejected', code: 'VALIDATION_ERROR' })
    expect([EVENT_MESSAGES.timeOutOfRange, EVENT_MESSAGES.timeInvalid]).toContain(result!.message)
  })

  test('the last moments both databases store are accepted', async () => {
    for (const eventTime of ['0001-01-01T00:00:00Z', '9999-12-31T23:59:59Z']) {
      const res = await h.call('POST', `/api/bubles/${ids.buble}/events`, {
        token: owner.token,
        body: { title: 'Edge of time', event_time: eventTime },
      })
      expect(res.status, await res.clone().text()).toBe(201)
      expect((await res.json()).event_time).toBe(new Date(eventTime).toISOString())
    }
  })

  describe('in a push', () => {
    test('odd text in one mutation rejects it alone; its neighbours apply', async () => {
      const batch = [
        mutation('post.create', { id: uuidv7(), buble_id: ids.buble, content: 'fine before' }),
        mutation('post.create', { id: uuidv7(), buble_id: ids.buble, content: NUL }),
        mutation('chat.send', { id: uuidv7(), buble_id: ids.buble, content: LONE }),
        mutation('post.create', { id: uuidv7(), buble_id: ids.buble, content: 'fine after' }),
      ]
      const results = await push(h, owner.token, batch)
      expect(results.map((r) => [r.status, r.code])).toEqual([
        ['applied', undefined],
        ['rejected', 'VALIDATION_ERROR'],
        ['rejected', 'VALIDATION_ERROR'],
        ['applied', undefined],
      ])
      expect(results[1]!.message).toBe(
        'content contains a character that is not allowed (NUL or an unpaired surrogate)',
      )
    })

    test.each([
      ['a NUL', 'post.\u0000create'],
      ['an unpaired surrogate', 'post.create\udc00'],
      ['only odd characters', '\ud800'],
    ])(
      'a mutation name with %s is rejected as unknown, without echoing it, and stored as unknown',
      async (_what, name) => {
        const odd = mutation(name, { id: uuidv7(), buble_id: ids.buble, content: 'named oddly' })
        const fine = mutation('post.create', { id: uuidv7(), buble_id: ids.buble, content: 'named well' })
        const results = await push(h, owner.token, [odd, fine])
        expect(results[0]).toEqual({
          id: odd.id,
          status: 'rejected',
          code: 'UNKNOWN_MUTATION',
          message: 'Unknown mutation',
        })
        expect(results[1]!.status).toBe('applied')
        const [stored] = await h.database.db
          .select({ name: appliedMutations.name })
          .from(appliedMutations)
          .where(eq(appliedMutations.id, odd.id))
        expect(stored!.name).toBe('(unknown)')
      },
    )

    test.each([
      ['a NUL in clientId', { clientId: NUL }],
      ['an unpaired surrogate in clientId', { clientId: LONE }],
      ['a clientId of 129 characters', { clientId: 'c'.repeat(129) }],
      ['a NUL in createdAt', { createdAt: NUL }],
    ])('%s is a 400 for the batch, which writes nothing', async (_what, change) => {
      const m = { ...mutation('post.create', { id: uuidv7(), buble_id: ids.buble, content: 'never' }), ...change }
      const { clientId = 'device-1', ...rest } = m as typeof m & { clientId?: string }
      await expect400(
        await h.call('POST', '/api/sync/push', { token: owner.token, body: { clientId, mutations: [rest] } }),
      )
      const n = rowsOf<{ n: string }>(
        await h.database.db.execute(sql`select count(*) as n from posts where content = 'never'`),
      )
      expect(Number(n[0]!.n)).toBe(0)
    })
  })

  describe('names of nothing visible', () => {
    test.each([
      ['zero-width spaces', '\u200b\u200b\u200b'],
      ['a word joiner and a byte order mark', '\u2060\ufeff'],
      ['one letter among invisible ones', 'A\u200b\u00ad\u2060'],
      ['Hangul fillers', '\u3164\u3164'],
      ['tag characters', '\u{e0041}\u{e0042}'],
      ['line separators', '\u2028\u2029'],
    ])('a user name of %s is a 400', async (_what, name) => {
      await expect400(
        await h.call('POST', '/api/auth/register', {
          body: { name, email: uniqueEmail('blank'), password: 'Correct-Horse-9' },
        }),
      )
      await expect400(await h.call('PUT', '/api/users/profile', { token: owner.token, body: { name } }))
    })

    test.each([
      ['zero-width spaces', '\u200b\u200b', BUBLE_MESSAGES.nameRequired],
      ['one letter and a soft hyphen', 'Z\u00ad', BUBLE_MESSAGES.nameTooShort],
      ['one letter and a byte order mark', '\ufeffZ', BUBLE_MESSAGES.nameTooShort],
    ])('a buble name of %s is a 400', async (_what, name, message) => {
      await expect400(await h.call('POST', '/api/bubles', { token: owner.token, body: { name } }), message)
      await expect400(
        await h.call('PATCH', `/api/bubles/${ids.buble}`, { token: owner.token, body: { name } }),
        message,
      )
    })

    test('invisible characters are dropped from names that have enough visible ones; joiners inside an emoji stay', async () => {
      const res = await h.call('POST', '/api/bubles', {
        token: owner.token,
        body: { name: '\u200bBook\u2060 club\ufeff 👩\u200d💻' },
      })
      expect(res.status).toBe(201)
      expect((await res.json()).name).toBe('Book club 👩\u200d💻')
      const renamed = await h.call('PUT', '/api/users/profile', {
        token: owner.token,
        body: { name: '\u00adNora\u200b Null' },
      })
      expect(renamed.status).toBe(200)
      expect((await renamed.json()).name).toBe('Nora Null')
    })
  })

  test('the API still answers after all of the above', async () => {
    expect((await h.call('GET', '/api/health')).status).toBe(200)
    expect((await h.call('GET', '/api/bubles', { token: owner.token })).status).toBe(200)
  })
})
