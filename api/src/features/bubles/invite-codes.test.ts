import { eq } from 'drizzle-orm'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { invites, users } from '../../db/schema.ts'
import { backends } from '../../testing/databases.ts'
import { createHarness, type Harness, type TestResponse, uniqueEmail } from '../../testing/harness.ts'
import { mutation, push } from '../../testing/sync.ts'
import { INVITE_MESSAGES } from './invites.ts'

/**
 * A buble's invite codes after they are made (issue 18): the inviters' list of active codes, revoking
 * one (REST and the `invite.revoke` mutation), and the codes of a member who goes (removed, left,
 * account deleted) stopping at once.
 */

const DAY = 24 * 60 * 60 * 1000
const WEEK = 7 * DAY

// Fixed by CONTRACT §2, §3.2.
const INVITE_INVALID = { code: 'TOKEN_INVALID', message: 'Invalid invite code or code has expired' }
const BUBLE_NOT_FOUND = { code: 'NOT_FOUND', message: 'Buble not found' }
const NOT_ALLOWED = { code: 'FORBIDDEN', message: INVITE_MESSAGES.notAllowed }
const CODE_NOT_FOUND = { code: 'NOT_FOUND', message: INVITE_MESSAGES.codeNotFound }

type User = { token: string; id: string; email: string; name: string }

