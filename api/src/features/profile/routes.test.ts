import { PASSWORD_MESSAGES } from '@buble/shared/password'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createScheduler } from '../../lib/jobs.ts'
import { backends } from '../../testing/databases.ts'
import { createHarness, type Harness, PASSWORD, uniqueEmail } from '../../testing/harness.ts'
import { DELETED_USER_NAME, USER_MESSAGES } from './service.ts'

const HOUR = 60 * 60 * 1000
const DAY = 24 * HOUR

describe.each(backends())('users on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
  })
  afterAll(() => h?.close())

  test('the profile is the user plus its deletion status, and needs a token', async () => {
    const { token, id, email } = await h.register({ name: 'Grace Hopper' })
    expect((await h.call('GET', '/api/users/profile')).status).toBe(401)
    const res = await h.call('GET', '/api/users/profile', { token })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({
      id,
      email,
      name: 'Grace Hopper',
      role: 'user',
      deletion: {
        deletion_requested: false,
        deletion_scheduled_for: null,
        days_remaining: null,
        hours_remaining: null,
      },
    })
  })

  test('name and bio can be edited; the e-mail cannot, and a bad name is refused', async () => {
    const { token, email } = await h.register()
    const res = await h.call('PUT', '/api/users/profile', {
      token,
      body: { name: ' Alan Turing ', bio: 'Enigmas, mostly.' },
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ name: 'Alan Turing', bio: 'Enigmas, mostly.', email })
    const withEmail = await h.call('PUT', '/api/users/profile', { token, body: { email: 'new@example.com' } })
    expect(withEmail.status).toBe(400)
    expect((await withEmail.json()).code).toBe('VALIDATION_ERROR')
    const shortName = await h.call('PUT', '/api/users/profile', { token, body: { name: 'A' } })
    expect(shortName.status).toBe(400)
    const longBio = await h.call('PUT', '/api/users/profile', { token, body: { bio: 'x'.repeat(501) } })
    expect(longBio.status).toBe(400)
    expect((await (await h.call('GET', '/api/users/profile', { token })).json()).email).toBe(email)
  })

  test('change-password with a wrong current password is a 400 INVALID_PASSWORD, not a 401', async () => {
    const { token } = await h.register()
    const res = await h.call('POST', '/api/users/change-password', {
      token,
      body: { currentPassword: 'Not-The-Passw0rd', newPassword: 'Brand-New-Passw0rd' },
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ code: 'INVALID_PASSWORD', message: USER_MESSAGES.wrongPassword })
  })

  test('change-password enforces the strong rule with its first message', async () => {
    const { token } = await h.register()
    const res = await h.call('POST', '/api/users/change-password', {
      token,
      body: { currentPassword: PASSWORD, newPassword: 'alllowercase1' },
    })
    expect(res.status).toBe(400)
    expect((await res.json()).message).toBe(PASSWORD_MESSAGES.upper)
  })

  test('change-password answers a fresh token; older tokens stop working and the new password signs in', async () => {
    const { token, email } = await h.register()
    const refreshed = (await (await h.call('POST', '/api/auth/refresh-token', { token })).json()).access_token
    const res = await h.call('POST', '/api/users/change-password', {
      token,
      body: { currentPassword: PASSWORD, newPassword: 'Brand-New-Passw0rd' },
    })
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.message).toBe(USER_MESSAGES.passwordChanged)
    expect((await h.call('GET', '/api/users/profile', { token })).status).toBe(401)
    expect((await h.call('GET', '/api/users/profile', { token: refreshed })).status).toBe(401)
    expect((await h.call('GET', '/api/users/profile', { token: body.access_token })).status).toBe(200)
    expect((await h.call('POST', '/api/auth/login', { body: { email, password: 'Brand-New-Passw0rd' } })).status).toBe(
      200,
    )
    expect((await h.call('POST', '/api/auth/login', { body: { email, password: PASSWORD } })).status).toBe(401)
  })

  test('requesting deletion schedules it 7 days ahead; the status counts days and hours; cancelling clears it', async () => {
    const { token } = await h.register()
    const requested = await h.call('POST', '/api/users/request-deletion', { token })
    expect(requested.status).toBe(200)
    const { message, deletion_scheduled_for } = await requested.json()
    expect(message).toBe(USER_MESSAGES.deletionScheduled)
    expect(new Date(deletion_scheduled_for).getTime()).toBe(h.clock.now.getTime() + 7 * DAY)

    h.clock.advance(DAY + 5 * HOUR + 60_000)
    const status = await (await h.call('GET', '/api/users/deletion-status', { token })).json()
    expect(status).toEqual({ deletion_requested: true, deletion_scheduled_for, days_remaining: 5, hours_remaining: 18 })
    const again = await (await h.call('POST', '/api/users/request-deletion', { token })).json()
    expect(again.deletion_scheduled_for).toBe(deletion_scheduled_for)

    const cancelled = await h.call('DELETE', '/api/users/cancel-deletion', { token })
    expect(cancelled.status).toBe(200)
    expect(await cancelled.json()).toEqual({ message: USER_MESSAGES.deletionCancelled })
    expect((await (await h.call('GET', '/api/users/profile', { token })).json()).deletion.deletion_requested).toBe(
      false,
    )
    expect((await h.call('DELETE', '/api/users/cancel-deletion', { token })).status).toBe(409)
  })

  test('the deletion job leaves an account alone before its date and removes its personal data at the date', async () => {
    const email = uniqueEmail('leaving')
    const { token, id } = await h.register({ name: 'Leaving Soon', email })
    await h.call('PUT', '/api/users/profile', { token, body: { bio: 'Personal things' } })
    await h.call('POST', '/api/users/request-deletion', { token })
    const bystander = await h.register()

    h.clock.advance(7 * DAY - 60_000)
    expect(await runDeletion(h)).toEqual(['account-deletion'])
    expect((await h.call('GET', '/api/users/profile', { token })).status).toBe(200)

    h.clock.advance(2 * 60_000)
    await runDeletion(h)
    expect((await h.call('GET', '/api/users/profile', { token })).status).toBe(401)
    expect((await h.call('POST', '/api/auth/login', { body: { email, password: PASSWORD } })).status).toBe(401)
    const [row] = await h.database.db.query.users.findMany({ where: (u, { eq }) => eq(u.id, id) })
    expect(row).toMatchObject({
      name: DELETED_USER_NAME,
      bio: null,
      avatarUrl: null,
      passwordHash: null,
      status: 'deleted',
    })
    expect(row!.email).not.toContain('leaving')
    expect((await h.call('GET', '/api/users/profile', { token: bystander.token })).status).toBe(200)
    // The address is free again.
    expect(
      (await h.call('POST', '/api/auth/register', { body: { name: 'Back Again', email, password: PASSWORD } })).status,
    ).toBe(201)
  })

  test('a cancelled deletion is never executed', async () => {
    const { token } = await h.register()
    await h.call('POST', '/api/users/request-deletion', { token })
    await h.call('DELETE', '/api/users/cancel-deletion', { token })
    h.clock.advance(8 * DAY)
    await runDeletion(h)
    expect((await h.call('GET', '/api/users/profile', { token })).status).toBe(200)
  })
})

/** One tick of the per-minute scheduler, as the server runs it, at the harness's clock. */
const runDeletion = (h: Harness) =>
  createScheduler(h.database, [h.services.users.deletionJob], h.deps.log).runOnce(h.clock.now)
