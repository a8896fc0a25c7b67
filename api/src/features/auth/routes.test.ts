import { type AddressInfo, createServer, type Socket } from 'node:net'
import { ALREADY_VERIFIED_MESSAGE } from '@buble/shared/auth'
import { PASSWORD_MESSAGES } from '@buble/shared/password'
import { eq } from 'drizzle-orm'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { emailTokens, users } from '../../db/schema.ts'
import { hashPassword } from '../../lib/passwords.ts'
import { newOneTimeToken } from '../../lib/tokens.ts'
import { backends } from '../../testing/databases.ts'
import { createHarness, type Harness, PASSWORD, PUBLIC_URL, uniqueEmail } from '../../testing/harness.ts'
import { AUTH_MESSAGES } from './service.ts'

const HOUR = 60 * 60 * 1000

describe.each(backends())('auth on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off', BUBLE_ADMIN_EMAILS: 'boss@example.com' })
  })
  afterAll(() => h?.close())

  const tokenOf = (link: string) => new URL(link).searchParams.get('token')!

  test('register answers 201 with a token and the user, and mails a verification link built from PUBLIC_URL', async () => {
    const email = uniqueEmail('reg')
    const res = await h.call('POST', '/api/auth/register', {
      body: { name: '  Ada Lovelace ', email: `  ${email.toUpperCase()} `, password: PASSWORD },
    })
    expect(res.status).toBe(201)
    const body = await res.json()
    expect(body.access_token).toMatch(/^ey/)
    expect(body.user).toMatchObject({
      name: 'Ada Lovelace',
      email,
      email_verified: false,
      role: 'user',
      bio: null,
      avatar_url: null,
    })
    expect(Object.keys(body.user).sort()).toEqual([
      'avatar_url',
      'bio',
      'created_at',
      'email',
      'email_verified',
      'id',
      'name',
      'role',
    ])
    const mail = await h.smtp.waitFor(email)
    expect(mail.subject).toContain('Verify')
    expect(mail.html).toContain(`${PUBLIC_URL}/verify-email?token=`)
    expect(h.smtp.linkIn(mail, `${PUBLIC_URL}/verify-email?token=`)).toBeTruthy()
  })

  test('a second registration with the same address is a 409', async () => {
    const email = uniqueEmail('dup')
    await h.register({ email })
    const res = await h.call('POST', '/api/auth/register', {
      body: { name: 'Someone Else', email: email.toUpperCase(), password: PASSWORD },
    })
    expect(res.status).toBe(409)
    expect(await res.json()).toEqual({ code: 'CONFLICT', message: AUTH_MESSAGES.emailTaken })
  })

  test.each([
    ['abc', PASSWORD_MESSAGES.min6],
    ['abcdefg', PASSWORD_MESSAGES.min12],
    ['Abcdefghijk1-Abcdefghijk1-Abcdefgh', PASSWORD_MESSAGES.max31],
    ['abcdefghijk1', PASSWORD_MESSAGES.upper],
    ['ABCDEFGHIJK1', PASSWORD_MESSAGES.lower],
    ['Abcdefghijkl', PASSWORD_MESSAGES.digit],
  ])('register refuses the password %j with "%s"', async (password, message) => {
    const res = await h.call('POST', '/api/auth/register', { body: { name: 'Pat', email: uniqueEmail(), password } })
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body).toMatchObject({ code: 'VALIDATION_ERROR', message })
    expect(body.issues[0]).toEqual({ path: 'password', message })
  })

  test.each([
    [{ name: 'A', email: 'a@example.com', password: PASSWORD }, 'name'],
    [{ name: 'Bad\u202eName', email: 'a@example.com', password: PASSWORD }, 'name'],
    [{ name: 'Fine Name', email: 'not-an-email', password: PASSWORD }, 'email'],
    [{ name: 'Fine Name', email: 'a@localhost', password: PASSWORD }, 'email'],
    [{ name: 'Fine Name', password: PASSWORD }, 'email'],
  ])('register refuses %j naming %s', async (body, field) => {
    const res = await h.call('POST', '/api/auth/register', { body })
    expect(res.status).toBe(400)
    expect((await res.json()).issues[0].path).toBe(field)
  })

  test('login answers a token; wrong password and unknown address get the same 401', async () => {
    const { email } = await h.register()
    const ok = await h.call('POST', '/api/auth/login', { body: { email: email.toUpperCase(), password: PASSWORD } })
    expect(ok.status).toBe(200)
    expect((await ok.json()).user.email).toBe(email)
    for (const body of [
      { email, password: 'Wrong-Passw0rd!' },
      { email: uniqueEmail('ghost'), password: PASSWORD },
    ]) {
      const res = await h.call('POST', '/api/auth/login', { body })
      expect(res.status).toBe(401)
      expect(await res.json()).toEqual({ code: 'INVALID_CREDENTIALS', message: 'Invalid email or password' })
    }
  })

  test('refresh-token needs a valid token and answers a fresh one that works; earlier tokens keep working', async () => {
    const { token } = await h.register()
    expect((await h.call('POST', '/api/auth/refresh-token')).status).toBe(401)
    expect((await h.call('POST', '/api/auth/refresh-token', { token: `${token}x` })).status).toBe(401)
    const res = await h.call('POST', '/api/auth/refresh-token', { token })
    expect(res.status).toBe(200)
    const { access_token } = await res.json()
    expect((await h.call('GET', '/api/users/profile', { token: access_token })).status).toBe(200)
    expect((await h.call('GET', '/api/users/profile', { token })).status).toBe(200)
  })

  test('the mailed verification link verifies once; a second use is 410', async () => {
    const { email, token } = await h.register()
    const link = h.smtp.linkIn(await h.smtp.waitFor(email), `${PUBLIC_URL}/verify-email?token=`)
    const res = await h.call('POST', '/api/auth/verify-email', { body: { token: tokenOf(link) } })
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.message).toBe(AUTH_MESSAGES.verified)
    expect(body.user).toMatchObject({ email, email_verified: true, role: 'user' })
    const profile = await (await h.call('GET', '/api/users/profile', { token })).json()
    expect(profile.email_verified).toBe(true)
    const again = await h.call('POST', '/api/auth/verify-email', { body: { token: tokenOf(link) } })
    expect(again.status).toBe(410)
    // Opened a second time: the account is verified, and the answer says so.
    expect(await again.json()).toEqual({ code: 'TOKEN_INVALID', message: ALREADY_VERIFIED_MESSAGE })
  })

  test('a used link of an account not verified, or an unknown token, is the plain refusal', async () => {
    const unknown = await h.call('POST', '/api/auth/verify-email', { body: { token: 'no-such-token-at-all' } })
    expect(unknown.status).toBe(410)
    expect((await unknown.json()).message).toBe(AUTH_MESSAGES.verifyInvalid)
    // An expired link of an account still unverified.
    const { email } = await h.register()
    const stale = tokenOf(h.smtp.linkIn(await h.smtp.waitFor(email), PUBLIC_URL))
    h.clock.advance(25 * HOUR)
    const expired = await h.call('POST', '/api/auth/verify-email', { body: { token: stale } })
    expect(expired.status).toBe(410)
    expect((await expired.json()).message).toBe(AUTH_MESSAGES.verifyInvalid)
  })

  test('a verification link older than 24 hours is 410, and resend mails a new one that works', async () => {
    const { email } = await h.register()
    const first = tokenOf(h.smtp.linkIn(await h.smtp.waitFor(email), PUBLIC_URL))
    h.clock.advance(25 * HOUR)
    expect((await h.call('POST', '/api/auth/verify-email', { body: { token: first } })).status).toBe(410)
    const before = h.smtp.mails.length
    const res = await h.call('POST', '/api/auth/resend-verification', { body: { email } })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ message: AUTH_MESSAGES.resendSent })
    const second = tokenOf(h.smtp.linkIn(await h.smtp.waitFor(email, { after: before }), PUBLIC_URL))
    expect((await h.call('POST', '/api/auth/verify-email', { body: { token: second } })).status).toBe(200)
  })

  test('resend-verification and forgot-password answer the same for unknown addresses and send nothing', async () => {
    const ghost = uniqueEmail('nobody')
    const before = h.smtp.mails.length
    const resend = await h.call('POST', '/api/auth/resend-verification', { body: { email: ghost } })
    const forgot = await h.call('POST', '/api/auth/forgot-password', { body: { email: ghost } })
    expect([resend.status, forgot.status]).toEqual([200, 200])
    expect(await resend.json()).toEqual({ message: AUTH_MESSAGES.resendSent })
    expect(await forgot.json()).toEqual({ message: AUTH_MESSAGES.forgotSent })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(h.smtp.mails.slice(before).filter((m) => m.to === ghost)).toEqual([])
  })

  test('an address in BUBLE_ADMIN_EMAILS becomes a platform admin when verified, not before', async () => {
    const { token } = await h.register({ email: 'Boss@Example.com' })
    expect((await (await h.call('GET', '/api/users/profile', { token })).json()).role).toBe('user')
    const link = h.smtp.linkIn(await h.smtp.waitFor('boss@example.com'), PUBLIC_URL)
    const res = await h.call('POST', '/api/auth/verify-email', { body: { token: tokenOf(link) } })
    expect((await res.json()).user.role).toBe('admin')
  })

  test('forgot → mailed link → reset: the new password works, the old one and older tokens do not, the link is single-use', async () => {
    const { email, token } = await h.register()
    const before = h.smtp.mails.length
    await h.call('POST', '/api/auth/forgot-password', { body: { email } })
    const mail = await h.smtp.waitFor(email, { after: before })
    const link = h.smtp.linkIn(mail, `${PUBLIC_URL}/reset-password?token=`)
    const newPassword = 'Brand-New-Passw0rd'
    const res = await h.call('POST', '/api/auth/reset-password', { body: { token: tokenOf(link), newPassword } })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ message: AUTH_MESSAGES.resetDone })
    expect((await h.call('GET', '/api/users/profile', { token })).status).toBe(401)
    expect((await h.call('POST', '/api/auth/login', { body: { email, password: PASSWORD } })).status).toBe(401)
    expect((await h.call('POST', '/api/auth/login', { body: { email, password: newPassword } })).status).toBe(200)
    const reuse = await h.call('POST', '/api/auth/reset-password', {
      body: { token: tokenOf(link), newPassword: 'Another-Passw0rd' },
    })
    expect(reuse.status).toBe(410)
  })

  describe('reset links die with every password change', () => {
    const newPassword = 'Brand-New-Passw0rd'
    /** Asks for a reset link and answers its token, as mailed. */
    const resetLink = async (email: string) => {
      const before = h.smtp.mails.length
      expect((await h.call('POST', '/api/auth/forgot-password', { body: { email } })).status).toBe(200)
      return tokenOf(h.smtp.linkIn(await h.smtp.waitFor(email, { after: before }), `${PUBLIC_URL}/reset-password`))
    }
    const useLink = (token: string, password = newPassword) =>
      h.call('POST', '/api/auth/reset-password', { body: { token, newPassword: password } })
    const expectDead = async (token: string) => {
      const res = await useLink(token, 'Yet-Another-Passw0rd')
      expect(res.status).toBe(410)
      expect(await res.json()).toEqual({ code: 'TOKEN_INVALID', message: AUTH_MESSAGES.resetInvalid })
    }
    const asAdmin = async () => {
      const admin = await h.register({ name: 'Reset Admin' })
      await h.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, admin.id))
      return admin.token
    }

    test('change-password: the link mailed before is 410; one asked for after works', async () => {
      const { email, token } = await h.register()
      const link = await resetLink(email)
      const changed = await h.call('POST', '/api/users/change-password', {
        token,
        body: { currentPassword: PASSWORD, newPassword },
      })
      expect(changed.status).toBe(200)
      await expectDead(link)
      expect((await useLink(await resetLink(email), 'Later-Passw0rd-2')).status).toBe(200)
    })

    test('a link of an account that is no longer active is 410 and sets no password', async () => {
      const { id, email } = await h.register()
      const link = await resetLink(email)
      // Deleted meanwhile (as the deletion job leaves it: anonymised, no sign-in).
      await h.database.db.update(users).set({ status: 'deleted' }).where(eq(users.id, id))
      const [before] = await h.database.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, id))
      await expectDead(link)
      const [after] = await h.database.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, id))
      expect(after!.hash).toBe(before!.hash)
    })

    test('a reset by one link makes every other link mailed before it 410', async () => {
      const { id, email } = await h.register()
      // Two requests that cross can leave two live links (each marks the earlier ones used, then
      // stores its own): an earlier one, made live again after the second was mailed.
      const { token: other, hash } = newOneTimeToken()
      await h.database.db.insert(emailTokens).values({
        id: uuidv7(),
        userId: id,
        kind: 'reset',
        tokenHash: hash,
        expiresAt: new Date(h.clock.now.getTime() + HOUR),
      })
      const link = await resetLink(email)
      await h.database.db.update(emailTokens).set({ usedAt: null }).where(eq(emailTokens.tokenHash, hash))
      expect((await useLink(link)).status).toBe(200)
      await expectDead(other)
    })

    test("an admin's reset-password and send-reset-email each make the links mailed before 410", async () => {
      const adminToken = await asAdmin()
      const { id, email } = await h.register()
      const first = await resetLink(email)
      const reset = await h.call('POST', `/api/admin/users/${id}/reset-password`, {
        token: adminToken,
        body: { newPassword: 'simple' },
      })
      expect(reset.status).toBe(200)
      await expectDead(first)
      const second = await resetLink(email)
      const sent = await h.call('POST', `/api/admin/users/${id}/send-reset-email`, { token: adminToken })
      expect(sent.status).toBe(200)
      await expectDead(second)
    })
  })

  test('a reset link expires after one hour, and a weak new password is refused with its rule', async () => {
    const { email } = await h.register()
    const before = h.smtp.mails.length
    await h.call('POST', '/api/auth/forgot-password', { body: { email } })
    const token = tokenOf(h.smtp.linkIn(await h.smtp.waitFor(email, { after: before }), `${PUBLIC_URL}/reset-password`))
    const weak = await h.call('POST', '/api/auth/reset-password', { body: { token, newPassword: 'short' } })
    expect(weak.status).toBe(400)
    expect((await weak.json()).message).toBe(PASSWORD_MESSAGES.min6)
    h.clock.advance(HOUR + 1000)
    expect(
      (await h.call('POST', '/api/auth/reset-password', { body: { token, newPassword: 'Brand-New-Passw0rd' } })).status,
    ).toBe(410)
  })
})

