import { eq } from 'drizzle-orm'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { users } from '../../db/schema.ts'
import { createScheduler } from '../../lib/jobs.ts'
import { type Backend, backends } from '../../testing/databases.ts'
import { type EventReader, readEvents } from '../../testing/events.ts'
import { createHarness, type Harness, PASSWORD, PUBLIC_URL, type TestResponse } from '../../testing/harness.ts'
import { mutation, push } from '../../testing/sync.ts'
import { twoProcessesOnPostgres } from '../../testing/two-processes.ts'

const HEARTBEAT_MS = 300

describe.each(backends())('the live stream on %s', (backend: Backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' }, { streamHeartbeatMs: HEARTBEAT_MS })
  })
  afterAll(() => h?.close())

  const open = async (token: string) => {
    const res = await h.call('GET', '/api/stream', { token })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const events = readEvents(res)
    expect((await events.next())?.event).toBe('ready')
    return events
  }
  const newBuble = async (token: string, name: string) =>
    (await (await h.call('POST', '/api/bubles', { token, body: { name } })).json()) as { id: string }

  test('needs a token', async () => {
    expect((await h.call('GET', '/api/stream')).status).toBe(401)
  })

  test("a change in one of the user's bubles pokes their stream; other bubles' changes do not", async () => {
    const owner = await h.register()
    const member = await h.register()
    const outsider = await h.register()
    const buble = await newBuble(owner.token, 'Poked')
    const { code } = await (
      await h.call('POST', `/api/bubles/${buble.id}/invites`, { token: owner.token, body: {} })
    ).json()
    await h.call('POST', `/api/bubles/invites/${code}/accept`, { token: member.token })
    const memberEvents = await open(member.token)
    const outsiderEvents = await open(outsider.token)
    try {
      await push(h, owner.token, [mutation('profile.update', { name: 'Owner Renamed' })])
      const poke = await memberEvents.next()
      expect(poke?.event).toBe('poke')
      expect(JSON.parse(poke?.data ?? '{}')).toMatchObject({ buble_id: buble.id })
      // The outsider hears only its own buble.
      const own = await newBuble(outsider.token, 'Elsewhere')
      const first = await outsiderEvents.next()
      expect(JSON.parse(first?.data ?? '{}')).toMatchObject({ buble_id: own.id })
    } finally {
      await memberEvents.close()
      await outsiderEvents.close()
    }
  })

  test('joining a buble pokes the joiner, whose stream then follows that buble', async () => {
    const owner = await h.register()
    const joiner = await h.register()
    const buble = await newBuble(owner.token, 'Joined live')
    const events = await open(joiner.token)
    try {
      const { code } = await (
        await h.call('POST', `/api/bubles/${buble.id}/invites`, { token: owner.token, body: {} })
      ).json()
      await h.call('POST', `/api/bubles/invites/${code}/accept`, { token: joiner.token })
      const joined = await events.next()
      expect(joined?.event).toBe('poke')
      expect(JSON.parse(joined?.data ?? '{}')).toEqual({ buble_id: buble.id, entity: 'buble' })
      // From now on the joiner hears the buble's other changes, too.
      await push(h, owner.token, [mutation('profile.update', { name: 'Owner Again' })])
      let later = await events.next()
      while (later?.event === 'poke' && JSON.parse(later.data).entity !== 'member') later = await events.next()
      expect(JSON.parse(later?.data ?? '{}')).toMatchObject({ buble_id: buble.id, entity: 'member' })
    } finally {
      await events.close()
    }
  })

  test('a token revoked while the stream is open ends it at the next heartbeat', async () => {
    const user = await h.register()
    const res = await h.call('GET', '/api/stream', { token: user.token })
    const events = readEvents(res)
    expect((await events.next())?.event).toBe('ready')
    await h.call('POST', '/api/users/change-password', {
      token: user.token,
      body: { currentPassword: PASSWORD, newPassword: 'Another-Passw0rd' },
    })
    expect(await events.next(HEARTBEAT_MS * 10)).toBeNull()
  })

  test('a quiet stream stays open across heartbeats', async () => {
    const user = await h.register()
    const events = await open(user.token)
    try {
      expect(await events.quietFor(HEARTBEAT_MS * 4)).toBeNull()
      const buble = await newBuble(user.token, 'Still listening')
      expect(JSON.parse((await events.next())?.data ?? '{}')).toMatchObject({ buble_id: buble.id })
    } finally {
      await events.close()
    }
  })
})