describe.each(backends())('invite codes on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
  })
  afterAll(() => h?.close())

  let userCount = 0
  /** An account made straight in the database (no argon2). */
  const quickUser = async (name = `Person ${++userCount}`): Promise<User> => {
    const email = uniqueEmail('codes')
    const [row] = await h.database.db
      .insert(users)
      .values({ id: uuidv7(), name, email, emailVerified: true, createdAt: h.clock.now, updatedAt: h.clock.now })
      .returning()
    return { id: row!.id, email, name, token: await h.deps.tokens.sign(row!) }
  }
  const create = async (owner: User, name: string): Promise<{ id: string }> => {
    const res = await h.call('POST', '/api/bubles', { token: owner.token, body: { name } })
    expect(res.status).toBe(201)
    return res.json()
  }
  const makeCode = async (who: User, bubleId: string, body: { email?: string } = {}): Promise<string> => {
    const res = await h.call('POST', `/api/bubles/${bubleId}/invites`, { token: who.token, body })
    expect(res.status).toBe(201)
    return (await res.json()).code
  }
  const accept = (who: User, code: string) => h.call('POST', `/api/bubles/invites/${code}/accept`, { token: who.token })
  const join = async (who: User, bubleId: string, inviter: User, role?: 'admin' | 'moderator') => {
    expect((await accept(who, await makeCode(inviter, bubleId))).status).toBe(200)
    if (role) {
      const res = await h.call('PUT', `/api/bubles/${bubleId}/members/role`, {
        token: inviter.token,
        body: { userId: who.id, role },
      })
      expect(res.status).toBe(200)
    }
  }
  const list = (who: User, bubleId: string) => h.call('GET', `/api/bubles/${bubleId}/invites`, { token: who.token })
  const codesListed = async (who: User, bubleId: string): Promise<string[]> => {
    const res = await list(who, bubleId)
    expect(res.status).toBe(200)
    return (await res.json()).invites.map((invite: { code: string }) => invite.code)
  }
  const revoke = (who: User, bubleId: string, code: string) =>
    h.call('DELETE', `/api/bubles/${bubleId}/invites/${encodeURIComponent(code)}`, { token: who.token })
  const rowOf = async (code: string) => (await h.database.db.select().from(invites).where(eq(invites.code, code)))[0]
  const expectBody = async (res: TestResponse, status: number, body: unknown) => {
    expect({ status: res.status, body: await res.json() }).toEqual({ status, body })
  }

  describe('the list of active codes', () => {
    test('answers the unused, unexpired codes of that buble, newest first, with who made each and for whom', async () => {
      const owner = await quickUser('Olga Owner')
      const buble = await create(owner, 'Listed Codes')
      const moderator = await quickUser('Milo Moderator')
      await join(moderator, buble.id, owner, 'moderator')
      const other = await create(owner, 'Other Buble')

      const expiring = await makeCode(owner, buble.id)
      h.clock.advance(DAY)
      const used = await makeCode(owner, buble.id)
      expect((await accept(await quickUser(), used)).status).toBe(200)
      h.clock.advance(1000)
      const invitee = await quickUser('Ines Invitee')
      const mailed = await makeCode(moderator, buble.id, { email: invitee.email })
      const mailedAt = h.clock.now.toISOString()
      h.clock.advance(1000)
      const plain = await makeCode(owner, buble.id)
      const plainAt = h.clock.now.toISOString()
      await makeCode(owner, other.id)

      const res = await list(owner, buble.id)
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({
        invites: [
          {
            code: plain,
            email: null,
            created_at: plainAt,
            expires_at: new Date(Date.parse(plainAt) + WEEK).toISOString(),
            created_by: { id: owner.id, name: 'Olga Owner', avatar_url: null },
          },
          {
            code: mailed,
            email: invitee.email,
            created_at: mailedAt,
            expires_at: new Date(Date.parse(mailedAt) + WEEK).toISOString(),
            created_by: { id: moderator.id, name: 'Milo Moderator', avatar_url: null },
          },
          expect.objectContaining({ code: expiring }),
        ],
      })

      // The first code expires: it is no longer listed.
      h.clock.advance(WEEK - DAY - 1000)
      expect(await codesListed(owner, buble.id)).toEqual([plain, mailed])
    })

    test('needs invite_members: a moderator may, a plain member gets 403, a non-member and a bad id 404', async () => {
      const owner = await quickUser()
      const buble = await create(owner, 'Who Lists')
      const moderator = await quickUser()
      const member = await quickUser()
      await join(moderator, buble.id, owner, 'moderator')
      await join(member, buble.id, owner)
      const code = await makeCode(owner, buble.id)

      expect(await codesListed(moderator, buble.id)).toEqual([code])
      await expectBody(await list(member, buble.id), 403, NOT_ALLOWED)
      await expectBody(await list(await quickUser(), buble.id), 404, BUBLE_NOT_FOUND)
      await expectBody(await list(owner, uuidv7()), 404, BUBLE_NOT_FOUND)
      await expectBody(await list(owner, 'not-an-id'), 404, BUBLE_NOT_FOUND)
    })
  })

  describe('revoking a code', () => {
    test('204: the code stops working and leaves the list; revoking it again is 404', async () => {
      const owner = await quickUser()
      const buble = await create(owner, 'Revoked Codes')
      const kept = await makeCode(owner, buble.id)
      const code = await makeCode(owner, buble.id)
      // Read as a typed code is: any case, spaces and dashes.
      const typed = `${code.slice(0, 4).toLowerCase()}-${code.slice(4)}`
      const res = await revoke(owner, buble.id, typed)
      expect(res.status).toBe(204)
      expect(await res.text()).toBe('')

      await expectBody(await accept(await quickUser(), code), 410, INVITE_INVALID)
      expect(await codesListed(owner, buble.id)).toEqual([kept])
      await expectBody(await revoke(owner, buble.id, code), 404, CODE_NOT_FOUND)
      expect((await accept(await quickUser(), kept)).status).toBe(200)
    })

    test('a code that is unknown, of another buble, used or expired is 404, and the other buble’s code still works', async () => {
      const owner = await quickUser()
      const buble = await create(owner, 'Mine')
      const expired = await makeCode(owner, buble.id)
      h.clock.advance(WEEK)
      const stranger = await quickUser()
      const theirs = await create(stranger, 'Theirs')
      const theirCode = await makeCode(stranger, theirs.id)
      const used = await makeCode(owner, buble.id)
      expect((await accept(await quickUser(), used)).status).toBe(200)

      for (const code of ['ZZZZZZZZZZ', theirCode, used, expired])
        await expectBody(await revoke(owner, buble.id, code), 404, CODE_NOT_FOUND)
      expect(await rowOf(used)).toMatchObject({ usedAt: expect.any(Date) })
      expect(await rowOf(expired)).toBeDefined()
      expect((await accept(await quickUser(), theirCode)).status).toBe(200)
    })

    test('needs invite_members: a moderator may revoke the owner’s code; a member gets 403 and a non-member 404, and the code still works', async () => {
      const owner = await quickUser()
      const buble = await create(owner, 'Who Revokes')
      const moderator = await quickUser()
      const member = await quickUser()
      await join(moderator, buble.id, owner, 'moderator')
      await join(member, buble.id, owner)
      const code = await makeCode(owner, buble.id)

      await expectBody(await revoke(member, buble.id, code), 403, NOT_ALLOWED)
      await expectBody(await revoke(await quickUser(), buble.id, code), 404, BUBLE_NOT_FOUND)
      await expectBody(await revoke(owner, 'not-an-id', code), 404, BUBLE_NOT_FOUND)
      expect(await codesListed(owner, buble.id)).toEqual([code])

      expect((await revoke(moderator, buble.id, code)).status).toBe(204)
      await expectBody(await accept(await quickUser(), code), 410, INVITE_INVALID)
    })

    test('the invite.revoke mutation does the same, refused as REST is (FORBIDDEN, NOT_FOUND, VALIDATION_ERROR)', async () => {
      const owner = await quickUser()
      const buble = await create(owner, 'Synced Revoke')
      const member = await quickUser()
      await join(member, buble.id, owner)
      const code = await makeCode(owner, buble.id)
      const other = await makeCode(owner, buble.id)

      const refused = await push(h, member.token, [mutation('invite.revoke', { buble_id: buble.id, code })])
      expect(refused[0]).toMatchObject({ status: 'rejected', ...NOT_ALLOWED })
      const outsider = await quickUser()
      const notMine = await push(h, outsider.token, [mutation('invite.revoke', { buble_id: buble.id, code })])
      expect(notMine[0]).toMatchObject({ status: 'rejected', ...BUBLE_NOT_FOUND })
      expect(await codesListed(owner, buble.id)).toEqual([other, code])

      const results = await push(h, owner.token, [
        mutation('invite.revoke', { buble_id: buble.id, code: code.toLowerCase() }),
        mutation('invite.revoke', { buble_id: buble.id, code }),
        mutation('invite.revoke', { buble_id: buble.id }),
      ])
      expect(results.map((result) => [result.status, result.code])).toEqual([
        ['applied', undefined],
        ['rejected', 'NOT_FOUND'],
        ['rejected', 'VALIDATION_ERROR'],
      ])
      expect(results[0]!.data ?? null).toBeNull()
      await expectBody(await accept(await quickUser(), code), 410, INVITE_INVALID)
      expect(await codesListed(owner, buble.id)).toEqual([other])
    })
  })

  describe('a member who goes takes their codes with them', () => {
    /** A buble with an owner and a moderator who made a plain code, an e-mailed one and a used one. */
    async function moderatorWithCodes(name: string) {
      const owner = await quickUser()
      const buble = await create(owner, name)
      const moderator = await quickUser()
      await join(moderator, buble.id, owner, 'moderator')
      const friend = await quickUser()
      const plain = await makeCode(moderator, buble.id)
      const mailed = await makeCode(moderator, buble.id, { email: friend.email })
      const used = await makeCode(moderator, buble.id)
      const joiner = await quickUser()
      expect((await accept(joiner, used)).status).toBe(200)
      const ownersCode = await makeCode(owner, buble.id)
      // Another buble of the moderator's: its codes are not this buble's business.
      const elsewhere = await create(moderator, `${name} elsewhere`)
      const elsewhereCode = await makeCode(moderator, elsewhere.id)
      return { owner, buble, moderator, friend, plain, mailed, used, ownersCode, elsewhereCode }
    }

    /** Their codes of that buble answer 410 (to them too), and are gone from the list; the rest stands. */
    async function expectRevoked(setup: Awaited<ReturnType<typeof moderatorWithCodes>>) {
      const { owner, buble, moderator, friend, plain, mailed, used, ownersCode, elsewhereCode } = setup
      await expectBody(await accept(moderator, plain), 410, INVITE_INVALID)
      await expectBody(await accept(friend, mailed), 410, INVITE_INVALID)
      await expectBody(await accept(await quickUser(), plain), 410, INVITE_INVALID)
      expect(await codesListed(owner, buble.id)).toEqual([ownersCode])
      // The used code stays, as the record of who came in by whom.
      expect(await rowOf(used)).toMatchObject({ createdById: moderator.id, usedAt: expect.any(Date) })
      expect((await accept(await quickUser(), ownersCode)).status).toBe(200)
      expect((await accept(await quickUser(), elsewhereCode)).status).toBe(200)
    }

    test('removed: they cannot come back, or let anyone in, with a code they made before', async () => {
      const setup = await moderatorWithCodes('Removal')
      const res = await h.call('DELETE', `/api/bubles/${setup.buble.id}/members/remove`, {
        token: setup.owner.token,
        body: { userId: setup.moderator.id },
      })
      expect(res.status).toBe(200)
      await expectRevoked(setup)
    })

    test('left: the same', async () => {
      const setup = await moderatorWithCodes('Leaving')
      const res = await h.call('DELETE', `/api/bubles/${setup.buble.id}/members/${setup.moderator.id}`, {
        token: setup.moderator.token,
      })
      expect(res.status).toBe(204)
      await expectRevoked(setup)
    })

    test('left by the buble.leave mutation: the same write', async () => {
      const setup = await moderatorWithCodes('Leaving offline')
      const [left] = await push(h, setup.moderator.token, [mutation('buble.leave', { buble_id: setup.buble.id })])
      expect(left?.status).toBe('applied')
      await expectRevoked(setup)
    })

    test('account deleted: the same, in every buble they were in', async () => {
      const setup = await moderatorWithCodes('Deleted Account')
      await h.services.users.adminDeleteAccount(setup.moderator.id)
      const { owner, buble, friend, plain, mailed, ownersCode, elsewhereCode } = setup
      for (const code of [plain, elsewhereCode])
        await expectBody(await accept(await quickUser(), code), 410, INVITE_INVALID)
      await expectBody(await accept(friend, mailed), 410, INVITE_INVALID)
      expect(await codesListed(owner, buble.id)).toEqual([ownersCode])
    })
  })
})