describe.each(backends())('mail after the answer on %s', (backend) => {
  // An SMTP server that accepts connections and never speaks: a mail sent there waits (nodemailer
  // gives up on the greeting after 30 s).
  const sockets = new Set<Socket>()
  const silent = createServer((socket) => {
    sockets.add(socket)
  })
  let h: Harness
  beforeAll(async () => {
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as AddressInfo
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off', SMTP_URL: `smtp://127.0.0.1:${port}` })
  })
  afterAll(async () => {
    for (const socket of sockets) socket.destroy()
    silent.close()
    await h?.close()
  })

  /** `promise`, or a failure after `ms`. */
  const within = <T>(promise: Promise<T>, ms = 5000) =>
    Promise.race([
      promise,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)),
    ])

  test('forgot-password and resend-verification answer a known address without waiting for its mail', async () => {
    // Made in the database: registering would wait for its own verification mail.
    const email = uniqueEmail('unmailed')
    await h.database.db.insert(users).values({
      id: uuidv7(),
      name: 'Unmailed User',
      email,
      passwordHash: await hashPassword(PASSWORD),
      createdAt: h.clock.now,
      updatedAt: h.clock.now,
    })
    const forgot = await within(h.call('POST', '/api/auth/forgot-password', { body: { email } }))
    expect(forgot.status).toBe(200)
    expect(await forgot.json()).toEqual({ message: AUTH_MESSAGES.forgotSent })
    const resend = await within(h.call('POST', '/api/auth/resend-verification', { body: { email } }))
    expect(resend.status).toBe(200)
    expect(await resend.json()).toEqual({ message: AUTH_MESSAGES.resendSent })
    // Both mails did set out, after the answers.
    const deadline = Date.now() + 5000
    while (sockets.size < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
    expect(sockets.size).toBe(2)
  })
})
