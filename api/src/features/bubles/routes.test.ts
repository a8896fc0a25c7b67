import { randomUUID } from 'node:crypto'
import { BUBLE_MESSAGES, INVITE_ALPHABET, isUuid } from '@buble/shared/bubles'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { invites } from '../../db/schema.ts'
import { ID_IN_USE } from '../../lib/entity-ids.ts'
import { backends } from '../../testing/databases.ts'
import { createHarness, type Harness, type TestResponse } from '../../testing/harness.ts'

const SECOND = 1000
const DAY = 24 * 60 * 60 * SECOND
const WEEK = 7 * DAY

// CONTRACT §4: the owner always holds all thirteen; a plain member gets create_events and create_polls.
const ALL_PERMISSIONS = [
  'manage_buble',
  'delete_buble',
  'manage_members',
  'invite_members',
  'remove_members',
  'change_roles',
  'manage_events',
  'manage_polls',
  'create_events',
  'create_polls',
  'moderate_content',
  'delete_others_content',
  'pin_posts',
]
const MEMBER_DEFAULTS = ['create_events', 'create_polls']

// Fixed by CONTRACT §3.2 and the spec, so written out rather than imported.
const NAME_REQUIRED = 'Buble name is required'
const NOT_FOUND = 'Buble not found'
const INVITE_INVALID = 'Invalid invite code or code has expired'

const sorted = (list: readonly string[]) => [...list].sort()

type User = { token: string; id: string; email: string; name: string }