/** Reads until the stream ends; fails when it is still open after `ms` (well under the 25 s heartbeat). */
async function endsWithin(events: EventReader, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms
  // Pokes the revocation itself caused (a deletion's) may come first.
  while ((await events.next(Math.max(1, deadline - Date.now()))) !== null) {}
}

describe.each(backends())('revoked tokens and live streams on %s', (backend: Backend) => {
  let h: Harness
  let admin: { token: string; id: string }
  beforeAll(async () => {
    // The default heartbeat (25 s): within the waits below, only the revocation can end a stream.
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
    admin = await h.register({ name: 'Stream Admin' })
    await h.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, admin.id))
  })
  afterAll(() => h?.close())

  const open = async (token: string) => {
    const res = await h.call('GET', '/api/stream', { token })
    expect(res.status).toBe(200)
    const events = readEvents(res)
    expect((await events.next())?.event).toBe('ready')
    return events
  }
  const expectOk = async (res: TestResponse) => expect(res.status, await res.clone().text()).toBe(200)
  type Person = { token: string; id: string; email: string }
  const newPassword = 'Another-Passw0rd'

  const revocations: [string, (user: Person) => Promise<void>][] = [
    [
      'a password change',
      async (user) =>
        expectOk(
          await h.call('POST', '/api/users/change-password', {
            token: user.token,
            body: { currentPassword: PASSWORD, newPassword },
          }),
        ),
    ],
    [
      'a reset by mailed link',
      async (user) => {
        const before = h.smtp.mails.length
        await expectOk(await h.call('POST', '/api/auth/forgot-password', { body: { email: user.email } }))
        const link = h.smtp.linkIn(await h.smtp.waitFor(user.email, { after: before }), `${PUBLIC_URL}/reset-password`)
        const token = new URL(link).searchParams.get('token')
        await expectOk(await h.call('POST', '/api/auth/reset-password', { body: { token, newPassword } }))
      },
    ],
    [
      "an admin's reset-password",
      async (user) =>
        expectOk(
          await h.call('POST', `/api/admin/users/${user.id}/reset-password`, {
            token: admin.token,
            body: { newPassword },
          }),
        ),
    ],
    [
      "an admin's send-reset-email",
      async (user) =>
        expectOk(await h.call('POST', `/api/admin/users/${user.id}/send-reset-email`, { token: admin.token })),
    ],
    [
      "an admin's deletion",
      async (user) => {
        const res = await h.call('DELETE', `/api/admin/users/${user.id}`, { token: admin.token })
        expect(res.status).toBeLessThan(300)
      },
    ],
    [
      'the scheduled deletion',
      async (user) => {
        await expectOk(await h.call('POST', '/api/users/request-deletion', { token: user.token }))
        h.clock.advance(8 * 24 * 60 * 60 * 1000)
        await createScheduler(h.database, [h.services.users.deletionJob], h.deps.log).runOnce(h.clock.now)
      },
    ],
  ]

  test.each(revocations)("%s ends the user's open streams at once, not at the next heartbeat", async (_, revoke) => {
    const user = await h.register()
    const bystander = await h.register()
    // The user owns a buble: a deletion pokes it before the stream ends.
    await h.call('POST', '/api/bubles', { token: user.token, body: { name: 'Mine' } })
    const streams = [await open(user.token), await open(user.token)]
    const other = await open(bystander.token)
    try {
      await revoke(user)
      for (const events of streams) await endsWithin(events)
      // Another user's stream is not ended.
      expect(await other.quietFor(200)).toBeNull()
    } finally {
      for (const events of [...streams, other]) await events.close()
    }
  })

  test("an invite link completed over someone's unverified registration ends the registrant's streams at once, and their reset links", async () => {
    const owner = await h.register({ name: 'Inviting Owner' })
    const buble = await (await h.call('POST', '/api/bubles', { token: owner.token, body: { name: 'Invited' } })).json()
    const email = `taken-over-${uuidv7()}@example.com`
    const invited = h.smtp.mails.length
    await h.call('POST', `/api/bubles/${buble.id}/invites`, { token: owner.token, body: { email } })
    const link = h.smtp.linkIn(await h.smtp.waitFor(email, { after: invited }), `${PUBLIC_URL}/complete-registration`)
    // Someone registers with the address before its holder follows the link, and asks for a reset link.
    const registrant = await h.register({ email })
    const asked = h.smtp.mails.length
    await expectOk(await h.call('POST', '/api/auth/forgot-password', { body: { email } }))
    const resetLink = h.smtp.linkIn(await h.smtp.waitFor(email, { after: asked }), `${PUBLIC_URL}/reset-password`)
    const streams = [await open(registrant.token), await open(registrant.token)]
    try {
      const token = new URL(link).searchParams.get('token')
      await expectOk(
        await h.call('POST', '/api/bubles/complete-registration', { body: { token, password: newPassword } }),
      )
      for (const events of streams) await endsWithin(events)
      const reset = await h.call('POST', '/api/auth/reset-password', {
        body: { token: new URL(resetLink).searchParams.get('token'), newPassword: 'Registrants-Passw0rd' },
      })
      expect(reset.status).toBe(410)
    } finally {
      for (const events of streams) await events.close()
    }
  })

  test('a stream opened with the token the password change answered stays open', async () => {
    const user = await h.register()
    const old = await open(user.token)
    const res = await h.call('POST', '/api/users/change-password', {
      token: user.token,
      body: { currentPassword: PASSWORD, newPassword },
    })
    const { access_token: fresh } = await res.json()
    const current = await open(fresh)
    try {
      await endsWithin(old)
      // Someone else's revocation leaves it alone.
      const other = await h.register()
      await expectOk(
        await h.call('POST', `/api/admin/users/${other.id}/reset-password`, {
          token: admin.token,
          body: { newPassword },
        }),
      )
      expect(await current.quietFor(500)).toBeNull()
      const buble = await (await h.call('POST', '/api/bubles', { token: fresh, body: { name: 'Still here' } })).json()
      expect(JSON.parse((await current.next())?.data ?? '{}')).toMatchObject({ buble_id: buble.id })
    } finally {
      await old.close()
      await current.close()
    }
  })
})

