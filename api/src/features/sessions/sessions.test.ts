import { SESSION_ENDED_MESSAGE, SESSION_REVOKED_MESSAGE } from '@buble/shared/auth'
import { SESSION_LIFETIME_MS } from '@buble/shared/constants'
import { type DeviceSession, SESSION_TOUCH_INTERVAL_MS } from '@buble/shared/sessions'
import { eq } from 'drizzle-orm'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { sessions, users } from '../../db/schema.ts'
import { createScheduler } from '../../lib/jobs.ts'
import { setNewPassword } from '../../lib/revocations.ts'
import { type Backend, backends } from '../../testing/databases.ts'
import { readEvents } from '../../testing/events.ts'
import { createHarness, type Harness, PASSWORD, uniqueEmail } from '../../testing/harness.ts'
import { twoProcessesOnPostgres } from '../../testing/two-processes.ts'
import { sessionsService } from './service.ts'

const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36'
const NEW_PASSWORD = 'Another-Passw0rd'

/** The `sid` claim of a token (its payload is plain base64url JSON). */
const sidOf = (token: string): string | undefined =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid

describe.each(backends())('the devices signed in on %s', (backend: Backend) => {
  let h: Harness
  beforeAll(async () => {
    // The default heartbeat (25 s): within the waits below, only a signed-out session can end a stream.
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off', SESSION_PLACE_HEADERS: 'cf-ipcity,cf-ipcountry' })
  })
  afterAll(() => h?.close())

  /** A new account, signed in from two devices (a phone in Stockholm, then an Android phone). */
  async function twoDevices() {
    const email = uniqueEmail('devices')
    const registered = await h.call('POST', '/api/auth/register', {
      body: { name: 'Two Devices', email, password: PASSWORD },
      headers: { 'user-agent': IPHONE_SAFARI, 'cf-ipcity': 'Stockholm', 'cf-ipcountry': 'SE' },
    })
    expect(registered.status).toBe(201)
    const { access_token: phone, user } = await registered.json()
    const login = await h.call('POST', '/api/auth/login', {
      body: { email, password: PASSWORD },
      headers: { 'user-agent': ANDROID_CHROME, 'cf-ipcountry': 'XX' },
    })
    expect(login.status).toBe(200)
    const { access_token: android } = await login.json()
    return { id: user.id as string, email, phone: phone as string, android: android as string }
  }

  const list = async (token: string): Promise<DeviceSession[]> => {
    const res = await h.call('GET', '/api/users/sessions', { token })
    expect(res.status).toBe(200)
    return res.json()
  }
  const profileStatus = async (token: string) => {
    const res = await h.call('GET', '/api/users/profile', { token })
    return { status: res.status, message: res.status === 200 ? null : (await res.json()).message }
  }

  test('each sign-in opens a session with its device, browser and place; the list marks the one asking', async () => {
    const me = await twoDevices()
    expect(sidOf(me.phone)).toMatch(/^[0-9a-f-]{36}$/)
    expect(sidOf(me.android)).not.toBe(sidOf(me.phone))
    const seen = await list(me.android)
    expect(seen).toEqual([
      expect.objectContaining({
        id: sidOf(me.android),
        device: 'Android',
        browser: 'Chrome',
        place: null,
        current: true,
      }),
      expect.objectContaining({
        id: sidOf(me.phone),
        device: 'iPhone',
        browser: 'Safari',
        place: 'Stockholm, SE',
        current: false,
      }),
    ])
    expect(Object.keys(seen[0]!).sort()).toEqual(
      ['browser', 'created_at', 'current', 'device', 'id', 'last_used_at', 'place'].sort(),
    )
    // No address is kept, and none is shown.
    const [row] = await h.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sidOf(me.phone)!))
    expect(Object.keys(row!)).not.toContain('ip')
  })

  test('signing one session out refuses its token at the next request; the other goes on', async () => {
    const me = await twoDevices()
    const res = await h.call('DELETE', `/api/users/sessions/${sidOf(me.phone)}`, { token: me.android })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ message: 'Signed out', ended: 1 })
    expect(await profileStatus(me.phone)).toEqual({ status: 401, message: SESSION_ENDED_MESSAGE })
    // Not even a refresh brings it back.
    expect((await h.call('POST', '/api/auth/refresh-token', { token: me.phone })).status).toBe(401)
    expect(await profileStatus(me.android)).toEqual({ status: 200, message: null })
    expect((await list(me.android)).map((s) => s.id)).toEqual([sidOf(me.android)])
  })

  test('"sign out everywhere else" ends every session but the one asking', async () => {
    const me = await twoDevices()
    const third = await (
      await h.call('POST', '/api/auth/login', { body: { email: me.email, password: PASSWORD } })
    ).json()
    const res = await h.call('POST', '/api/users/sessions/end-others', { token: me.phone })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ message: 'Signed out everywhere else', ended: 2 })
    expect(await profileStatus(me.android)).toEqual({ status: 401, message: SESSION_ENDED_MESSAGE })
    expect(await profileStatus(third.access_token)).toEqual({ status: 401, message: SESSION_ENDED_MESSAGE })
    expect(await profileStatus(me.phone)).toEqual({ status: 200, message: null })
    expect(await list(me.phone)).toEqual([expect.objectContaining({ id: sidOf(me.phone), current: true })])
  })

  test('signing this device out ends its own session, and needs a token', async () => {
    const me = await twoDevices()
    expect((await h.call('DELETE', '/api/users/sessions/current')).status).toBe(401)
    const res = await h.call('DELETE', '/api/users/sessions/current', { token: me.phone })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ message: 'Signed out', ended: 1 })
    expect(await profileStatus(me.phone)).toEqual({ status: 401, message: SESSION_ENDED_MESSAGE })
    expect((await list(me.android)).map((s) => s.id)).toEqual([sidOf(me.android)])
  })

  test("another user's session is not found, and an id that is no id is a 400", async () => {
    const me = await twoDevices()
    const stranger = await h.register()
    const res = await h.call('DELETE', `/api/users/sessions/${sidOf(me.phone)}`, { token: stranger.token })
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Session not found' })
    expect(await profileStatus(me.phone)).toEqual({ status: 200, message: null })
    const bad = await h.call('DELETE', '/api/users/sessions/not-a-session', { token: me.phone })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ code: 'VALIDATION_ERROR' })
    // Signed out already: gone is gone.
    await h.call('DELETE', `/api/users/sessions/${sidOf(me.android)}`, { token: me.phone })
    expect((await h.call('DELETE', `/api/users/sessions/${sidOf(me.android)}`, { token: me.phone })).status).toBe(404)
    expect((await h.call('GET', '/api/users/sessions')).status).toBe(401)
  })

  test("a signed-out session's open streams close at once; the user's other session keeps its own", async () => {
    const me = await twoDevices()
    const open = async (token: string) => {
      const res = await h.call('GET', '/api/stream', { token })
      expect(res.status).toBe(200)
      const events = readEvents(res)
      expect((await events.next())?.event).toBe('ready')
      return events
    }
    const ended = [await open(me.phone), await open(me.phone)]
    const kept = await open(me.android)
    try {
      expect((await h.call('DELETE', `/api/users/sessions/${sidOf(me.phone)}`, { token: me.android })).status).toBe(200)
      // Well within the 25 s heartbeat: only the announced sign-out can end them.
      for (const events of ended) expect(await events.next(5_000)).toBeNull()
      expect(await kept.quietFor(300)).toBeNull()
    } finally {
      for (const events of [...ended, kept]) await events.close()
    }
  })

  test('a refresh keeps the session, and a password change keeps this one and ends the others', async () => {
    const me = await twoDevices()
    const refreshed = (await (await h.call('POST', '/api/auth/refresh-token', { token: me.phone })).json()).access_token
    expect(sidOf(refreshed)).toBe(sidOf(me.phone))
    expect(await list(me.phone)).toHaveLength(2)
    const changed = await h.call('POST', '/api/users/change-password', {
      token: refreshed,
      body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
    })
    expect(changed.status).toBe(200)
    const { access_token } = await changed.json()
    expect(sidOf(access_token)).toBe(sidOf(me.phone))
    expect(await profileStatus(me.android)).toEqual({ status: 401, message: SESSION_REVOKED_MESSAGE })
    expect(await list(access_token)).toEqual([expect.objectContaining({ id: sidOf(me.phone), current: true })])
  })

  test("a reset by link or an admin's new password ends every session of the account", async () => {
    const me = await twoDevices()
    await h.database.db.transaction((tx) => setNewPassword(tx, me.id, 'not-a-real-hash', h.clock.now))
    expect(await h.database.db.select().from(sessions).where(eq(sessions.userId, me.id))).toEqual([])
    expect(await profileStatus(me.phone)).toEqual({ status: 401, message: SESSION_REVOKED_MESSAGE })
  })

  test('a token issued before sessions existed holds until it expires, and a refresh gives it a session', async () => {
    const me = await twoDevices()
    const [row] = await h.database.db.select().from(users).where(eq(users.id, me.id))
    const old = await h.deps.tokens.sign(row!)
    expect(sidOf(old)).toBeUndefined()
    expect(await profileStatus(old)).toEqual({ status: 200, message: null })
    // It is no session: none is marked current, and "everywhere else" leaves the token itself alone.
    expect((await list(old)).some((s) => s.current)).toBe(false)
    const refreshed = await h.call('POST', '/api/auth/refresh-token', {
      token: old,
      headers: { 'user-agent': ANDROID_CHROME },
    })
    const { access_token } = await refreshed.json()
    expect(sidOf(access_token)).toMatch(/^[0-9a-f-]{36}$/)
    expect(await list(access_token)).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: sidOf(access_token), current: true, device: 'Android' })]),
    )
    // A token naming a session that never existed is refused like an ended one.
    const forged = await h.deps.tokens.sign(row!, {
      id: '00000000-0000-4000-8000-0000000000aa',
      expiresAt: new Date(Date.now() + 60_000),
    })
    expect(await profileStatus(forged)).toEqual({ status: 401, message: SESSION_ENDED_MESSAGE })
  })

  test('the last use is written after the answer, at most every few minutes', async () => {
    const me = await twoDevices()
    const lastUsed = async () =>
      (
        await h.database.db
          .select()
          .from(sessions)
          .where(eq(sessions.id, sidOf(me.phone)!))
      )[0]!.lastUsedAt.getTime()
    const before = await lastUsed()
    await profileStatus(me.phone)
    await new Promise((resolve) => setTimeout(resolve, 1_300))
    expect(await lastUsed()).toBe(before)
    h.clock.advance(SESSION_TOUCH_INTERVAL_MS + 1_000)
    await Promise.all([profileStatus(me.phone), profileStatus(me.phone), profileStatus(me.phone)])
    // Not yet: the write waits for the requests of the moment to be answered.
    expect(await lastUsed()).toBe(before)
    await expect.poll(lastUsed, { timeout: 3_000 }).toBe(h.clock.now.getTime())
  })

  test('the expiry job deletes the sessions whose last token has expired', async () => {
    const me = await twoDevices()
    const job = sessionsService(h.deps).expiryJob
    const mine = () => h.database.db.select().from(sessions).where(eq(sessions.userId, me.id))
    await createScheduler(h.database, [job], h.deps.log).runOnce(h.clock.now)
    expect(await mine()).toHaveLength(2)
    await createScheduler(h.database, [job], h.deps.log).runOnce(
      new Date(h.clock.now.getTime() + SESSION_LIFETIME_MS + 1),
    )
    expect(await mine()).toHaveLength(0)
  })
})

