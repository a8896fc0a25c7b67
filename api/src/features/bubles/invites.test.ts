import { PASSWORD_MESSAGES } from '@buble/shared/password'
import { eq } from 'drizzle-orm'
import pg from 'pg'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { invites, users } from '../../db/schema.ts'
import { backends, type TestDatabase } from '../../testing/databases.ts'
import {
  createHarness,
  type Harness,
  PASSWORD,
  PUBLIC_URL,
  type TestResponse,
  uniqueEmail,
} from '../../testing/harness.ts'
import type { CapturedMail } from '../../testing/smtp.ts'
import { INVITE_MESSAGES } from './invites.ts'

/** E-mail invites (CONTRACT §3.2, §6): codes bound to an address, pending accounts, complete-registration. */

const SECOND = 1000
const DAY = 24 * 60 * 60 * SECOND
const WEEK = 7 * DAY

// Fixed by CONTRACT §2, §3 and the spec.
const INVITE_INVALID = { code: 'TOKEN_INVALID', message: 'Invalid invite code or code has expired' }
const BAD_LOGIN = { code: 'INVALID_CREDENTIALS', message: 'Invalid email or password' }
const NEW_PASSWORD = 'Fresh-Start-2024'

type User = { token: string; id: string; email: string; name: string }

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!