describe.each(backends())('bubles on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
  })
  afterAll(() => h?.close())

  let userCount = 0
  /** A registered user, with the name they registered under. */
  const user = async (name = `Member ${++userCount}`): Promise<User> => ({ ...(await h.register({ name })), name })

  /** Creates a buble and insists on the 201. */
  const create = async (token: string, name: string, id?: string) => {
    const res = await h.call('POST', '/api/bubles', { token, body: id ? { id, name } : { name } })
    expect(res.status).toBe(201)
    return res.json()
  }
  const list = async (token: string) => {
    const res = await h.call('GET', '/api/bubles', { token })
    expect(res.status).toBe(200)
    return res.json()
  }
  const listIds = async (token: string): Promise<string[]> => (await list(token)).map((b: { id: string }) => b.id)
  const get = (token: string, idOrSlug: string) => h.call('GET', `/api/bubles/${idOrSlug}`, { token })
  const getOk = async (token: string, idOrSlug: string) => {
    const res = await get(token, idOrSlug)
    expect(res.status).toBe(200)
    return res.json()
  }
  const membersOf = async (token: string, bubleId: string) => {
    const res = await h.call('GET', `/api/bubles/${bubleId}/members`, { token })
    expect(res.status).toBe(200)
    return res.json()
  }
  const invite = async (token: string, bubleId: string): Promise<string> => {
    const res = await h.call('POST', `/api/bubles/${bubleId}/invites`, { token, body: {} })
    expect(res.status).toBe(201)
    return (await res.json()).code
  }
  const accept = (token: string, code: string) =>
    h.call('POST', `/api/bubles/invites/${encodeURIComponent(code)}/accept`, { token })
  const join = async (token: string, code: string) => {
    const res = await accept(token, code)
    expect(res.status).toBe(200)
    return res.json()
  }
  const inviteCount = async (bubleId: string) =>
    (await h.database.db.select().from(invites).where(eq(invites.bubleId, bubleId))).length

  /** An owner with a buble and one plain member who joined by invite. */
  const withMember = async (name = 'Shared Buble') => {
    const owner = await user('Olive Owner')
    const buble = await create(owner.token, name)
    const member = await user('Max Member')
    h.clock.advance(SECOND)
    await join(member.token, await invite(owner.token, buble.id))
    return { owner, member, buble }
  }

  const expectError = async (res: TestResponse, status: number, code: string, message?: string) => {
    expect(res.status).toBe(status)
    const body = await res.json()
    expect(body.code).toBe(code)
    if (message !== undefined) expect(body.message).toBe(message)
    return body
  }
  const expectNotFound = async (res: TestResponse) => {
    expect(await expectError(res, 404, 'NOT_FOUND')).toEqual({ code: 'NOT_FOUND', message: NOT_FOUND })
  }

  describe('create', () => {
    test('answers 201 with the whole Buble: trimmed name, slug, owner, the owner as the only member with all thirteen permissions', async () => {
      const ada = await user('Ada Lovelace')
      const res = await h.call('POST', '/api/bubles', { token: ada.token, body: { name: '  Book Club Göteborg  ' } })
      expect(res.status).toBe(201)
      const buble = await res.json()
      expect(buble).toEqual({
        id: expect.any(String),
        slug: 'book-club-goteborg',
        name: 'Book Club Göteborg',
        created_at: h.clock.now.toISOString(),
        owner_id: ada.id,
        owner: { id: ada.id, name: 'Ada Lovelace', email: ada.email },
        member_count: 1,
        members: [{ id: ada.id, name: 'Ada Lovelace', avatar_url: null }],
        my_role: 'owner',
        my_permissions: expect.any(Array),
        // The overview tools that are on: the fixed three to begin with.
        tools: ['wall', 'stories', 'local_events'],
      })
      expect(isUuid(buble.id)).toBe(true)
      expect(buble.id).toBe(buble.id.toLowerCase())
      expect(sorted(buble.my_permissions)).toEqual(sorted(ALL_PERMISSIONS))
      // What was answered is what was stored.
      expect(await getOk(ada.token, buble.id)).toEqual(buble)
      expect(await list(ada.token)).toEqual([buble])
    })

    test('slugs are unique: a second buble with the same name gets a different slug, and each slug finds its own buble', async () => {
      const first = await user()
      const second = await user()
      const a = await create(first.token, 'Chess Night')
      const b = await create(second.token, 'Chess Night')
      const c = await create(first.token, 'chess night')
      expect(a.slug).toBe('chess-night')
      expect(b.slug).toMatch(/^chess-night-[a-z0-9]+$/)
      expect(c.slug).toMatch(/^chess-night-[a-z0-9]+$/)
      expect(new Set([a.slug, b.slug, c.slug]).size).toBe(3)
      expect((await getOk(first.token, a.slug)).id).toBe(a.id)
      expect((await getOk(second.token, b.slug)).id).toBe(b.id)
      expect((await getOk(first.token, c.slug)).id).toBe(c.id)
    })

    test('a name with no latin letters still gets a usable slug starting with "buble"', async () => {
      const { token } = await user()
      const emoji = await create(token, '🎉🎈')
      const punctuation = await create(token, '!!! ???')
      const kanji = await create(token, '読書会')
      for (const buble of [emoji, punctuation, kanji]) {
        expect(buble.slug).toMatch(/^buble(-[a-z0-9]+)?$/)
        expect((await getOk(token, buble.slug)).id).toBe(buble.id)
      }
      expect(new Set([emoji.slug, punctuation.slug, kanji.slug]).size).toBe(3)
      expect(emoji.name).toBe('🎉🎈')
    })

    test('a name shaped like a UUID gets a slug that is not a UUID, so the slug still finds the buble', async () => {
      const { token } = await user()
      const uuidName = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b'
      const buble = await create(token, uuidName)
      expect(buble.name).toBe(uuidName)
      expect(isUuid(buble.slug)).toBe(false)
      expect(buble.slug).toContain('buble')
      expect((await getOk(token, buble.slug)).id).toBe(buble.id)
    })

    test('a long name keeps its 80 characters while the slug stays short and never ends in a dash', async () => {
      const { token } = await user()
      const name = `${'word '.repeat(15)}final`
      expect(name).toHaveLength(80)
      const buble = await create(token, name)
      expect(buble.name).toBe(name)
      expect(buble.slug.length).toBeLessThanOrEqual(60)
      expect(buble.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
    })

    test.each([
      ['an empty name', ''],
      ['a name of spaces', '   '],
      ['a name of whitespace and newlines', ' \t\n '],
    ])('%s is refused with 400 "Buble name is required" and creates nothing', async (_what, name) => {
      const { token } = await user()
      const res = await h.call('POST', '/api/bubles', { token, body: { name } })
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({
        code: 'VALIDATION_ERROR',
        message: NAME_REQUIRED,
        issues: [{ path: 'name', message: NAME_REQUIRED }],
      })
      expect(await list(token)).toEqual([])
    })

    test('a missing or non-string name is refused with "Buble name is required"', async () => {
      const { token } = await user()
      for (const body of [{}, { name: null }, { name: 42 }]) {
        const res = await h.call('POST', '/api/bubles', { token, body })
        await expectError(res, 400, 'VALIDATION_ERROR', NAME_REQUIRED)
      }
      expect(await list(token)).toEqual([])
    })

    test('80 characters are accepted (after trimming), 81 are refused with 400', async () => {
      const { token } = await user()
      const eighty = 'x'.repeat(80)
      expect((await create(token, `  ${eighty}  `)).name).toBe(eighty)
      const res = await h.call('POST', '/api/bubles', { token, body: { name: 'y'.repeat(81) } })
      const body = await expectError(res, 400, 'VALIDATION_ERROR', BUBLE_MESSAGES.nameTooLong)
      expect(body.issues).toEqual([{ path: 'name', message: BUBLE_MESSAGES.nameTooLong }])
      expect((await list(token)).map((b: { name: string }) => b.name)).toEqual([eighty])
    })

    test.each([
      ['a line feed', 'Book\nClub'],
      ['a carriage return', 'Book\rClub'],
      ['a tab', 'Book\tClub'],
      ['a NUL', 'Book\u0000Club'],
      ['a DEL', 'Book\u007fClub'],
      ['a right-to-left override', 'Book\u202eClub'],
      ['a bidi isolate', 'Book\u2066Club'],
    ])('a name containing %s is refused with 400 and creates nothing', async (_what, name) => {
      const { token } = await user()
      const res = await h.call('POST', '/api/bubles', { token, body: { name } })
      await expectError(res, 400, 'VALIDATION_ERROR', BUBLE_MESSAGES.nameControl)
      expect(await list(token)).toEqual([])
    })

    test('a body that is not JSON is a 400, and nothing is created', async () => {
      const { token } = await user()
      const res = await h.call('POST', '/api/bubles', { token, body: '{"name": "Broken' })
      await expectError(res, 400, 'VALIDATION_ERROR')
      expect(await list(token)).toEqual([])
    })

    test('creating needs a token', async () => {
      const res = await h.call('POST', '/api/bubles', { body: { name: 'Anonymous' } })
      await expectError(res, 401, 'UNAUTHORIZED')
    })

    test('a client-chosen id is kept; the same id again by the same user answers 200 with the same buble, not a second one', async () => {
      const { token } = await user()
      const id = randomUUID()
      const first = await create(token, 'Offline Club', id)
      expect(first.id).toBe(id)
      h.clock.advance(SECOND)
      const again = await h.call('POST', '/api/bubles', { token, body: { id, name: 'Offline Club' } })
      expect(again.status).toBe(200)
      expect(await again.json()).toEqual(first)
      // A replay with another name still answers the buble as it was made.
      const renamed = await h.call('POST', '/api/bubles', { token, body: { id, name: 'Another Name' } })
      expect(renamed.status).toBe(200)
      expect(await renamed.json()).toEqual(first)
      expect(await list(token)).toEqual([first])
    })

    test('a client id in upper case names the same id: the buble is created under its lower-case form', async () => {
      const { token } = await user()
      const id = randomUUID()
      const res = await h.call('POST', '/api/bubles', { token, body: { id: id.toUpperCase(), name: 'Shouting Id' } })
      expect(res.status).toBe(201)
      const buble = await res.json()
      expect(buble.id).toBe(id)
      const again = await h.call('POST', '/api/bubles', { token, body: { id, name: 'Shouting Id' } })
      expect(again.status).toBe(200)
      expect(await again.json()).toEqual(buble)
      expect(await listIds(token)).toEqual([id])
    })

    test('the same id by another user is a 409 CONFLICT that reveals nothing about the buble', async () => {
      const alice = await user('Alice Secret')
      const mallory = await user()
      const id = randomUUID()
      const secret = await create(alice.token, 'Secret Garden Society', id)
      const res = await h.call('POST', '/api/bubles', { token: mallory.token, body: { id, name: 'Mine Now' } })
      expect(res.status).toBe(409)
      const body = await res.json()
      expect(body).toEqual({ code: 'CONFLICT', message: ID_IN_USE })
      const text = JSON.stringify(body)
      for (const leak of [secret.name, secret.slug, alice.id, alice.email, 'Alice']) expect(text).not.toContain(leak)
      // Nothing changed for either of them.
      expect(await list(mallory.token)).toEqual([])
      await expectNotFound(await get(mallory.token, id))
      expect(await getOk(alice.token, id)).toEqual(secret)
    })

    test('the id of a deleted buble is spent: creating with it again is a 409, not a resurrection', async () => {
      const { token } = await user()
      const id = randomUUID()
      await create(token, 'Short Lived', id)
      expect((await h.call('DELETE', `/api/bubles/${id}`, { token })).status).toBe(204)
      const res = await h.call('POST', '/api/bubles', { token, body: { id, name: 'Short Lived' } })
      expect(res.status).toBe(409)
      expect(await res.json()).toEqual({ code: 'CONFLICT', message: ID_IN_USE })
      expect(await list(token)).toEqual([])
    })

    test.each([
      ['not a UUID', 'not-a-uuid'],
      ['a UUID without dashes', randomUUID().replaceAll('-', '')],
      ['a number', 12345],
    ])('a client id that is %s is a 400 and creates nothing', async (_what, id) => {
      const { token } = await user()
      const res = await h.call('POST', '/api/bubles', { token, body: { id, name: 'Bad Id' } })
      const body = await expectError(res, 400, 'VALIDATION_ERROR')
      expect(body.issues[0].path).toBe('id')
      expect(await list(token)).toEqual([])
    })
  })

  describe('list', () => {
    test('lists only the caller’s bubles, newest created first, including ones joined later', async () => {
      const me = await user()
      const other = await user()
      const theirs = await create(other.token, 'Their Old Buble')
      h.clock.advance(SECOND)
      const first = await create(me.token, 'My First')
      h.clock.advance(SECOND)
      const second = await create(me.token, 'My Second')
      h.clock.advance(SECOND)
      const third = await create(me.token, 'My Third')
      const notMine = await create(other.token, 'Not Mine')

      expect(await listIds(me.token)).toEqual([third.id, second.id, first.id])
      expect(await listIds(other.token)).toEqual([notMine.id, theirs.id])

      // Joining an older buble places it by when it was created, not when it was joined.
      h.clock.advance(SECOND)
      await join(me.token, await invite(other.token, theirs.id))
      const mine = await list(me.token)
      expect(mine.map((b: { id: string }) => b.id)).toEqual([third.id, second.id, first.id, theirs.id])
      expect(mine[3]).toMatchObject({ id: theirs.id, my_role: 'member', member_count: 2 })
      expect(mine[0]).toMatchObject({ id: third.id, my_role: 'owner', member_count: 1 })
    })

    test('a user with no bubles gets an empty list', async () => {
      const { token } = await user()
      expect(await list(token)).toEqual([])
    })

    test('listing needs a valid token', async () => {
      await expectError(await h.call('GET', '/api/bubles'), 401, 'UNAUTHORIZED')
      await expectError(await h.call('GET', '/api/bubles', { token: 'not.a.jwt' }), 401, 'UNAUTHORIZED')
    })
  })

  describe('get', () => {
    test('a member gets the buble by id and by slug, and the slug is matched case-insensitively', async () => {
      const { owner, member, buble } = await withMember('Sunday Hikers')
      const asOwner = await getOk(owner.token, buble.id)
      expect(asOwner).toMatchObject({ id: buble.id, slug: 'sunday-hikers', my_role: 'owner', member_count: 2 })
      expect(await getOk(owner.token, 'sunday-hikers')).toEqual(asOwner)
      expect(await getOk(owner.token, 'Sunday-Hikers')).toEqual(asOwner)
      expect(await getOk(owner.token, 'SUNDAY-HIKERS')).toEqual(asOwner)
      expect(await getOk(owner.token, buble.id.toUpperCase())).toEqual(asOwner)

      const asMember = await getOk(member.token, 'SUNDAY-hikers')
      expect(asMember).toEqual({ ...asOwner, my_role: 'member', my_permissions: expect.any(Array) })
      expect(sorted(asMember.my_permissions)).toEqual(sorted(MEMBER_DEFAULTS))
      expect(asMember.members).toEqual([
        { id: owner.id, name: owner.name, avatar_url: null },
        { id: member.id, name: member.name, avatar_url: null },
      ])
    })

    test('a non-member gets 404 "Buble not found" by id and by slug, exactly as for an unknown buble', async () => {
      const owner = await user()
      const buble = await create(owner.token, 'Private Matters')
      const stranger = await user()
      await expectNotFound(await get(stranger.token, buble.id))
      await expectNotFound(await get(stranger.token, buble.slug))
      await expectNotFound(await get(stranger.token, buble.slug.toUpperCase()))
      await expectNotFound(await get(stranger.token, randomUUID()))
      await expectNotFound(await get(stranger.token, 'no-such-buble'))
      await expectNotFound(await get(owner.token, randomUUID()))
      await expectNotFound(await get(owner.token, 'no-such-buble'))
    })

    test('getting needs a token', async () => {
      const { token } = await user()
      const buble = await create(token, 'Tokens Only')
      await expectError(await h.call('GET', `/api/bubles/${buble.id}`), 401, 'UNAUTHORIZED')
    })
  })

  describe('delete', () => {
    test('the owner deletes with 204; afterwards the buble is 404 for everyone and gone from every member’s list', async () => {
      const { owner, member, buble } = await withMember('Doomed Buble')
      const kept = await create(owner.token, 'Kept Buble')
      const code = await invite(owner.token, buble.id)

      const res = await h.call('DELETE', `/api/bubles/${buble.id}`, { token: owner.token })
      expect(res.status).toBe(204)
      expect(await res.text()).toBe('')

      for (const who of [owner, member]) {
        await expectNotFound(await get(who.token, buble.id))
        await expectNotFound(await get(who.token, buble.slug))
        await expectNotFound(await h.call('GET', `/api/bubles/${buble.id}/members`, { token: who.token }))
      }
      expect(await listIds(owner.token)).toEqual([kept.id])
      expect(await listIds(member.token)).toEqual([])
      // Its invites went with it.
      expect(await inviteCount(buble.id)).toBe(0)
      const latecomer = await user()
      await expectError(await accept(latecomer.token, code), 410, 'TOKEN_INVALID', INVITE_INVALID)
      // Deleting again finds nothing.
      await expectNotFound(await h.call('DELETE', `/api/bubles/${buble.id}`, { token: owner.token }))
    })

    test('a plain member gets 403 FORBIDDEN and the buble stays as it was', async () => {
      const { owner, member, buble } = await withMember('Sturdy Buble')
      const before = await getOk(owner.token, buble.id)
      const res = await h.call('DELETE', `/api/bubles/${buble.id}`, { token: member.token })
      await expectError(res, 403, 'FORBIDDEN')
      expect(await getOk(owner.token, buble.id)).toEqual(before)
      expect(await listIds(member.token)).toEqual([buble.id])
    })

    test('a non-member gets 404 and the buble stays', async () => {
      const owner = await user()
      const buble = await create(owner.token, 'Out Of Reach')
      const stranger = await user()
      await expectNotFound(await h.call('DELETE', `/api/bubles/${buble.id}`, { token: stranger.token }))
      expect(await getOk(owner.token, buble.id)).toEqual(buble)
    })

    test('an id that is not a UUID (a slug, say) or an unknown UUID is a 404', async () => {
      const owner = await user()
      const buble = await create(owner.token, 'Slug Is Not An Id')
      await expectNotFound(await h.call('DELETE', `/api/bubles/${buble.slug}`, { token: owner.token }))
      await expectNotFound(await h.call('DELETE', '/api/bubles/not-a-uuid', { token: owner.token }))
      await expectNotFound(await h.call('DELETE', `/api/bubles/${randomUUID()}`, { token: owner.token }))
      expect(await getOk(owner.token, buble.id)).toEqual(buble)
    })

    test('the owner may name the buble by its id in upper case', async () => {
      const owner = await user()
      const buble = await create(owner.token, 'Upper Case Delete')
      expect((await h.call('DELETE', `/api/bubles/${buble.id.toUpperCase()}`, { token: owner.token })).status).toBe(204)
      expect(await list(owner.token)).toEqual([])
    })

    test('deleting needs a token', async () => {
      const owner = await user()
      const buble = await create(owner.token, 'Needs Token To Delete')
      await expectError(await h.call('DELETE', `/api/bubles/${buble.id}`), 401, 'UNAUTHORIZED')
      expect(await getOk(owner.token, buble.id)).toEqual(buble)
    })
  })

  describe('invites', () => {
    test('the owner gets 201 {code, expires_at}: a code of unambiguous characters, valid for 7 days from now', async () => {
      const owner = await user()
      const buble = await create(owner.token, 'Inviting Buble')
      const res = await h.call('POST', `/api/bubles/${buble.id}/invites`, { token: owner.token, body: {} })
      expect(res.status).toBe(201)
      const body = await res.json()
      expect(Object.keys(body).sort()).toEqual(['code', 'expires_at'])
      expect(body.code.length).toBeGreaterThanOrEqual(8)
      for (const char of body.code) expect(INVITE_ALPHABET).toContain(char)
      expect(body.code).not.toMatch(/[01OIL]/)
      expect(body.expires_at).toBe(new Date(h.clock.now.getTime() + WEEK).toISOString())
      expect(await inviteCount(buble.id)).toBe(1)
    })

    test('each call makes a fresh code, and the call works without a body', async () => {
      const owner = await user()
      const buble = await create(owner.token, 'Many Invites')
      const codes = new Set<string>()
      for (let i = 0; i < 5; i++) codes.add(await invite(owner.token, buble.id))
      const bare = await h.call('POST', `/api/bubles/${buble.id}/invites`, { token: owner.token })
      expect(bare.status).toBe(201)
      codes.add((await bare.json()).code)
      expect(codes.size).toBe(6)
      expect(await inviteCount(buble.id)).toBe(6)
    })

    test('a plain member (create_events, create_polls only) gets 403 and no code is made', async () => {
      const { owner, member, buble } = await withMember('Members Cannot Invite')
      expect(sorted((await getOk(member.token, buble.id)).my_permissions)).toEqual(sorted(MEMBER_DEFAULTS))
      const before = await inviteCount(buble.id)
      const res = await h.call('POST', `/api/bubles/${buble.id}/invites`, { token: member.token, body: {} })
      const body = await expectError(res, 403, 'FORBIDDEN')
      expect(Object.keys(body).sort()).toEqual(['code', 'message'])
      expect(await inviteCount(buble.id)).toBe(before)
      expect((await getOk(owner.token, buble.id)).member_count).toBe(2)
    })

    test('a non-member gets 404, an unknown or non-UUID id 404, and no code is made', async () => {
      const owner = await user()
      const buble = await create(owner.token, 'Strangers Cannot Invite')
      const stranger = await user()
      await expectNotFound(await h.call('POST', `/api/bubles/${buble.id}/invites`, { token: stranger.token, body: {} }))
      await expectNotFound(await h.call('POST', `/api/bubles/${buble.slug}/invites`, { token: owner.token, body: {} }))
      await expectNotFound(
        await h.call('POST', `/api/bubles/${randomUUID()}/invites`, { token: owner.token, body: {} }),
      )
      expect(await inviteCount(buble.id)).toBe(0)
    })

    test('an invalid e-mail address in the body is a 400 and no code is made', async () => {
      const owner = await user()
      const buble = await create(owner.token, 'Bad Address Invite')
      const res = await h.call('POST', `/api/bubles/${buble.id}/invites`, {
        token: owner.token,
        body: { email: 'not-an-address' },
      })
      await expectError(res, 400, 'VALIDATION_ERROR')
      expect(await inviteCount(buble.id)).toBe(0)
    })

    test('inviting needs a token', async () => {
      const owner = await user()
      const buble = await create(owner.token, 'Needs Token To Invite')
      await expectError(await h.call('POST', `/api/bubles/${buble.id}/invites`, { body: {} }), 401, 'UNAUTHORIZED')
      expect(await inviteCount(buble.id)).toBe(0)
    })
  })

  describe('accept', () => {
    test('another user accepts: 200 with the Buble as a member sees it, and the owner sees two members', async () => {
      const owner = await user('Olga Owner')
      const buble = await create(owner.token, 'Welcome Buble')
      const code = await invite(owner.token, buble.id)
      const joiner = await user('Jonas Joiner')
      h.clock.advance(SECOND)

      const res = await accept(joiner.token, code)
      expect(res.status).toBe(200)
      const joined = await res.json()
      expect(joined).toEqual({
        ...buble,
        member_count: 2,
        members: [
          { id: owner.id, name: 'Olga Owner', avatar_url: null },
          { id: joiner.id, name: 'Jonas Joiner', avatar_url: null },
        ],
        my_role: 'member',
        my_permissions: expect.any(Array),
      })
      expect(sorted(joined.my_permissions)).toEqual(sorted(MEMBER_DEFAULTS))

      expect(await getOk(joiner.token, buble.id)).toEqual(joined)
      expect(await listIds(joiner.token)).toEqual([buble.id])
      const asOwner = await getOk(owner.token, buble.id)
      expect(asOwner).toEqual({ ...joined, my_role: 'owner', my_permissions: buble.my_permissions })
    })

    test('a code is single use: a third user gets 410 TOKEN_INVALID and does not join', async () => {
      const owner = await user()
      const buble = await create(owner.token, 'Single Use')
      const code = await invite(owner.token, buble.id)
      const first = await user()
      await join(first.token, code)
      const third = await user()

      const res = await accept(third.token, code)
      expect(res.status).toBe(410)
      expect(await res.json()).toEqual({ code: 'TOKEN_INVALID', message: INVITE_INVALID })
      expect(await list(third.token)).toEqual([])
      await expectNotFound(await get(third.token, buble.id))
      expect((await getOk(owner.token, buble.id)).member_count).toBe(2)
      // Using it again is no better for the one who used it.
      await expectError(await accept(first.token, code), 410, 'TOKEN_INVALID', INVITE_INVALID)
    })

    test.each([
      ['of the right shape', 'ZZZZ2222ZZ'],
      ['far too long to be one', 'Z'.repeat(300)],
    ])('an unknown code %s is a 410 with the same message', async (_what, code) => {
      const { token } = await user()
      const res = await accept(token, code)
      expect(res.status).toBe(410)
      expect(await res.json()).toEqual({ code: 'TOKEN_INVALID', message: INVITE_INVALID })
      expect(await list(token)).toEqual([])
    })

    test('a code lives 7 days: usable just before, 410 just after, and the late user does not join', async () => {
      const owner = await user()
      const buble = await create(owner.token, 'Week Long Invite')
      const early = await invite(owner.token, buble.id)
      const late = await invite(owner.token, buble.id)
      const prompt = await user()
      const tardy = await user()

      h.clock.advance(WEEK - 1)
      await join(prompt.token, early)
      h.clock.advance(2)
      const res = await accept(tardy.token, late)
      expect(res.status).toBe(410)
      expect(await res.json()).toEqual({ code: 'TOKEN_INVALID', message: INVITE_INVALID })
      expect(await list(tardy.token)).toEqual([])
      expect((await getOk(owner.token, buble.id)).members.map((m: { id: string }) => m.id)).toEqual([
        owner.id,
        prompt.id,
      ])
    })

    test('an expired code (7 days + 1 ms) is a 410', async () => {
      const owner = await user()
      const buble = await create(owner.token, 'Expired Invite')
      const code = await invite(owner.token, buble.id)
      h.clock.advance(WEEK + 1)
      const other = await user()
      await expectError(await accept(other.token, code), 410, 'TOKEN_INVALID', INVITE_INVALID)
      expect(await list(other.token)).toEqual([])
      expect((await getOk(owner.token, buble.id)).member_count).toBe(1)
    })

    test('accepting a code for a buble you already belong to is a 409, and the code stays usable by someone else', async () => {
      const { owner, member, buble } = await withMember('Already In')
      const code = await invite(owner.token, buble.id)
      const before = await getOk(owner.token, buble.id)

      const byOwner = await accept(owner.token, code)
      expect(byOwner.status).toBe(409)
      expect(await byOwner.json()).toEqual({ code: 'CONFLICT', message: BUBLE_MESSAGES.alreadyMember })
      await expectError(await accept(member.token, code), 409, 'CONFLICT', BUBLE_MESSAGES.alreadyMember)
      expect(await getOk(owner.token, buble.id)).toEqual(before)
      expect((await getOk(member.token, buble.id)).my_role).toBe('member')

      const newcomer = await user()
      const joined = await join(newcomer.token, code)
      expect(joined).toMatchObject({ id: buble.id, member_count: 3, my_role: 'member' })
    })

    test('codes are accepted in lower case and with surrounding spaces and dashes', async () => {
      const owner = await user()
      const buble = await create(owner.token, 'Forgiving Codes')
      const lower = (await invite(owner.token, buble.id)).toLowerCase()
      const grouped = await invite(owner.token, buble.id)
      const spaced = await invite(owner.token, buble.id)

      const a = await user()
      expect((await join(a.token, lower)).id).toBe(buble.id)
      const b = await user()
      expect((await join(b.token, `${grouped.slice(0, 4)}-${grouped.slice(4, 7)}-${grouped.slice(7)}`)).id).toBe(
        buble.id,
      )
      const c = await user()
      expect((await join(c.token, `  ${spaced.slice(0, 5).toLowerCase()} ${spaced.slice(5)}  `)).id).toBe(buble.id)
      expect((await getOk(owner.token, buble.id)).member_count).toBe(4)
    })

    test('a code that is empty once normalised is a 400', async () => {
      const { token } = await user()
      await expectError(await accept(token, ' - '), 400, 'VALIDATION_ERROR', BUBLE_MESSAGES.codeRequired)
      expect(await list(token)).toEqual([])
    })

    test('accepting needs a token, and the code is not spent by the refused call', async () => {
      const owner = await user()
      const buble = await create(owner.token, 'Needs Token To Join')
      const code = await invite(owner.token, buble.id)
      await expectError(await accept('', code), 401, 'UNAUTHORIZED')
      const later = await user()
      expect((await join(later.token, code)).id).toBe(buble.id)
    })
  })

  describe('members', () => {
    test('lists every member with role, permissions, joined_at and user, the owner first', async () => {
      const owner = await user('Otto Owner')
      const buble = await create(owner.token, 'Member List')
      const createdAt = h.clock.now.toISOString()
      h.clock.advance(SECOND)
      const amy = await user('Amy First')
      await join(amy.token, await invite(owner.token, buble.id))
      const amyJoined = h.clock.now.toISOString()
      h.clock.advance(SECOND)
      const bob = await user('Bob Second')
      await join(bob.token, await invite(owner.token, buble.id))
      const bobJoined = h.clock.now.toISOString()

      const members = await membersOf(owner.token, buble.id)
      expect(members).toEqual([
        {
          user_id: owner.id,
          role: 'owner',
          permissions: expect.any(Array),
          joined_at: createdAt,
          user: { name: 'Otto Owner', email: owner.email, avatar_url: null },
        },
        {
          user_id: amy.id,
          role: 'member',
          permissions: expect.any(Array),
          joined_at: amyJoined,
          user: { name: 'Amy First', email: amy.email, avatar_url: null },
        },
        {
          user_id: bob.id,
          role: 'member',
          permissions: expect.any(Array),
          joined_at: bobJoined,
          user: { name: 'Bob Second', email: bob.email, avatar_url: null },
        },
      ])
      expect(sorted(members[0].permissions)).toEqual(sorted(ALL_PERMISSIONS))
      expect(sorted(members[1].permissions)).toEqual(sorted(MEMBER_DEFAULTS))
      expect(sorted(members[2].permissions)).toEqual(sorted(MEMBER_DEFAULTS))
      // Members see the same list, and the Buble's members are the same people in the same order.
      expect(await membersOf(bob.token, buble.id)).toEqual(members)
      expect((await getOk(amy.token, buble.id)).members.map((m: { id: string }) => m.id)).toEqual(
        members.map((m: { user_id: string }) => m.user_id),
      )
    })

    test('a non-member, an unknown id and a non-UUID id get 404', async () => {
      const owner = await user()
      const buble = await create(owner.token, 'Closed Member List')
      const stranger = await user()
      await expectNotFound(await h.call('GET', `/api/bubles/${buble.id}/members`, { token: stranger.token }))
      await expectNotFound(await h.call('GET', `/api/bubles/${randomUUID()}/members`, { token: owner.token }))
      await expectNotFound(await h.call('GET', `/api/bubles/${buble.slug}/members`, { token: owner.token }))
    })

    test('listing members needs a token', async () => {
      const owner = await user()
      const buble = await create(owner.token, 'Members Need Token')
      await expectError(await h.call('GET', `/api/bubles/${buble.id}/members`), 401, 'UNAUTHORIZED')
    })
  })

  describe('at the same time', () => {
    test('the same client id sent twice at once makes one buble: one 201 and one 200 with the same buble', async () => {
      const { token } = await user()
      const id = randomUUID()
      const send = () => h.call('POST', '/api/bubles', { token, body: { id, name: 'Double Tap' } })
      const answers = await Promise.all([send(), send()])
      expect(answers.map((res) => res.status).sort()).toEqual([200, 201])
      const [a, b] = await Promise.all(answers.map((res) => res.json()))
      expect(a).toEqual(b)
      expect(await listIds(token)).toEqual([id])
    })

    test('bubles with the same name created at once all get their own slug', async () => {
      const { token } = await user()
      const made = await Promise.all(
        Array.from({ length: 5 }, () => h.call('POST', '/api/bubles', { token, body: { name: 'Rush Hour' } })),
      )
      expect(made.map((res) => res.status)).toEqual([201, 201, 201, 201, 201])
      const slugs = (await Promise.all(made.map((res) => res.json()))).map((b: { slug: string }) => b.slug)
      expect(new Set(slugs).size).toBe(5)
      for (const slug of slugs) expect(slug).toMatch(/^rush-hour(-[a-z0-9]+)?$/)
      expect(await listIds(token)).toHaveLength(5)
    })

    test('one code accepted by two users at once lets exactly one in; the other gets 410', async () => {
      const owner = await user()
      const buble = await create(owner.token, 'Photo Finish')
      const code = await invite(owner.token, buble.id)
      const [a, b] = [await user(), await user()]
      const answers = await Promise.all([accept(a.token, code), accept(b.token, code)])
      expect(answers.map((res) => res.status).sort()).toEqual([200, 410])
      expect((await getOk(owner.token, buble.id)).member_count).toBe(2)
    })

    test('one user accepting two codes of the same buble at once joins once; the other call is a 409 and its code stays usable', async () => {
      const owner = await user()
      const buble = await create(owner.token, 'Eager Joiner')
      const [first, second] = [await invite(owner.token, buble.id), await invite(owner.token, buble.id)]
      const eager = await user()
      const answers = await Promise.all([accept(eager.token, first), accept(eager.token, second)])
      expect(answers.map((res) => res.status).sort()).toEqual([200, 409])
      const refused = answers.find((res) => res.status === 409) as TestResponse
      expect(await refused.json()).toEqual({ code: 'CONFLICT', message: BUBLE_MESSAGES.alreadyMember })
      expect((await getOk(owner.token, buble.id)).member_count).toBe(2)
      // The code of the refused call was not spent.
      const unspent = answers[0]?.status === 409 ? first : second
      const newcomer = await user()
      expect((await join(newcomer.token, unspent)).member_count).toBe(3)
    })
  })

  describe('leave', () => {
    const leave = (token: string | undefined, bubleId: string, userId: string) =>
      h.call('DELETE', `/api/bubles/${bubleId}/members/${userId}`, { token })

    test('a member leaves with their own id: 204, the buble is gone for them, and the owner sees one member again', async () => {
      const { owner, member, buble } = await withMember('Easy Come Easy Go')
      const res = await leave(member.token, buble.id, member.id)
      expect(res.status).toBe(204)
      expect(await res.text()).toBe('')

      expect(await list(member.token)).toEqual([])
      await expectNotFound(await get(member.token, buble.id))
      await expectNotFound(await get(member.token, buble.slug))
      await expectNotFound(await h.call('GET', `/api/bubles/${buble.id}/members`, { token: member.token }))
      await expectNotFound(await leave(member.token, buble.id, member.id))

      const asOwner = await getOk(owner.token, buble.id)
      expect(asOwner.member_count).toBe(1)
      expect(asOwner.members).toEqual([{ id: owner.id, name: owner.name, avatar_url: null }])
      expect((await membersOf(owner.token, buble.id)).map((m: { user_id: string }) => m.user_id)).toEqual([owner.id])
    })

    test('someone who left can come back with a new code', async () => {
      const { owner, member, buble } = await withMember('Revolving Door')
      expect((await leave(member.token, buble.id, member.id)).status).toBe(204)
      const back = await join(member.token, await invite(owner.token, buble.id))
      expect(back).toMatchObject({ id: buble.id, my_role: 'member', member_count: 2 })
    })

    test('the own id in upper case is still the own id', async () => {
      const { owner, member, buble } = await withMember('Upper Case Leave')
      expect((await leave(member.token, buble.id.toUpperCase(), member.id.toUpperCase())).status).toBe(204)
      expect(await list(member.token)).toEqual([])
      expect((await getOk(owner.token, buble.id)).member_count).toBe(1)
    })

    test('the owner cannot leave: 409 CONFLICT, and they are still the owner', async () => {
      const { owner, buble } = await withMember('Captain Stays')
      const before = await getOk(owner.token, buble.id)
      const res = await leave(owner.token, buble.id, owner.id)
      expect(res.status).toBe(409)
      expect(await res.json()).toEqual({ code: 'CONFLICT', message: BUBLE_MESSAGES.ownerCannotLeave })
      expect(await getOk(owner.token, buble.id)).toEqual(before)
      expect(before).toMatchObject({ my_role: 'owner', owner_id: owner.id, member_count: 2 })
    })

    test('a member passing someone else’s id gets 403 and nobody leaves', async () => {
      const { owner, member, buble } = await withMember('No Pushing')
      const third = await user()
      await join(third.token, await invite(owner.token, buble.id))
      const before = await membersOf(owner.token, buble.id)

      await expectError(await leave(member.token, buble.id, owner.id), 403, 'FORBIDDEN', BUBLE_MESSAGES.leaveOthers)
      await expectError(await leave(member.token, buble.id, third.id), 403, 'FORBIDDEN', BUBLE_MESSAGES.leaveOthers)
      await expectError(await leave(owner.token, buble.id, member.id), 403, 'FORBIDDEN')
      expect(await membersOf(owner.token, buble.id)).toEqual(before)
      expect(await listIds(member.token)).toEqual([buble.id])
      expect(await listIds(third.token)).toEqual([buble.id])
    })

    test('a non-member gets 404, whichever id they pass, and nothing changes', async () => {
      const { owner, member, buble } = await withMember('Not Your Door')
      const stranger = await user()
      const before = await membersOf(owner.token, buble.id)
      await expectNotFound(await leave(stranger.token, buble.id, stranger.id))
      await expectNotFound(await leave(stranger.token, buble.id, member.id))
      await expectNotFound(await leave(stranger.token, buble.id, owner.id))
      await expectNotFound(await leave(member.token, randomUUID(), member.id))
      await expectNotFound(await leave(member.token, 'not-a-uuid', member.id))
      expect(await membersOf(owner.token, buble.id)).toEqual(before)
    })

    test('leaving needs a token', async () => {
      const { owner, member, buble } = await withMember('Token To Leave')
      await expectError(await leave(undefined, buble.id, member.id), 401, 'UNAUTHORIZED')
      expect((await getOk(owner.token, buble.id)).member_count).toBe(2)
    })
  })
})