if (backends().includes('postgres')) {
  describe('two API processes on one PostgreSQL', () => {
    const nodes = twoProcessesOnPostgres()

    test("a session signed out on process A ends its stream on process B at once; the user's other stream on B stays", async () => {
      const json = { 'content-type': 'application/json' }
      const email = `sessions-${uuidv7()}@example.com`
      const register = await fetch(`${nodes.a.url}/api/auth/register`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: 'Two Nodes', email, password: PASSWORD }),
      })
      const { access_token: first } = (await register.json()) as { access_token: string }
      const login = await fetch(`${nodes.b.url}/api/auth/login`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ email, password: PASSWORD }),
      })
      const { access_token: second } = (await login.json()) as { access_token: string }
      const open = async (token: string) => {
        const events = readEvents(
          await fetch(`${nodes.b.url}/api/stream`, { headers: { authorization: `Bearer ${token}` } }),
        )
        expect((await events.next())?.event).toBe('ready')
        return events
      }
      const ended = await open(first)
      const kept = await open(second)
      try {
        const res = await fetch(`${nodes.a.url}/api/users/sessions/${sidOf(first)}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${second}` },
        })
        expect(res.status).toBe(200)
        // Within the 25 s heartbeat: only the announced sign-out can end it.
        expect(await ended.next(5_000)).toBeNull()
        expect(await kept.quietFor(300)).toBeNull()
        const refused = await fetch(`${nodes.b.url}/api/users/profile`, {
          headers: { authorization: `Bearer ${first}` },
        })
        expect(refused.status).toBe(401)
      } finally {
        await ended.close()
        await kept.close()
      }
    })
  })
}
