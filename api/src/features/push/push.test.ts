import { eq } from 'drizzle-orm'
import { importJWK, jwtVerify } from 'jose'
import pg from 'pg'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { pushSubscriptions, users } from '../../db/schema.ts'
import { createScheduler } from '../../lib/jobs.ts'
import { createLogger } from '../../lib/log.ts'
import { backends, runElsewhere, type TestDatabase } from '../../testing/databases.ts'
import { createHarness, type Harness, uniqueEmail } from '../../testing/harness.ts'
import { decrypt, newDeviceKeys, startPushService } from '../../testing/push-service.ts'
import { PUSH_MESSAGES, pushService } from './service.ts'

/**
 * Web Push (CONTRACT §5, §7) against a local push service on 127.0.0.1 that checks the VAPID JWT
 * and decrypts the aes128gcm body (RFC 8291/8188) with the subscription's own private key.
 */

/** Checks `Authorization: vapid t=<JWT>, k=<key>` as a push service does: ES256 by our key, for this origin. */
async function verifyVapid(header: string | undefined, origin: string, publicKey: string, subject: string) {
  const match = header?.match(/^vapid t=([^,]+), k=(\S+)$/)
  expect(match, `Authorization: ${header}`).toBeTruthy()
  const [, jwt, k] = match!
  expect(k).toBe(publicKey)
  const point = Buffer.from(k!, 'base64url')
  const key = await importJWK(
    {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    'ES256',
  )
  const { payload, protectedHeader } = await jwtVerify(jwt!, key, { audience: origin, subject, algorithms: ['ES256'] })
  expect(protectedHeader.alg).toBe('ES256')
  const secondsLeft = (payload.exp ?? 0) - Date.now() / 1000
  expect(secondsLeft).toBeGreaterThan(0)
  expect(secondsLeft).toBeLessThanOrEqual(24 * 60 * 60)
}

type User = { token: string; id: string; name: string }

describe.each(backends())('web push on %s', (backend) => {
  let h: Harness
  let service: Awaited<ReturnType<typeof startPushService>>
  beforeAll(async () => {
    service = await startPushService()
    h = await createHarness(
      backend,
      { BUBLE_RATE_LIMITS: 'off' },
      { allowLoopbackFetch: true, push: { retryBaseMs: 5 } },
    )
  })
  afterAll(async () => {
    await h?.services.pushSending.idle()
    await h?.close()
    await service?.close()
  })
  beforeEach(() => {
    service.received.length = 0
  })

  const user = async (name: string): Promise<User> => {
    const [row] = await h.database.db
      .insert(users)
      .values({ id: uuidv7(), name, email: uniqueEmail('push'), createdAt: h.clock.now, updatedAt: h.clock.now })
      .returning()
    return { id: row!.id, name, token: await h.deps.tokens.sign(row!) }
  }
  const createBuble = async (owner: User, name: string): Promise<{ id: string; slug: string }> => {
    const res = await h.call('POST', '/api/bubles', { token: owner.token, body: { name } })
    expect(res.status).toBe(201)
    const json = await res.json()
    return { id: json.id, slug: json.slug }
  }
  const join = async (owner: User, joiner: User, bubleId: string) => {
    const invite = await h.call('POST', `/api/bubles/${bubleId}/invites`, { token: owner.token, body: {} })
    const { code } = await invite.json()
    expect((await h.call('POST', `/api/bubles/invites/${code}/accept`, { token: joiner.token })).status).toBe(200)
  }
  const subscribe = async (who: User, path: string) => {
    const device = newDeviceKeys()
    const endpoint = `${service.origin}${path}`
    const res = await h.call('POST', '/api/push/subscriptions', {
      token: who.token,
      body: { endpoint, keys: device.keys },
    })
    expect(res.status).toBe(201)
    return device
  }
  const post = async (who: User, bubleId: string, content: string) => {
    const res = await h.call('POST', `/api/wall/${bubleId}/posts`, { token: who.token, body: { content } })
    expect(res.status).toBe(201)
    await h.services.pushSending.idle()
  }
  const subscriptionOf = async (path: string) =>
    (
      await h.database.db
        .select()
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.endpoint, `${service.origin}${path}`))
    )[0]

  test("an event's reminder is pushed once, after the job's commit, only to the members going or maybe", async () => {
    const alice = await user('Alice')
    const bob = await user('Bob')
    const carol = await user('Carol')
    const buble = await createBuble(alice, 'Reminder Club')
    await join(alice, bob, buble.id)
    await join(alice, carol, buble.id)
    const start = new Date(h.clock.now.getTime() + 3 * 60 * 60_000)
    const created = await h.call('POST', `/api/bubles/${buble.id}/events`, {
      token: alice.token,
      body: { title: 'Book night', location: 'The library', event_time: start.toISOString() },
    })
    const event = await created.json()
    for (const [who, status] of [
      [alice, 'going'],
      [bob, 'maybe'],
      [carol, 'cant_go'],
    ] as const)
      await h.call('POST', `/api/events/${event.id}/rsvp`, { token: who.token, body: { status } })
    await h.call('PUT', '/api/users/calendar', { token: alice.token, body: { reminder: 'none' } })
    await h.services.pushSending.idle()
    await subscribe(alice, '/alice-r')
    const bobDevice = await subscribe(bob, '/bob-r')
    await subscribe(carol, '/carol-r')
    service.received.length = 0

    const job = h.services.jobs.find((j) => j.name === 'event-reminders')!
    const at = new Date(start.getTime() - 60 * 60_000)
    for (let run = 0; run < 2; run++) await createScheduler(h.database, [job], createLogger('silent')).runOnce(at)
    await h.services.pushSending.idle()

    expect(service.received.map((r) => r.path)).toEqual(['/bob-r'])
    expect(JSON.parse(decrypt(service.received[0]!.body, bobDevice))).toMatchObject({
      type: 'unread',
      buble_id: buble.id,
      contentType: 'events',
      title: 'Book night starts in 1 hour',
      body: 'Reminder Club · The library',
      url: `/bubles/${buble.slug}/events`,
    })
  })

  test('the VAPID public key is public', async () => {
    const res = await h.call('GET', '/api/push/vapid-public-key')
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 200,
      body: { publicKey: h.deps.vapid.publicKey },
    })
  })

  test('a new post pushes the other members a signed, encrypted payload with their counters; the author gets nothing', async () => {
    const alice = await user('Alice')
    const bob = await user('Bob')
    const buble = await createBuble(alice, 'Book Club')
    await join(alice, bob, buble.id)
    await h.services.pushSending.idle()
    await subscribe(alice, '/alice-1')
    const bobDevice = await subscribe(bob, '/bob-1')
    service.received.length = 0

    await post(alice, buble.id, 'Chapter 3 tonight')

    expect(service.received.map((r) => r.path)).toEqual(['/bob-1'])
    const [push] = service.received
    await verifyVapid(
      push!.headers.authorization as string,
      service.origin,
      h.deps.vapid.publicKey,
      'mailto:admin@localhost',
    )
    expect(push!.headers['content-encoding']).toBe('aes128gcm')
    expect(push!.headers.ttl).toBe('86400')
    expect(push!.headers.urgency).toBe('normal')
    expect(JSON.parse(decrypt(push!.body, bobDevice))).toEqual({
      type: 'unread',
      buble_id: buble.id,
      buble_name: 'Book Club',
      contentType: 'wall',
      title: 'Alice posted',
      body: 'Chapter 3 tonight',
      url: `/bubles/${buble.slug}/wall`,
      unread: { wall: 1, events: 0, polls: 0, members: 0, chat: 0, reports: 0 },
    })
    expect((await subscriptionOf('/bob-1'))?.lastSuccessAt).toBeInstanceOf(Date)
  })

  test('a new event, poll, member and chat message push too', async () => {
    const alice = await user('Alice')
    const bob = await user('Bob')
    const carol = await user('Carol')
    const buble = await createBuble(alice, 'Hikers')
    await join(alice, bob, buble.id)
    const bobDevice = await subscribe(bob, '/bob-2')
    service.received.length = 0

    const event = await h.call('POST', `/api/bubles/${buble.id}/events`, {
      token: alice.token,
      body: { title: 'Summit', event_time: new Date(h.clock.now.getTime() + 86_400_000).toISOString() },
    })
    expect(event.status).toBe(201)
    const poll = await h.call('POST', `/api/bubles/${buble.id}/polls`, {
      token: alice.token,
      body: { question: 'Which trail?', options: ['North', 'South'] },
    })
    expect(poll.status).toBe(201)
    await join(alice, carol, buble.id)
    await h.services.pushSending.idle()
    const message = await h.call('POST', `/api/chat/${buble.id}/messages`, {
      token: alice.token,
      body: { content: 'Boots on!' },
    })
    expect(message.status).toBe(201)
    await h.services.pushSending.idle()

    const payloads = service.received.map((r) => JSON.parse(decrypt(r.body, bobDevice)))
    expect(payloads.map((p) => [p.contentType, p.title, p.body, p.url])).toEqual([
      ['events', 'New event: Summit', 'Added by Alice', `/bubles/${buble.slug}/events`],
      ['polls', 'New poll: Which trail?', 'Added by Alice', `/bubles/${buble.slug}/polls`],
      ['members', 'Carol joined', 'Carol is a new member', `/bubles/${buble.slug}/members`],
      // A chat notification opens the buble with its chat panel.
      ['chat', 'Alice', 'Boots on!', `/bubles/${buble.slug}?chat=open`],
    ])
    expect(payloads.at(-1).unread).toEqual({ wall: 0, events: 1, polls: 1, members: 1, chat: 1, reports: 0 })
  })

  test('votes in a secret poll push nobody: the only push of the poll is its creation, naming no choice', async () => {
    const alice = await user('Alice')
    const bob = await user('Bob')
    const buble = await createBuble(alice, 'Ballot Club')
    await join(alice, bob, buble.id)
    // The join's own pushes leave first, or one could reach Alice's device after the count below starts.
    await h.services.pushSending.idle()
    const aliceDevice = await subscribe(alice, '/alice-secret')
    const bobDevice = await subscribe(bob, '/bob-secret')
    service.received.length = 0
    const created = await h.call('POST', `/api/bubles/${buble.id}/polls`, {
      token: alice.token,
      body: { question: 'Chair?', options: ['Ada', 'Bo'], secret: true, multiple: true },
    })
    expect(created.status).toBe(201)
    const poll = (await created.json()) as { id: string; options: { id: string }[] }
    await h.services.pushSending.idle()
    const afterCreate = service.received.length
    for (const [who, option] of [
      [bob, poll.options[0]!.id],
      [alice, poll.options[1]!.id],
    ] as const) {
      const voted = await h.call('POST', `/api/polls/${poll.id}/vote`, {
        token: who.token,
        body: { poll_option_id: option },
      })
      expect(voted.status).toBe(200)
    }
    await h.services.pushSending.idle()
    expect(service.received).toHaveLength(afterCreate)
    const payloads = service.received.map((r) => decrypt(r.body, r.path === '/bob-secret' ? bobDevice : aliceDevice))
    expect(payloads.map((p) => JSON.parse(p).title)).toEqual(['New poll: Chair?'])
    for (const payload of payloads) for (const option of poll.options) expect(payload).not.toContain(option.id)
  })

  test('chat messages sent at once in two bubles: each member is pushed once per message of another, with its buble', async () => {
    const alice = await user('Alice')
    const bob = await user('Bob')
    const carol = await user('Carol')
    const north = await createBuble(alice, 'North')
    const south = await createBuble(alice, 'South')
    await join(alice, bob, north.id)
    await join(alice, carol, south.id)
    await h.services.pushSending.idle()
    const devices = {
      '/alice-3': await subscribe(alice, '/alice-3'),
      '/bob-3': await subscribe(bob, '/bob-3'),
      '/carol-3': await subscribe(carol, '/carol-3'),
    }
    service.received.length = 0
    // Sent together, so the group commit writes them together and the sender reads both bubles' audiences at once.
    const sends: [User, string, string][] = [
      [bob, north.id, 'Hej North'],
      [alice, north.id, 'Hallå North'],
      [carol, south.id, 'Hej South'],
      [alice, south.id, 'Tja South'],
    ]
    const answers = await Promise.all(
      sends.map(([who, bubleId, content]) =>
        h.call('POST', `/api/chat/${bubleId}/messages`, { token: who.token, body: { content } }),
      ),
    )
    expect(answers.map((res) => res.status)).toEqual([201, 201, 201, 201])
    await h.services.pushSending.idle()
    const got = service.received
      .map((r) => {
        const payload = JSON.parse(decrypt(r.body, devices[r.path as keyof typeof devices]))
        return `${r.path} ${payload.buble_name}: ${payload.title} – ${payload.body}`
      })
      .sort()
    expect(got).toEqual([
      '/alice-3 North: Bob – Hej North',
      '/alice-3 South: Carol – Hej South',
      '/bob-3 North: Alice – Hallå North',
      '/carol-3 South: Alice – Tja South',
    ])
    // One push service: its VAPID JWT is signed once and reused, and still verifies.
    expect(new Set(service.received.map((r) => r.headers.authorization)).size).toBe(1)
    await verifyVapid(
      service.received[0]!.headers.authorization as string,
      service.origin,
      h.deps.vapid.publicKey,
      'mailto:admin@localhost',
    )
    // Every subscription that took a push is stamped (together, once the burst is over).
    for (const path of Object.keys(devices)) expect((await subscriptionOf(path))?.lastSuccessAt).toBeInstanceOf(Date)
  })

  test('a subscription answered 410 is deleted; a 5xx is retried and delivered once', async () => {
    const alice = await user('Alice')
    const bob = await user('Bob')
    const buble = await createBuble(alice, 'Choir')
    await join(alice, bob, buble.id)
    await subscribe(bob, '/gone')
    const flakyDevice = await subscribe(bob, '/flaky')
    service.answer('/gone', 410)
    service.answer('/flaky', 503, 502)
    service.received.length = 0

    await post(alice, buble.id, 'Rehearsal moved')

    expect(await subscriptionOf('/gone')).toBeUndefined()
    expect(service.received.filter((r) => r.path === '/gone').map((r) => r.status)).toEqual([410])
    const flaky = service.received.filter((r) => r.path === '/flaky')
    expect(flaky.map((r) => r.status)).toEqual([503, 502, 201])
    // Each try is encrypted afresh, and each decrypts to the same payload.
    expect(new Set(flaky.map((r) => JSON.parse(decrypt(r.body, flakyDevice)).body))).toEqual(
      new Set(['Rehearsal moved']),
    )
    expect((await subscriptionOf('/flaky'))?.lastSuccessAt).toBeInstanceOf(Date)
    // The deleted subscription has left the buble's kept audience too.
    service.received.length = 0
    await post(alice, buble.id, 'Rehearsal moved again')
    expect(service.received.map((r) => r.path)).toEqual(['/flaky'])
  })

  // Two connections at once: PostgreSQL only (PGlite has one).
  if (backend === 'postgres')
    test('delivered subscriptions another transaction holds are skipped by the stamp, never waited for', async () => {
      const alice = await user('Alice')
      const bob = await user('Bob')
      const buble = await createBuble(alice, 'Held')
      await join(alice, bob, buble.id)
      await subscribe(bob, '/held')
      await subscribe(bob, '/free')
      // Another transaction (an account deletion, say) holds one of the rows the stamp will want.
      const holder = new pg.Client({ connectionString: (h.database as TestDatabase).url })
      await holder.connect()
      try {
        await holder.query('begin')
        await holder.query('select id from push_subscriptions where endpoint = $1 for update', [
          `${service.origin}/held`,
        ])
        service.received.length = 0
        // post() waits until the stamp is written: had it waited for the held row, this would never end.
        await post(alice, buble.id, 'Both delivered')
        expect(service.received.map((r) => r.path).sort()).toEqual(['/free', '/held'])
        expect((await subscriptionOf('/free'))?.lastSuccessAt).toBeInstanceOf(Date)
        expect((await subscriptionOf('/held'))?.lastSuccessAt).toBeNull()
      } finally {
        await holder.query('rollback')
        await holder.end()
      }
    })

  test('a push service that keeps failing is given up after a few tries, and the write never noticed', async () => {
    const alice = await user('Alice')
    const bob = await user('Bob')
    const buble = await createBuble(alice, 'Quiet')
    await join(alice, bob, buble.id)
    await subscribe(bob, '/down')
    service.answer('/down', 500, 500, 500, 500, 500, 500)
    service.received.length = 0

    await post(alice, buble.id, 'Anyone?')

    expect(service.received.filter((r) => r.path === '/down')).toHaveLength(4)
    expect(await subscriptionOf('/down')).toBeDefined()
  })

  test('a muted buble and push turned off send nothing; preferences answer both', async () => {
    const alice = await user('Alice')
    const bob = await user('Bob')
    const buble = await createBuble(alice, 'Garden')
    const other = await createBuble(alice, 'Other')
    await join(alice, bob, buble.id)
    await subscribe(bob, '/bob-muted')
    service.received.length = 0

    const mute = await h.call('PUT', `/api/push/mutes/${buble.id}`, { token: bob.token, body: { muted: true } })
    expect({ status: mute.status, body: await mute.json() }).toEqual({
      status: 200,
      body: { buble_id: buble.id, muted: true },
    })
    expect(await (await h.call('GET', '/api/push/preferences', { token: bob.token })).json()).toEqual({
      enabled: true,
      muted: [buble.id],
    })
    await post(alice, buble.id, 'Muted one')
    expect(service.received).toEqual([])

    await h.call('PUT', `/api/push/mutes/${buble.id}`, { token: bob.token, body: { muted: false } })
    const off = await h.call('PUT', '/api/push/preferences', { token: bob.token, body: { enabled: false } })
    expect(await off.json()).toEqual({ enabled: false, muted: [] })
    await post(alice, buble.id, 'Nobody hears this')
    expect(service.received).toEqual([])

    await h.call('PUT', '/api/push/preferences', { token: bob.token, body: { enabled: true } })
    await post(alice, buble.id, 'Back on')
    expect(service.received.map((r) => r.path)).toEqual(['/bob-muted'])

    // A buble the caller is not in is not found.
    const notMine = await h.call('PUT', `/api/push/mutes/${other.id}`, { token: bob.token, body: { muted: true } })
    expect(notMine.status).toBe(404)
    expect((await notMine.json()).code).toBe('NOT_FOUND')
  })

  /** Plain SQL from another connection: another process, as far as the app can tell. */
  const sqlElsewhere = (...statements: string[]) => runElsewhere(h.database as TestDatabase, ...statements)
  const AUDIENCE_TRIGGERS = [
    ['users', 'users_audience_changed'],
    ['memberships', 'memberships_audience_changed'],
    ['push_subscriptions', 'push_subscriptions_audience_changed'],
    ['push_mutes', 'push_mutes_audience_changed'],
    ['bubles', 'bubles_audience_changed'],
  ] as const
  const triggers = (on: boolean) =>
    sqlElsewhere(
      ...AUDIENCE_TRIGGERS.map(([table, name]) => `alter table ${table} ${on ? 'enable' : 'disable'} trigger ${name}`),
    )
  /** Lets the NOTIFYs of the writes before it arrive: one arriving late would drop what the next push keeps. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 500))
  const soon = { timeout: 5000, interval: 50 }
  const audienceReads = () => h.services.pushSending.audienceReads()
  /**
   * Posts until a post is pushed from the kept audience (no read): by then the NOTIFYs of the writes
   * before have been heard, rather than hoped heard after a pause. Answers the reads so far.
   */
  const steady = async (author: User, bubleId: string): Promise<number> => {
    await expect
      .poll(async () => {
        const before = audienceReads()
        await post(author, bubleId, 'Settling')
        return audienceReads() - before
      }, soon)
      .toBe(0)
    return audienceReads()
  }

  test("a buble's audience is read once and kept until a write to what it reads is heard, from any connection", async () => {
    const alice = await user('Alice')
    const bob = await user('Bob')
    const buble = await createBuble(alice, 'Kept')
    await join(alice, bob, buble.id)
    await subscribe(bob, '/kept-bob')
    const reads = await steady(alice, buble.id)
    service.received.length = 0

    await post(alice, buble.id, 'Two')
    await post(alice, buble.id, 'Three')
    expect(service.received.map((r) => r.path)).toEqual(['/kept-bob', '/kept-bob'])
    expect(audienceReads()).toBe(reads)

    // Push turned off behind the app's back with the trigger off: nothing tells the app, so the kept
    // audience still holds Bob. (The safety net: it would be read again within minutes.)
    await sqlElsewhere(
      'alter table users disable trigger users_audience_changed',
      `update users set push_enabled = false where id = '${bob.id}'`,
      'alter table users enable trigger users_audience_changed',
    )
    service.received.length = 0
    await post(alice, buble.id, 'Four')
    expect(service.received.map((r) => r.path)).toEqual(['/kept-bob'])

    // Any statement on a table the audience reads is heard by every process, even one touching no row.
    await sqlElsewhere('update push_mutes set user_id = user_id where false')
    await expect
      .poll(async () => {
        service.received.length = 0
        await post(alice, buble.id, 'Five')
        return service.received.length
      }, soon)
      .toBe(0)
    expect(audienceReads()).toBeGreaterThan(reads)

    // A stamp (delivered pushes, a buble's newest version) sets no column the audience reads: kept.
    await sqlElsewhere(`update users set push_enabled = true where id = '${bob.id}'`)
    const keptReads = await steady(alice, buble.id)
    await sqlElsewhere(
      `update push_subscriptions set last_success_at = now() where user_id = '${bob.id}'`,
      `update bubles set changed_version = changed_version where id = '${buble.id}'`,
    )
    // Time for a NOTIFY that should not come.
    await settle()
    await post(alice, buble.id, 'Seven')
    expect(audienceReads()).toBe(keptReads)

    // A rename from elsewhere shows in the next pushes' buble_name.
    const bobDevice = await subscribe(bob, '/kept-bob-2')
    await sqlElsewhere(`update bubles set name = 'Kept Renamed' where id = '${buble.id}'`)
    await expect
      .poll(async () => {
        service.received.length = 0
        await post(alice, buble.id, 'Eight')
        const mine = service.received.find((r) => r.path === '/kept-bob-2')
        return mine && JSON.parse(decrypt(mine.body, bobDevice)).buble_name
      }, soon)
      .toBe('Kept Renamed')
  })

  test("this process's own changes reach the very next push, without waiting for a NOTIFY", async () => {
    const alice = await user('Alice')
    const bob = await user('Bob')
    const carol = await user('Carol')
    const buble = await createBuble(alice, 'Direct')
    await join(alice, bob, buble.id)
    await h.services.pushSending.idle()
    await settle()
    // With every trigger off only the app's own forgetting can show a change.
    await triggers(false)
    try {
      const paths = async (content: string) => {
        service.received.length = 0
        await post(alice, buble.id, content)
        return service.received.map((r) => r.path).sort()
      }
      expect(await paths('Nobody subscribed')).toEqual([])
      await subscribe(bob, '/direct-bob')
      expect(await paths('Subscribed')).toEqual(['/direct-bob'])
      await h.call('PUT', `/api/push/mutes/${buble.id}`, { token: bob.token, body: { muted: true } })
      expect(await paths('Muted')).toEqual([])
      await h.call('PUT', `/api/push/mutes/${buble.id}`, { token: bob.token, body: { muted: false } })
      expect(await paths('Unmuted')).toEqual(['/direct-bob'])
      await h.call('PUT', '/api/push/preferences', { token: bob.token, body: { enabled: false } })
      expect(await paths('Off')).toEqual([])
      await h.call('PUT', '/api/push/preferences', { token: bob.token, body: { enabled: true } })
      expect(await paths('On')).toEqual(['/direct-bob'])
      // Carol subscribes before she is a member; her joining is what puts her in the audience.
      await subscribe(carol, '/direct-carol')
      expect(await paths('Before Carol')).toEqual(['/direct-bob'])
      await join(alice, carol, buble.id)
      await h.services.pushSending.idle()
      expect(await paths('With Carol')).toEqual(['/direct-bob', '/direct-carol'])
      const gone = await h.call('DELETE', '/api/push/subscriptions', {
        token: bob.token,
        body: { endpoint: `${service.origin}/direct-bob` },
      })
      expect(gone.status).toBe(204)
      expect(await paths('Bob unsubscribed')).toEqual(['/direct-carol'])
      // Someone who left is never pushed, kept audience or not: each push reads who is a member now.
      const left = await h.call('DELETE', `/api/bubles/${buble.id}/members/${carol.id}`, { token: carol.token })
      expect(left.status).toBe(204)
      expect(await paths('Carol left')).toEqual([])
    } finally {
      await triggers(true)
    }
  })

  test('unsubscribing removes only your own subscription', async () => {
    const bob = await user('Bob')
    const carol = await user('Carol')
    await subscribe(bob, '/bob-4')
    const endpoint = `${service.origin}/bob-4`
    const theirs = await h.call('DELETE', '/api/push/subscriptions', { token: carol.token, body: { endpoint } })
    expect(theirs.status).toBe(204)
    expect(await subscriptionOf('/bob-4')).toBeDefined()
    const mine = await h.call('DELETE', '/api/push/subscriptions', { token: bob.token, body: { endpoint } })
    expect(mine.status).toBe(204)
    expect(await subscriptionOf('/bob-4')).toBeUndefined()
  })

  test('an endpoint another user registered is a 409 that names no one, and stays theirs; its owner may refresh its keys', async () => {
    const alice = await user('Alice')
    const bob = await user('Bob')
    const carol = await user('Carol')
    const buble = await createBuble(alice, 'Secret Garden')
    await join(alice, bob, buble.id)
    await join(alice, carol, buble.id)
    await h.services.pushSending.idle()
    await subscribe(bob, '/shared-1')
    const endpoint = `${service.origin}/shared-1`
    const before = await subscriptionOf('/shared-1')

    // Carol, now using Bob's browser, sends the endpoint it still holds.
    const taken = await h.call('POST', '/api/push/subscriptions', {
      token: carol.token,
      body: { endpoint, keys: newDeviceKeys().keys },
    })
    const refusal = await taken.json()
    expect({ status: taken.status, body: refusal }).toEqual({
      status: 409,
      body: { code: 'CONFLICT', message: PUSH_MESSAGES.endpointTaken },
    })
    expect(JSON.stringify(refusal)).not.toMatch(/Bob|bob|@example/)
    expect(JSON.stringify(refusal)).not.toContain(bob.id)
    expect(await subscriptionOf('/shared-1')).toEqual(before)

    // Bob subscribing the same endpoint again refreshes its keys, on the same row.
    const bobDevice = newDeviceKeys()
    const again = await h.call('POST', '/api/push/subscriptions', {
      token: bob.token,
      body: { endpoint, keys: bobDevice.keys },
    })
    expect(again.status).toBe(201)
    const refreshed = await subscriptionOf('/shared-1')
    expect(refreshed).toMatchObject({ id: before!.id, userId: bob.id, p256dh: bobDevice.keys.p256dh })

    // What reaches that endpoint is Bob's, readable with his new keys, and nothing is Carol's.
    service.received.length = 0
    await post(alice, buble.id, 'Meet at the gate')
    expect(service.received.map((r) => r.path)).toEqual(['/shared-1'])
    expect(JSON.parse(decrypt(service.received[0]!.body, bobDevice))).toMatchObject({ body: 'Meet at the gate' })
    const carolRows = await h.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, carol.id))
    expect(carolRows).toEqual([])
  })

  test('the subscription calls need a sign-in', async () => {
    const res = await h.call('POST', '/api/push/subscriptions', {
      body: { endpoint: 'https://push.example.com/x', keys: newDeviceKeys().keys },
    })
    expect(res.status).toBe(401)
  })

  test('a plain http endpoint is refused with a clear message', async () => {
    const bob = await user('Bob')
    const res = await h.call('POST', '/api/push/subscriptions', {
      token: bob.token,
      body: { endpoint: 'http://push.example.com/abc', keys: newDeviceKeys().keys },
    })
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 400,
      body: {
        code: 'VALIDATION_ERROR',
        message: 'endpoint must be an https address',
        issues: [{ path: 'endpoint', message: 'endpoint must be an https address' }],
      },
    })
  })

  describe('endpoint validation (no loopback allowed)', () => {
    // A resolver the test controls: push.example.com is public, the others are not.
    const lookup = async (host: string) => {
      const table: Record<string, string[]> = {
        'push.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
        'evil.example.com': ['93.184.216.34', '10.0.0.7'],
        'inside.example.com': ['192.168.1.20'],
      }
      const addresses = table[host]
      if (!addresses) throw new Error(`ENOTFOUND ${host}`)
      return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
    }

    test.each([
      ['http://push.example.com/x', 'https'],
      ['https://127.0.0.1/x', 'refused address'],
      ['https://10.1.2.3/x', 'refused address'],
      ['https://169.254.169.254/latest', 'refused address'],
      ['https://[::1]/x', 'refused address'],
      ['https://[fd00::1]/x', 'refused address'],
      ['https://[::ffff:127.0.0.1]/x', 'refused address'],
      ['https://evil.example.com/x', 'refused address (10.0.0.7)'],
      ['https://inside.example.com/x', 'refused address (192.168.1.20)'],
      ['https://nowhere.example.com/x', 'could not be resolved'],
      ['not a url', 'valid https URL'],
    ])('%s is refused', async (endpoint, why) => {
      const push = pushService(h.deps, { lookup })
      const bob = await user('Bob')
      const [row] = await h.database.db.select().from(users).where(eq(users.id, bob.id))
      const err = await push.subscribe(row!, { endpoint, keys: newDeviceKeys().keys }).catch((e) => e)
      expect(err.code).toBe('VALIDATION_ERROR')
      expect(err.message).toContain(why)
    })

    test('a public https endpoint is stored (and nothing is sent)', async () => {
      const push = pushService(h.deps, { lookup })
      const bob = await user('Bob')
      const [row] = await h.database.db.select().from(users).where(eq(users.id, bob.id))
      await push.subscribe(row!, { endpoint: 'https://push.example.com/send/abc', keys: newDeviceKeys().keys })
      const [stored] = await h.database.db
        .select()
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.endpoint, 'https://push.example.com/send/abc'))
      expect(stored?.userId).toBe(bob.id)
      expect(service.received).toEqual([])
    })

    test('keys that are no P-256 key or auth secret are refused', async () => {
      const push = pushService(h.deps, { lookup })
      const bob = await user('Bob')
      const [row] = await h.database.db.select().from(users).where(eq(users.id, bob.id))
      const endpoint = 'https://push.example.com/send/def'
      const bad = await push.subscribe(row!, { endpoint, keys: { p256dh: 'abc', auth: 'def' } }).catch((e) => e)
      expect(bad.code).toBe('VALIDATION_ERROR')
    })
  })
})
