import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { users } from '../../db/schema.ts'
import { backends } from '../../testing/databases.ts'
import { createHarness, type Harness, PUBLIC_URL, type TestResponse, uniqueEmail } from '../../testing/harness.ts'
import type { CapturedMail } from '../../testing/smtp.ts'

/**
 * The public previews of issue 21 §4: what a live invite code (GET /api/bubles/invites/:code) and a
 * live registration link (GET /api/bubles/complete-registration?token=…) show before joining, and
 * the one answer every dead code gets.
 */

const DAY = 24 * 60 * 60 * 1000
const WEEK = 7 * DAY

// Fixed by CONTRACT §2, §3.2: every dead code, whatever killed it, gets this and only this.
const DEAD_CODE = { code: 'TOKEN_INVALID', message: 'Invalid invite code or code has expired' }
const DEAD_LINK = { code: 'TOKEN_INVALID', message: 'This registration link is invalid or has expired' }

type User = { token: string; id: string; email: string; name: string }

describe.each(backends())('invite previews on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
  })
  afterAll(() => h?.close())

  let userCount = 0
  const quickUser = async (name = `Person ${++userCount}`): Promise<User> => {
    const email = uniqueEmail('preview')
    const [row] = await h.database.db
      .insert(users)
      .values({ id: uuidv7(), name, email, emailVerified: true, createdAt: h.clock.now, updatedAt: h.clock.now })
      .returning()
    return { id: row!.id, email, name, token: await h.deps.tokens.sign(row!) }
  }
  const create = async (owner: User, name: string): Promise<{ id: string; slug: string }> => {
    const res = await h.call('POST', '/api/bubles', { token: owner.token, body: { name } })
    expect(res.status).toBe(201)
    return res.json()
  }
  const makeCode = async (who: User, bubleId: string, body: { email?: string } = {}) => {
    const res = await h.call('POST', `/api/bubles/${bubleId}/invites`, { token: who.token, body })
    expect(res.status).toBe(201)
    return (await res.json()) as { code: string; expires_at: string }
  }
  /** No Authorization header at all: the preview is public. */
  const preview = (code: string) => h.call('GET', `/api/bubles/invites/${code}`)
  const previewLink = (token: string) =>
    h.call('GET', `/api/bubles/complete-registration?token=${encodeURIComponent(token)}`)
  const expectBody = async (res: TestResponse, status: number, body: unknown) => {
    expect({ status: res.status, body: await res.json() }).toEqual({ status, body })
  }
  const mailTo = async (to: string): Promise<CapturedMail> => {
    const deadline = Date.now() + 5000
    for (;;) {
      const found = h.smtp.mails.find((m) => m.to === to)
      if (found) return found
      if (Date.now() > deadline) throw new Error(`no mail to ${to}`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }

  describe('an invite code', () => {
    test('a live code shows, without a token, only the buble name, the inviter and the expiry', async () => {
      const owner = await quickUser('Olga Owner')
      const buble = await create(owner, 'Garden Club')
      const invite = await makeCode(owner, buble.id)
      // Exactly these keys: no id, slug, members or e-mail for someone who is not a member.
      await expectBody(await preview(invite.code), 200, {
        buble: { name: 'Garden Club' },
        invited_by: { name: 'Olga Owner' },
        expires_at: invite.expires_at,
      })
    })

    test('a code typed in lower case or with dashes is the same code', async () => {
      const owner = await quickUser('Pia Parent')
      const buble = await create(owner, 'School Run')
      const { code } = await makeCode(owner, buble.id)
      const typed = `${code.slice(0, 5).toLowerCase()}-${code.slice(5)}`
      const res = await preview(typed)
      expect(res.status).toBe(200)
      expect((await res.json()).buble.name).toBe('School Run')
    })

    test('previewing spends nothing: the code still joins afterwards', async () => {
      const owner = await quickUser()
      const buble = await create(owner, 'Choir')
      const { code } = await makeCode(owner, buble.id)
      expect((await preview(code)).status).toBe(200)
      expect((await preview(code)).status).toBe(200)
      const joiner = await quickUser()
      expect((await h.call('POST', `/api/bubles/invites/${code}/accept`, { token: joiner.token })).status).toBe(200)
    })

    test('a code mailed to an address shows the same preview (the mail links to it)', async () => {
      const owner = await quickUser('Mia Mailer')
      const buble = await create(owner, 'Book Club')
      const invitee = await quickUser()
      const invite = await makeCode(owner, buble.id, { email: invitee.email })
      await expectBody(await preview(invite.code), 200, {
        buble: { name: 'Book Club' },
        invited_by: { name: 'Mia Mailer' },
        expires_at: invite.expires_at,
      })
    })

    test('used, expired, revoked, unknown and malformed codes all get one and the same 410', async () => {
      const owner = await quickUser()
      const buble = await create(owner, 'Secret Society')
      const used = (await makeCode(owner, buble.id)).code
      const joiner = await quickUser()
      expect((await h.call('POST', `/api/bubles/invites/${used}/accept`, { token: joiner.token })).status).toBe(200)
      const revoked = (await makeCode(owner, buble.id)).code
      expect(
        (await h.call('DELETE', `/api/bubles/${buble.id}/invites/${revoked}`, { token: owner.token })).status,
      ).toBe(204)
      const expired = (await makeCode(owner, buble.id)).code
      const live = (await makeCode(owner, buble.id)).code
      h.clock.advance(WEEK + 1000)
      const fresh = (await makeCode(owner, buble.id)).code

      const dead = [
        used,
        revoked,
        expired,
        live, // expired too, by the clock
        '23456789AB', // the right shape, no such code
        'ABC', // too short
        'A'.repeat(200), // far too long
        'OOOOOOOOOO', // letters no code has
        encodeURIComponent('ABCDE FGHJ!'), // a stray character: not a 400, just no code
        encodeURIComponent('<script>'),
      ]
      for (const code of dead) await expectBody(await preview(code), 410, DEAD_CODE)
      // The control: the same buble's live code still answers.
      expect((await preview(fresh)).status).toBe(200)
    })

    test('a code made by another inviter names that inviter, not the owner', async () => {
      const owner = await quickUser('Olly Owner')
      const buble = await create(owner, 'Runners')
      const admin = await quickUser('Ada Admin')
      const adminCode = await makeCode(owner, buble.id)
      expect(
        (await h.call('POST', `/api/bubles/invites/${adminCode.code}/accept`, { token: admin.token })).status,
      ).toBe(200)
      const role = await h.call('PUT', `/api/bubles/${buble.id}/members/role`, {
        token: owner.token,
        body: { userId: admin.id, role: 'admin' },
      })
      expect(role.status).toBe(200)
      const invite = await makeCode(admin, buble.id)
      await expectBody(await preview(invite.code), 200, {
        buble: { name: 'Runners' },
        invited_by: { name: 'Ada Admin' },
        expires_at: invite.expires_at,
      })
    })

    test('accepting still needs a token: only the preview is public', async () => {
      const owner = await quickUser()
      const buble = await create(owner, 'Locked')
      const { code } = await makeCode(owner, buble.id)
      expect((await h.call('POST', `/api/bubles/invites/${code}/accept`)).status).toBe(401)
    })
  })

  describe('a registration link', () => {
    test('names the buble, its slug and the inviter, until the link is used; the new member is in that buble', async () => {
      const owner = await quickUser('Iris Inviter')
      const buble = await create(owner, 'Garden Club')
      const email = uniqueEmail('stranger')
      await makeCode(owner, buble.id, { email })
      const token = new URL(
        h.smtp.linkIn(await mailTo(email), `${PUBLIC_URL}/complete-registration?token=`),
      ).searchParams.get('token')!
      await expectBody(await previewLink(token), 200, {
        email,
        buble: { name: 'Garden Club', slug: buble.slug },
        invited_by: { name: 'Iris Inviter' },
      })

      const done = await h.call('POST', '/api/bubles/complete-registration', {
        body: { token, password: 'Correct-Horse-9' },
      })
      expect(done.status).toBe(200)
      const { access_token } = await done.json()
      const mine = await h.call('GET', `/api/bubles/${buble.slug}`, { token: access_token })
      expect(mine.status).toBe(200)

      await expectBody(await previewLink(token), 410, DEAD_LINK)
    })

    test('an unknown or expired link gets the same 410', async () => {
      await expectBody(await previewLink('not-a-real-token'), 410, DEAD_LINK)
      const owner = await quickUser()
      const buble = await create(owner, 'Late Club')
      const email = uniqueEmail('late')
      await makeCode(owner, buble.id, { email })
      const token = new URL(
        h.smtp.linkIn(await mailTo(email), `${PUBLIC_URL}/complete-registration?token=`),
      ).searchParams.get('token')!
      expect((await previewLink(token)).status).toBe(200)
      h.clock.advance(WEEK + 1000)
      await expectBody(await previewLink(token), 410, DEAD_LINK)
    })
  })
})

describe.each(backends())('invite previews are rate limited on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend)
  })
  afterAll(() => h?.close())

  test('an address that previews 60 codes in 15 minutes is refused the next with 429, live code or not', async () => {
    for (let i = 0; i < 60; i++) expect((await h.call('GET', '/api/bubles/invites/23456789AB')).status).toBe(410)
    const res = await h.call('GET', '/api/bubles/invites/23456789AB')
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/)
    expect((await h.call('GET', '/api/bubles/complete-registration?token=abc')).status).toBe(429)
  })
})