if (backends().includes('postgres')) {
  describe('two API processes on one PostgreSQL', () => {
    const nodes = twoProcessesOnPostgres()

    test('a change pushed to process A pokes a stream open on process B within a second', async () => {
      const json = { 'content-type': 'application/json' }
      const register = await fetch(`${nodes.a.url}/api/auth/register`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: 'Two Nodes', email: `nodes-${uuidv7()}@example.com`, password: PASSWORD }),
      })
      const { access_token: token } = (await register.json()) as { access_token: string }
      const auth = { authorization: `Bearer ${token}` }
      const stream = await fetch(`${nodes.b.url}/api/stream`, { headers: auth })
      const events = readEvents(stream)
      try {
        expect((await events.next())?.event).toBe('ready')
        const bubleId = uuidv7()
        const pushed = await fetch(`${nodes.a.url}/api/sync/push`, {
          method: 'POST',
          headers: { ...json, ...auth },
          body: JSON.stringify({
            clientId: 'node-a',
            mutations: [mutation('buble.create', { id: bubleId, name: 'Across' })],
          }),
        })
        expect(pushed.status).toBe(200)
        // The bound: the poke reaches process B within a second of the push.
        const poke = await events.next(1000)
        expect(poke?.event).toBe('poke')
        expect(JSON.parse(poke?.data ?? '{}')).toMatchObject({ buble_id: bubleId })
      } finally {
        await events.close()
      }
    })

    test('a password changed on process A ends the stream open on process B (the processes check tokens every 25 s)', async () => {
      const json = { 'content-type': 'application/json' }
      const register = await fetch(`${nodes.a.url}/api/auth/register`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: 'Two Nodes', email: `revoked-${uuidv7()}@example.com`, password: PASSWORD }),
      })
      const { access_token: token } = (await register.json()) as { access_token: string }
      const stream = await fetch(`${nodes.b.url}/api/stream`, { headers: { authorization: `Bearer ${token}` } })
      const events = readEvents(stream)
      try {
        expect((await events.next())?.event).toBe('ready')
        const changed = await fetch(`${nodes.a.url}/api/users/change-password`, {
          method: 'POST',
          headers: { ...json, authorization: `Bearer ${token}` },
          body: JSON.stringify({ currentPassword: PASSWORD, newPassword: 'Another-Passw0rd' }),
        })
        expect(changed.status).toBe(200)
        await endsWithin(events)
      } finally {
        await events.close()
      }
    })
  })
}