describe.each(backends())('e-mail invites on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
  })
  afterAll(() => h?.close())

  let userCount = 0
  /** An account made straight in the database (no password, so no argon2): for inviters and bystanders. */
  const quickUser = async (name = `Inviter ${++userCount}`): Promise<User> => {
    const email = uniqueEmail('inviter')
    const [row] = await h.database.db
      .insert(users)
      .values({ id: uuidv7(), name, email, emailVerified: true, createdAt: h.clock.now, updatedAt: h.clock.now })
      .returning()
    return { id: row!.id, email, name, token: await h.deps.tokens.sign(row!) }
  }
  /** A registered account (it has a password and was mailed a verification link). */
  const registered = async (name = 'Rita Registered', email = uniqueEmail('invitee')): Promise<User> => ({
    ...(await h.register({ name, email })),
    name,
  })

  const create = async (token: string, name: string): Promise<{ id: string; name: string }> => {
    const res = await h.call('POST', '/api/bubles', { token, body: { name } })
    expect(res.status).toBe(201)
    return res.json()
  }
  const inviteCall = (token: string, bubleId: string, body: unknown = {}) =>
    h.call('POST', `/api/bubles/${bubleId}/invites`, { token, body })
  const inviteByMail = async (token: string, bubleId: string, email: string): Promise<string> => {
    const res = await inviteCall(token, bubleId, { email })
    expect(res.status).toBe(201)
    return (await res.json()).code
  }
  const accept = (token: string, code: string) => h.call('POST', `/api/bubles/invites/${code}/accept`, { token })
  const bubleIds = async (token: string): Promise<string[]> => {
    const res = await h.call('GET', '/api/bubles', { token })
    expect(res.status).toBe(200)
    return (await res.json()).map((b: { id: string }) => b.id)
  }
  const memberIds = async (token: string, bubleId: string): Promise<string[]> => {
    const res = await h.call('GET', `/api/bubles/${bubleId}/members`, { token })
    expect(res.status).toBe(200)
    return (await res.json()).map((m: { user_id: string }) => m.user_id)
  }
  const complete = (token: string, password: string = NEW_PASSWORD) =>
    h.call('POST', '/api/bubles/complete-registration', { body: { token, password } })
  const login = (email: string, password: string) => h.call('POST', '/api/auth/login', { body: { email, password } })
  const invitesOf = async (bubleId: string) => h.database.db.select().from(invites).where(eq(invites.bubleId, bubleId))
  const accountsWith = async (email: string) => h.database.db.select().from(users).where(eq(users.email, email))

  /** The one mail to `to` whose subject contains `subject`, once it has arrived. */
  const mailTo = async (to: string, subject: string): Promise<CapturedMail> => {
    const deadline = Date.now() + 5000
    for (;;) {
      const found = h.smtp.mails.filter((m) => m.to === to && m.subject.includes(subject))
      if (found.length > 1) throw new Error(`${found.length} mails to ${to} about "${subject}"`)
      if (found[0]) return found[0]
      if (Date.now() > deadline) throw new Error(`no mail to ${to} about "${subject}"`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  /** Every mail to `to` so far, after a pause long enough for one sent to have arrived. */
  const mailsSoFar = async (to: string) => {
    await new Promise((resolve) => setTimeout(resolve, 150))
    return h.smtp.mails.filter((m) => m.to === to)
  }
  const registrationLinkIn = (mail: CapturedMail) => h.smtp.linkIn(mail, `${PUBLIC_URL}/complete-registration?token=`)
  const verificationLinkOf = async (email: string) =>
    h.smtp.linkIn(await mailTo(email, 'Verify'), `${PUBLIC_URL}/verify-email?token=`)
  const verify = async (email: string) => {
    const res = await h.call('POST', '/api/auth/verify-email', {
      body: { token: tokenOf(await verificationLinkOf(email)) },
    })
    expect(res.status).toBe(200)
    return res.json()
  }
  const expectBody = async (res: TestResponse, status: number, body: unknown) => {
    expect({ status: res.status, body: await res.json() }).toEqual({ status, body })
  }

  describe('to an address with an account', () => {
    test('mails the code with its join link; the account is not a member until it accepts the code', async () => {
      const owner = await quickUser('Iris Inviter')
      const buble = await create(owner.token, 'Garden Club')
      const invitee = await registered()
      const res = await inviteCall(owner.token, buble.id, { email: `  ${invitee.email.toUpperCase()} ` })
      expect(res.status).toBe(201)
      const invite = await res.json()
      expect(invite).toEqual({ code: expect.stringMatching(/^[2-9A-HJ-NP-TV-Z]{8,}$/), expires_at: expect.any(String) })
      expect(new Date(invite.expires_at).getTime()).toBe(h.clock.now.getTime() + WEEK)

      const mail = await mailTo(invitee.email, 'invited you')
      expect(mail.subject).toContain('Iris Inviter')
      expect(mail.subject).toContain('Garden Club')
      expect(mail.text).toContain(invite.code)
      expect(h.smtp.linkIn(mail, PUBLIC_URL)).toBe(`${PUBLIC_URL}/join/${invite.code}`)
      expect(mail.text).not.toContain('complete-registration')

      expect(await bubleIds(invitee.token)).toEqual([])
      expect(await memberIds(owner.token, buble.id)).toEqual([owner.id])
      const joined = await accept(invitee.token, invite.code)
      expect(joined.status).toBe(200)
      expect(await joined.json()).toMatchObject({ id: buble.id, my_role: 'member', member_count: 2 })
      expect(await memberIds(owner.token, buble.id)).toEqual([owner.id, invitee.id])
    })

    test('the mailed code is bound to that address: anyone else gets 410, and the addressee can still use it', async () => {
      const owner = await quickUser()
      const buble = await create(owner.token, 'Bound Codes')
      const invitee = await quickUser('Ivy Invitee')
      const code = await inviteByMail(owner.token, buble.id, invitee.email)
      const thief = await quickUser('Theo Thief')
      await expectBody(await accept(thief.token, code), 410, INVITE_INVALID)
      expect(await bubleIds(thief.token)).toEqual([])
      expect(await memberIds(owner.token, buble.id)).toEqual([owner.id])
      expect((await accept(invitee.token, code)).status).toBe(200)
      // Spent now, for everyone.
      await expectBody(await accept(thief.token, code), 410, INVITE_INVALID)
    })

    test('inviting someone who is already a member is a 409 that mails nothing and makes no invite', async () => {
      const owner = await quickUser()
      const buble = await create(owner.token, 'Already Here')
      const member = await quickUser()
      expect((await accept(member.token, await inviteByMail(owner.token, buble.id, member.email))).status).toBe(200)
      // Mail leaves after the commit, not before the answer: let the first one arrive before counting.
      await mailTo(member.email, 'invited you')
      const mailed = (await mailsSoFar(member.email)).length
      const before = await invitesOf(buble.id)
      for (const email of [member.email, owner.email, member.email.toUpperCase()])
        await expectBody(await inviteCall(owner.token, buble.id, { email }), 409, {
          code: 'CONFLICT',
          message: INVITE_MESSAGES.alreadyMember,
        })
      expect(await invitesOf(buble.id)).toEqual(before)
      expect(await mailsSoFar(member.email)).toHaveLength(mailed)
      expect(await mailsSoFar(owner.email)).toEqual([])
    })

    test('e-mail invites need invite_members: a moderator may, a plain member gets 403 and a non-member 404, mailing nothing', async () => {
      const owner = await quickUser()
      const buble = await create(owner.token, 'Who Invites')
      const moderator = await quickUser()
      const member = await quickUser()
      for (const who of [moderator, member])
        expect((await accept(who.token, await inviteByMail(owner.token, buble.id, who.email))).status).toBe(200)
      const roleRes = await h.call('PUT', `/api/bubles/${buble.id}/members/role`, {
        token: owner.token,
        body: { userId: moderator.id, role: 'moderator' },
      })
      expect(roleRes.status).toBe(200)
      const stranger = await quickUser()
      const before = await invitesOf(buble.id)
      const target = uniqueEmail('wanted')

      await expectBody(await inviteCall(member.token, buble.id, { email: target }), 403, {
        code: 'FORBIDDEN',
        message: INVITE_MESSAGES.notAllowed,
      })
      await expectBody(await inviteCall(stranger.token, buble.id, { email: target }), 404, {
        code: 'NOT_FOUND',
        message: 'Buble not found',
      })
      expect(await invitesOf(buble.id)).toEqual(before)
      expect(await mailsSoFar(target)).toEqual([])
      expect(await accountsWith(target)).toEqual([])

      await inviteByMail(moderator.token, buble.id, target)
      expect(registrationLinkIn(await mailTo(target, 'invited you'))).toBeTruthy()
    })

    test.each([
      ['no @', 'not-an-email'],
      ['no dot in the domain', 'someone@localhost'],
      ['a space', 'some one@example.com'],
      ['an empty string', ''],
    ])('an address with %s is a 400 naming email, and nothing is made', async (_what, email) => {
      const owner = await quickUser()
      const buble = await create(owner.token, 'Bad Addresses')
      const res = await inviteCall(owner.token, buble.id, { email })
      expect(res.status).toBe(400)
      const body = await res.json()
      expect(body).toMatchObject({ code: 'VALIDATION_ERROR' })
      expect(body.issues[0].path).toBe('email')
      expect(await invitesOf(buble.id)).toEqual([])
    })

    test('an account that was mailed a code does not join on verifying its address; it joins with the code', async () => {
      const owner = await quickUser()
      const buble = await create(owner.token, 'No Auto Join')
      const invitee = await registered('Vera Verifier')
      const code = await inviteByMail(owner.token, buble.id, invitee.email)
      const verified = await verify(invitee.email)
      expect(verified.user).toMatchObject({ id: invitee.id, email_verified: true })
      expect(await bubleIds(invitee.token)).toEqual([])
      expect(await memberIds(owner.token, buble.id)).toEqual([owner.id])
      expect((await accept(invitee.token, code)).status).toBe(200)
      expect(await bubleIds(invitee.token)).toEqual([buble.id])
    })
  })

  describe('to an address with no account', () => {
    /** Invites a new address to a new buble; answers the inviter, buble, address, code and registration token. */
    const invitePending = async (localPart = 'ada.lovelace') => {
      const owner = await quickUser('Paula Pending-Inviter')
      const buble = await create(owner.token, 'Pending Club')
      // A unique domain keeps the local part as written: the account's name is made from it.
      const email = `${localPart}@${uniqueEmail('pending').replace('@', '.')}`
      const code = await inviteByMail(owner.token, buble.id, email)
      const mail = await mailTo(email, 'invited you')
      return { owner, buble, email, code, mail, token: tokenOf(registrationLinkIn(mail)) }
    }

    test('makes a pending account that cannot sign in and is not a member, and mails a complete-registration link', async () => {
      const { owner, buble, email, mail } = await invitePending()
      expect(mail.subject).toContain('Paula Pending-Inviter')
      expect(mail.subject).toContain('Pending Club')
      expect(registrationLinkIn(mail)).toMatch(new RegExp(`^${PUBLIC_URL}/complete-registration\\?token=[^\\s]+$`))
      expect(await accountsWith(email)).toMatchObject([{ status: 'pending', emailVerified: false }])

      // Signing in answers exactly as for an address nobody has.
      await expectBody(await login(email, PASSWORD), 401, BAD_LOGIN)
      await expectBody(await login(email, ''.padEnd(12, 'x')), 401, BAD_LOGIN)
      await expectBody(await login(uniqueEmail('nobody'), PASSWORD), 401, BAD_LOGIN)

      expect(await memberIds(owner.token, buble.id)).toEqual([owner.id])
      const seen = await (await h.call('GET', `/api/bubles/${buble.id}`, { token: owner.token })).json()
      expect(seen).toMatchObject({ member_count: 1, members: [{ id: owner.id }] })
    })

    test('complete-registration with the mailed token signs in a verified member of the inviting buble (no bearer needed)', async () => {
      const { owner, buble, email, token } = await invitePending('ada.lovelace')
      const [pending] = await accountsWith(email)
      h.clock.advance(SECOND)
      const res = await complete(token)
      expect(res.status).toBe(200)
      const body = await res.json()
      expect(Object.keys(body).sort()).toEqual(['access_token', 'user'])
      expect(body.user).toEqual({
        id: pending!.id,
        name: 'Ada Lovelace',
        email,
        email_verified: true,
        role: 'user',
        bio: null,
        avatar_url: null,
        created_at: expect.any(String),
      })
      expect(await bubleIds(body.access_token)).toEqual([buble.id])
      const mine = await (await h.call('GET', `/api/bubles/${buble.id}`, { token: body.access_token })).json()
      expect(mine).toMatchObject({ my_role: 'member', member_count: 2 })
      expect(await memberIds(owner.token, buble.id)).toEqual([owner.id, pending!.id])
      // The chosen password signs in from now on.
      const signedIn = await login(email, NEW_PASSWORD)
      expect(signedIn.status).toBe(200)
      expect((await signedIn.json()).user).toMatchObject({ id: pending!.id, email_verified: true })
    })

    test('the registration link works once: a second use is 410 TOKEN_INVALID and changes nothing', async () => {
      const { token, email } = await invitePending()
      expect((await complete(token)).status).toBe(200)
      const res = await complete(token, 'Another-Password-7')
      expect(res.status).toBe(410)
      expect(await res.json()).toMatchObject({ code: 'TOKEN_INVALID' })
      expect((await login(email, NEW_PASSWORD)).status).toBe(200)
      expect((await login(email, 'Another-Password-7')).status).toBe(401)
    })

    test('a weak password is a 400 with the first failing rule’s message, and leaves the link usable', async () => {
      const { token, email } = await invitePending()
      for (const [password, message] of [
        ['abc', PASSWORD_MESSAGES.min6],
        ['abcdefg', PASSWORD_MESSAGES.min12],
        ['Abcdefghijk1-Abcdefghijk1-Abcdefgh', PASSWORD_MESSAGES.max31],
        ['abcdefghijk1', PASSWORD_MESSAGES.upper],
        ['ABCDEFGHIJK1', PASSWORD_MESSAGES.lower],
        ['Abcdefghijkl', PASSWORD_MESSAGES.digit],
      ] as const) {
        const res = await complete(token, password)
        expect(res.status).toBe(400)
        expect(await res.json()).toEqual({
          code: 'VALIDATION_ERROR',
          message,
          issues: [{ path: 'password', message }],
        })
      }
      expect(await accountsWith(email)).toMatchObject([{ status: 'pending' }])
      expect((await complete(token)).status).toBe(200)
    })

    test('an unknown token is a 410; a missing token or password is a 400', async () => {
      const unknown = await complete('not-a-token-we-ever-sent')
      expect(unknown.status).toBe(410)
      expect((await unknown.json()).code).toBe('TOKEN_INVALID')
      for (const body of [{ password: NEW_PASSWORD }, { token: 'x' }, { token: '   ', password: NEW_PASSWORD }]) {
        const res = await h.call('POST', '/api/bubles/complete-registration', { body })
        expect(res.status).toBe(400)
        expect((await res.json()).code).toBe('VALIDATION_ERROR')
      }
    })

    test('the link lives 7 days: it works just before, and is a 410 just after, leaving that account pending', async () => {
      const early = await invitePending()
      const late = await invitePending()
      h.clock.advance(WEEK - 1)
      expect((await complete(early.token)).status).toBe(200)
      expect(await memberIds(early.owner.token, early.buble.id)).toHaveLength(2)
      h.clock.advance(2)
      const res = await complete(late.token)
      expect(res.status).toBe(410)
      expect((await res.json()).code).toBe('TOKEN_INVALID')
      expect(await accountsWith(late.email)).toMatchObject([{ status: 'pending' }])
      expect(await memberIds(late.owner.token, late.buble.id)).toEqual([late.owner.id])
    })

    test('the code sent with a pending account is bound to its address: another user gets 410', async () => {
      const { owner, buble, code } = await invitePending()
      const other = await quickUser()
      await expectBody(await accept(other.token, code), 410, INVITE_INVALID)
      expect(await memberIds(owner.token, buble.id)).toEqual([owner.id])
    })

    test('inviting a pending address again keeps one account; each mailed link completes it, and it joins every inviting buble', async () => {
      const first = await quickUser('First Inviter')
      const second = await quickUser('Second Inviter')
      const a = await create(first.token, 'Buble A')
      const b = await create(second.token, 'Buble B')
      const email = uniqueEmail('twice')
      await inviteByMail(first.token, a.id, email)
      const linkA = registrationLinkIn(await mailTo(email, 'Buble A'))
      h.clock.advance(SECOND)
      await inviteByMail(second.token, b.id, email)
      const linkB = registrationLinkIn(await mailTo(email, 'Buble B'))
      expect(await accountsWith(email)).toHaveLength(1)

      // The first mail still works though a second came since: it says it works for 7 days.
      const res = await complete(tokenOf(linkA))
      expect(res.status).toBe(200)
      const { access_token } = await res.json()
      expect((await bubleIds(access_token)).sort()).toEqual([a.id, b.id].sort())
      // The account is active now: the other link has nothing left to do.
      expect((await complete(tokenOf(linkB))).status).toBe(410)
    })

    test('if the inviting buble was deleted meanwhile, registration still completes and joins nothing', async () => {
      const { owner, buble, token } = await invitePending()
      expect((await h.call('DELETE', `/api/bubles/${buble.id}`, { token: owner.token })).status).toBe(204)
      const res = await complete(token)
      expect(res.status).toBe(200)
      expect(await bubleIds((await res.json()).access_token)).toEqual([])
    })

    test('registering normally with the invited address instead joins on verification, and then the link is a 410', async () => {
      const { owner, buble, email, token } = await invitePending()
      const [pending] = await accountsWith(email)
      const account = await registered('Nora Normal', email)
      // The pending account is taken over, not duplicated; it may sign in but is no member yet.
      expect(account.id).toBe(pending!.id)
      expect(await accountsWith(email)).toHaveLength(1)
      expect((await login(email, PASSWORD)).status).toBe(200)
      expect(await bubleIds(account.token)).toEqual([])
      expect(await memberIds(owner.token, buble.id)).toEqual([owner.id])

      const verified = await verify(email)
      expect(verified.user).toMatchObject({ id: account.id, email_verified: true, name: 'Nora Normal' })
      expect(await bubleIds(account.token)).toEqual([buble.id])
      expect(await memberIds(owner.token, buble.id)).toEqual([owner.id, account.id])

      const res = await complete(token)
      expect(res.status).toBe(410)
      expect((await res.json()).code).toBe('TOKEN_INVALID')
      // Their own password still stands.
      expect((await login(email, PASSWORD)).status).toBe(200)
      expect((await login(email, NEW_PASSWORD)).status).toBe(401)
    })

    test('registering with the invited address does not kill the link: used before anyone verifies, it takes the account over', async () => {
      const { owner, buble, email, token } = await invitePending()
      const [pending] = await accountsWith(email)
      const squatter = await registered('Sam Squatter', email)
      expect(squatter.id).toBe(pending!.id)
      expect((await h.call('GET', '/api/bubles', { token: squatter.token })).status).toBe(200)

      const res = await complete(token)
      expect(res.status).toBe(200)
      const body = await res.json()
      expect(body.user).toMatchObject({ id: pending!.id, email, email_verified: true })
      // The link holder's password wins; whatever the registrant was issued stops working.
      expect((await login(email, NEW_PASSWORD)).status).toBe(200)
      await expectBody(await login(email, PASSWORD), 401, BAD_LOGIN)
      expect((await h.call('GET', '/api/bubles', { token: squatter.token })).status).toBe(401)
      // The invites follow the address.
      expect(await bubleIds(body.access_token)).toEqual([buble.id])
      expect(await memberIds(owner.token, buble.id)).toEqual([owner.id, pending!.id])
      expect(await accountsWith(email)).toMatchObject([{ status: 'active', emailVerified: true }])

      // The link is spent now, and the address has an account.
      expect((await complete(token, 'Another-Password-7')).status).toBe(410)
      const again = await h.call('POST', '/api/auth/register', {
        body: { name: 'Sam Again', email, password: PASSWORD },
      })
      expect(again.status).toBe(409)
      expect((await login(email, NEW_PASSWORD)).status).toBe(200)
    })

    test('after a takeover, completing the link joins only what invited the pending account; a code mailed since waits for its code', async () => {
      const { owner, buble, email, token } = await invitePending()
      await registered('Nils Normal', email)
      h.clock.advance(SECOND)
      const other = await quickUser('Later Inviter')
      const later = await create(other.token, 'Later Buble')
      const code = await inviteByMail(other.token, later.id, email)
      expect((await mailTo(email, 'Later Buble')).text).not.toContain('complete-registration')
      h.clock.advance(SECOND)

      const res = await complete(token)
      expect(res.status).toBe(200)
      const { access_token, user } = await res.json()
      expect(await bubleIds(access_token)).toEqual([buble.id])
      expect(await memberIds(owner.token, buble.id)).toEqual([owner.id, user.id])
      expect(await memberIds(other.token, later.id)).toEqual([other.id])
      expect((await accept(access_token, code)).status).toBe(200)
    })

    test('a taken-over account whose link has expired stays with the registrant: the link is a 410', async () => {
      const { email, token } = await invitePending()
      const account = await registered('Rae Registrant', email)
      h.clock.advance(WEEK + SECOND)
      expect((await complete(token)).status).toBe(410)
      expect((await login(email, PASSWORD)).status).toBe(200)
      expect((await h.call('GET', '/api/bubles', { token: account.token })).status).toBe(200)
    })

    /** A connection of its own that holds locks while the app's requests queue behind them (PostgreSQL only). */
    async function lockHolder() {
      const holder = new pg.Client({ connectionString: (h.database as TestDatabase).url })
      await holder.connect()
      await holder.query('begin')
      return {
        query: (text: string, values?: unknown[]) => holder.query(text, values),
        /** Waits (bounded) until `n` of the app's transactions wait for a lock. */
        async waiters(n: number) {
          const deadline = Date.now() + 10_000
          for (;;) {
            // Inside a transaction the statistics views answer one snapshot unless told to take another.
            await holder.query('select pg_stat_clear_snapshot()')
            const { rows } = await holder.query(
              "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
            )
            if (rows[0].n >= n) return
            if (Date.now() > deadline) throw new Error(`${rows[0].n} waiting for a lock, not ${n}`)
            await new Promise((resolve) => setTimeout(resolve, 10))
          }
        },
        async release() {
          await holder.query('rollback')
          await holder.end()
        },
      }
    }

    // Two connections at once: PostgreSQL only (PGlite has one).
    if (backend === 'postgres')
      test('a registration that read the address as pending just before the link completed it takes nothing over: 409', async () => {
        const { owner, buble, email, token } = await invitePending()
        const holder = await lockHolder()
        let completing: Promise<TestResponse> | undefined
        let registering: Promise<TestResponse> | undefined
        try {
          await holder.query('select id from users where email = $1 for update', [email])
          // The link first in line for the account's row; the registration reads it as pending, then queues.
          completing = complete(token)
          await holder.waiters(1)
          registering = h.call('POST', '/api/auth/register', {
            body: { name: 'Late Larry', email, password: PASSWORD },
          })
          await holder.waiters(2)
        } finally {
          await holder.release()
        }
        const [completed, signup] = await Promise.all([completing!, registering!])
        expect(completed.status).toBe(200)
        await expectBody(signup, 409, { code: 'CONFLICT', message: 'An account with this email already exists' })
        expect((await login(email, NEW_PASSWORD)).status).toBe(200)
        await expectBody(await login(email, PASSWORD), 401, BAD_LOGIN)
        expect(await accountsWith(email)).toMatchObject([{ name: 'Ada Lovelace', emailVerified: true }])
        expect(await memberIds(owner.token, buble.id)).toHaveLength(2)
      })

    if (backend === 'postgres')
      test('verify-email and complete-registration at the same moment lock in one order: the link, first in line, wins without a deadlock', async () => {
        const { owner, buble, email, token } = await invitePending()
        const account = await registered('Rex Racer', email)
        const verifyToken = tokenOf(await verificationLinkOf(email))
        const holder = await lockHolder()
        let completing: Promise<TestResponse> | undefined
        let verifying: Promise<TestResponse> | undefined
        try {
          // The account's row: both writes queue behind it, the link first.
          await holder.query('select id from users where email = $1 for update', [email])
          completing = complete(token)
          await holder.waiters(1)
          verifying = h.call('POST', '/api/auth/verify-email', { body: { token: verifyToken } })
          await holder.waiters(2)
        } finally {
          await holder.release()
        }
        const [completed, verified] = await Promise.all([completing!, verifying!])
        expect([completed.status, verified.status]).toEqual([200, 200])
        const { user } = await completed.json()
        expect(user).toMatchObject({ id: account.id, email_verified: true })
        expect((await login(email, NEW_PASSWORD)).status).toBe(200)
        expect((await login(email, PASSWORD)).status).toBe(401)
        expect(await memberIds(owner.token, buble.id)).toEqual([owner.id, account.id])
      })

    test('an account registered after a pending invite and mailed a code before verifying joins only the pending invite on verification', async () => {
      const { owner, buble, email } = await invitePending()
      const account = await registered('Nils Normal', email)
      h.clock.advance(SECOND)
      const other = await quickUser('Later Inviter')
      const later = await create(other.token, 'Later Buble')
      const code = await inviteByMail(other.token, later.id, email)
      // It had an account when this code was mailed: a code, no registration link.
      expect((await mailTo(email, 'Later Buble')).text).toContain(code)
      h.clock.advance(SECOND)
      await verify(email)
      expect(await bubleIds(account.token)).toEqual([buble.id])
      expect(await memberIds(owner.token, buble.id)).toEqual([owner.id, account.id])
      expect(await memberIds(other.token, later.id)).toEqual([other.id])
      // The code is theirs to use.
      expect((await accept(account.token, code)).status).toBe(200)
    })
  })
})

describe.each(backends())('e-mail invite rate limit on %s', (backend) => {
  let h: Harness
  // Rate limits on, as in production.
  beforeAll(async () => {
    h = await createHarness(backend)
  })
  afterAll(() => h?.close())

  const quickUser = async (): Promise<User> => {
    const email = uniqueEmail('limited')
    const [row] = await h.database.db
      .insert(users)
      .values({ id: uuidv7(), name: 'Busy Inviter', email, createdAt: h.clock.now, updatedAt: h.clock.now })
      .returning()
    return { id: row!.id, email, name: 'Busy Inviter', token: await h.deps.tokens.sign(row!) }
  }
  const invite = (token: string, bubleId: string, body: unknown) =>
    h.call('POST', `/api/bubles/${bubleId}/invites`, { token, body })

  test('more than 30 e-mail invites an hour by one user are a 429 with Retry-After; codes without e-mail and other users go on', async () => {
    const busy = await quickUser()
    const create = await h.call('POST', '/api/bubles', { token: busy.token, body: { name: 'Busy Buble' } })
    const buble = await create.json()
    for (let i = 0; i < 30; i++) {
      const res = await invite(busy.token, buble.id, { email: uniqueEmail(`friend${i}`) })
      expect(res.status).toBe(201)
    }
    const refused = uniqueEmail('one-too-many')
    const res = await invite(busy.token, buble.id, { email: refused })
    expect(res.status).toBe(429)
    expect(await res.json()).toEqual({ code: 'RATE_LIMITED', message: expect.any(String) })
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await h.database.db.select().from(users).where(eq(users.email, refused))).toEqual([])
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect(h.smtp.mails.filter((m) => m.to === refused)).toEqual([])

    // A code shown on screen mails nobody: not limited.
    expect((await invite(busy.token, buble.id, {})).status).toBe(201)
    // Another member of the same buble has their own allowance.
    const other = await quickUser()
    const codeRes = await invite(busy.token, buble.id, {})
    const { code } = await codeRes.json()
    expect((await h.call('POST', `/api/bubles/invites/${code}/accept`, { token: other.token })).status).toBe(200)
    await h.call('PUT', `/api/bubles/${buble.id}/members/role`, {
      token: busy.token,
      body: { userId: other.id, role: 'admin' },
    })
    expect((await invite(other.token, buble.id, { email: uniqueEmail('fine') })).status).toBe(201)
  })
})
