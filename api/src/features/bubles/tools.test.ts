import { randomUUID } from 'node:crypto'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { users } from '../../db/schema.ts'
import { backends } from '../../testing/databases.ts'
import { createHarness, type Harness, type TestResponse, uniqueEmail } from '../../testing/harness.ts'
import { pullAll } from '../../testing/sync.ts'

/** Overview tools (CONTRACT §3.2, spec part 2 §6) and renaming a buble. */

// CONTRACT §3.2 as issue 21 changed it (decision 83), written out rather than imported: Wall and Stories are
// fixed; Local Events is on from the start and removable like the other optional tools.
const FIXED = ['wall', 'stories']
const INITIAL = ['wall', 'stories', 'local_events']
/** Exactly these optional tools on. */
const toolsOn = (...on: string[]) => ({
  tools: [
    { key: 'wall', enabled: true, removable: false },
    { key: 'stories', enabled: true, removable: false },
    { key: 'local_events', enabled: on.includes('local_events'), removable: true },
    { key: 'weather', enabled: on.includes('weather'), removable: true },
    { key: 'event_stats', enabled: on.includes('event_stats'), removable: true },
    { key: 'latest_polls', enabled: on.includes('latest_polls'), removable: true },
  ],
})
/** These on besides the initial three. */
const toolsWith = (...on: string[]) => toolsOn('local_events', ...on)
const ONLY_OWNER = { code: 'FORBIDDEN', message: 'Only the owner can add or remove tools' }
const NOT_ALLOWED_TO_RENAME = { code: 'FORBIDDEN', message: 'You are not allowed to rename this Buble' }
const NOT_FOUND = { code: 'NOT_FOUND', message: 'Buble not found' }
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

type User = { token: string; id: string; name: string }

describe.each(backends())('overview tools and renaming on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
  })
  afterAll(() => h?.close())

  /** An account made straight in the database: these tests need sign-ins, not passwords. */
  const user = async (name: string): Promise<User> => {
    const [row] = await h.database.db
      .insert(users)
      .values({ id: uuidv7(), name, email: uniqueEmail('tools'), createdAt: h.clock.now, updatedAt: h.clock.now })
      .returning()
    return { id: row!.id, name, token: await h.deps.tokens.sign(row!) }
  }

  /** A buble with one member of each role, and someone outside it. */
  const crew = async (name = 'Tool Shed') => {
    const owner = await user('Tove Owner')
    const admin = await user('Tage Admin')
    const moderator = await user('Tora Moderator')
    const member = await user('Tim Member')
    const stranger = await user('Tess Stranger')
    const res = await h.call('POST', '/api/bubles', { token: owner.token, body: { name } })
    expect(res.status).toBe(201)
    const buble = await res.json()
    for (const [who, role] of [
      [admin, 'admin'],
      [moderator, 'moderator'],
      [member, 'member'],
    ] as const) {
      const invite = await h.call('POST', `/api/bubles/${buble.id}/invites`, { token: owner.token, body: {} })
      const { code } = await invite.json()
      expect((await h.call('POST', `/api/bubles/invites/${code}/accept`, { token: who.token })).status).toBe(200)
      if (role !== 'member') {
        const changed = await h.call('PUT', `/api/bubles/${buble.id}/members/role`, {
          token: owner.token,
          body: { userId: who.id, role },
        })
        expect(changed.status).toBe(200)
      }
    }
    return { owner, admin, moderator, member, stranger, buble: buble as { id: string; slug: string; name: string } }
  }

  const getTools = (token: string, bubleId: string) => h.call('GET', `/api/bubles/${bubleId}/tools`, { token })
  const putTools = (token: string, bubleId: string, body: unknown) =>
    h.call('PUT', `/api/bubles/${bubleId}/tools`, { token, body })
  const toolsOf = async (token: string, bubleId: string) => {
    const res = await getTools(token, bubleId)
    expect(res.status).toBe(200)
    return res.json()
  }
  const bubleOf = async (token: string, idOrSlug: string) => {
    const res = await h.call('GET', `/api/bubles/${idOrSlug}`, { token })
    expect(res.status).toBe(200)
    return res.json()
  }
  const rename = (token: string, bubleId: string, body: unknown) =>
    h.call('PATCH', `/api/bubles/${bubleId}`, { token, body })
  const expectBody = async (res: TestResponse, status: number, body: unknown) => {
    expect({ status: res.status, body: await res.json() }).toEqual({ status, body })
  }

  describe('tools', () => {
    test('a new buble has the initial three on, only Wall and Stories not removable, the other three off; every member sees the same', async () => {
      const { owner, admin, moderator, member, buble } = await crew()
      for (const who of [owner, admin, moderator, member])
        expect(await toolsOf(who.token, buble.id)).toEqual(toolsWith())
      expect((await bubleOf(member.token, buble.id)).tools).toEqual(INITIAL)
    })

    test('Local Events is removable: left out it goes for every member, listed again it comes back', async () => {
      const { owner, member, buble } = await crew()
      const off = await putTools(owner.token, buble.id, { enabled: ['weather'] })
      expect(off.status).toBe(200)
      expect(await off.json()).toEqual(toolsOn('weather'))
      expect(await toolsOf(member.token, buble.id)).toEqual(toolsOn('weather'))
      expect((await bubleOf(member.token, buble.id)).tools).toEqual([...FIXED, 'weather'])
      // Another change that leaves it out keeps it out.
      expect(await (await putTools(owner.token, buble.id, { enabled: ['weather', 'event_stats'] })).json()).toEqual(
        toolsOn('weather', 'event_stats'),
      )

      const back = await putTools(owner.token, buble.id, { enabled: ['weather', 'local_events'] })
      expect(await back.json()).toEqual(toolsWith('weather'))
      expect((await bubleOf(member.token, buble.id)).tools).toEqual([...INITIAL, 'weather'])
    })

    test('the owner turns optional tools on and off; the answer, GET and every member’s Buble agree', async () => {
      const { owner, member, buble } = await crew()
      const on = await putTools(owner.token, buble.id, { enabled: ['latest_polls', 'weather', 'local_events'] })
      expect(on.status).toBe(200)
      expect(await on.json()).toEqual(toolsWith('weather', 'latest_polls'))
      expect(await toolsOf(member.token, buble.id)).toEqual(toolsWith('weather', 'latest_polls'))
      // In display order, whatever order they were sent in.
      expect((await bubleOf(member.token, buble.id)).tools).toEqual([...INITIAL, 'weather', 'latest_polls'])

      const off = await putTools(owner.token, buble.id, { enabled: ['event_stats', 'local_events'] })
      expect(await off.json()).toEqual(toolsWith('event_stats'))
      expect((await bubleOf(owner.token, buble.id)).tools).toEqual([...INITIAL, 'event_stats'])
    })

    test('Wall and Stories cannot be removed: left out they stay on, listed they change nothing; duplicates are harmless', async () => {
      const { owner, buble } = await crew()
      expect(await (await putTools(owner.token, buble.id, { enabled: [] })).json()).toEqual(toolsOn())
      expect(
        await (await putTools(owner.token, buble.id, { enabled: ['wall', 'weather', 'weather', 'stories'] })).json(),
      ).toEqual(toolsOn('weather'))
      expect(await toolsOf(owner.token, buble.id)).toEqual(toolsOn('weather'))
      expect((await bubleOf(owner.token, buble.id)).tools).toEqual([...FIXED, 'weather'])
    })

    test.each([
      ['an unknown key', { enabled: ['weather', 'horoscope'] }],
      ['a list that is not a list', { enabled: 'weather' }],
      ['no list at all', {}],
      ['keys that are not strings', { enabled: [42] }],
    ])('%s is a 400 VALIDATION_ERROR and changes nothing', async (_what, body) => {
      const { owner, buble } = await crew()
      await putTools(owner.token, buble.id, { enabled: ['event_stats', 'local_events'] })
      const res = await putTools(owner.token, buble.id, body)
      expect(res.status).toBe(400)
      const answer = await res.json()
      expect(answer.code).toBe('VALIDATION_ERROR')
      expect(answer.issues[0].path).toMatch(/^enabled/)
      expect(await toolsOf(owner.token, buble.id)).toEqual(toolsWith('event_stats'))
    })

    test('only the owner manages tools: an admin, a moderator and a member get 403 (even holding all thirteen), a non-member 404', async () => {
      const { owner, admin, moderator, member, stranger, buble } = await crew()
      await putTools(owner.token, buble.id, { enabled: ['weather', 'local_events'] })
      // All twelve permissions, and still not the owner.
      const grant = await h.call('PUT', `/api/bubles/${buble.id}/members/role`, {
        token: owner.token,
        body: { userId: admin.id, role: 'admin', customPermissions: ALL_PERMISSIONS },
      })
      expect(grant.status).toBe(200)
      for (const who of [admin, moderator, member])
        await expectBody(await putTools(who.token, buble.id, { enabled: ['latest_polls'] }), 403, ONLY_OWNER)
      await expectBody(await putTools(stranger.token, buble.id, { enabled: ['latest_polls'] }), 404, NOT_FOUND)
      await expectBody(await getTools(stranger.token, buble.id), 404, NOT_FOUND)
      expect(await toolsOf(owner.token, buble.id)).toEqual(toolsWith('weather'))
    })

    test('after a transfer the new owner manages the tools and the previous owner no longer does', async () => {
      const { owner, member, buble } = await crew()
      const handed = await h.call('POST', `/api/bubles/${buble.id}/transfer-ownership`, {
        token: owner.token,
        body: { newOwnerId: member.id },
      })
      expect(handed.status).toBe(200)
      await expectBody(await putTools(owner.token, buble.id, { enabled: ['weather'] }), 403, ONLY_OWNER)
      expect(await (await putTools(member.token, buble.id, { enabled: ['weather', 'local_events'] })).json()).toEqual(
        toolsWith('weather'),
      )
    })

    test('an unknown buble and a non-UUID id are 404; no token is 401', async () => {
      const { owner, buble } = await crew()
      for (const id of [randomUUID(), buble.slug]) {
        await expectBody(await getTools(owner.token, id), 404, NOT_FOUND)
        await expectBody(await putTools(owner.token, id, { enabled: [] }), 404, NOT_FOUND)
      }
      expect((await getTools('', buble.id)).status).toBe(401)
      expect((await putTools('', buble.id, { enabled: ['weather'] })).status).toBe(401)
      expect(await toolsOf(owner.token, buble.id)).toEqual(toolsWith())
    })

    test('a change of tools reaches the other members’ devices as the buble, with its tools', async () => {
      const { owner, member, buble } = await crew()
      const { cursor } = await pullAll(h, member.token)
      // Local Events left out: it goes, on the other members' devices too.
      expect((await putTools(owner.token, buble.id, { enabled: ['latest_polls'] })).status).toBe(200)
      const { changes } = await pullAll(h, member.token, cursor)
      expect(changes).toEqual([
        { entity: 'buble', op: 'put', id: buble.id, buble_id: buble.id, data: await bubleOf(member.token, buble.id) },
      ])
      expect((changes[0]!.data as { tools: string[] }).tools).toEqual([...FIXED, 'latest_polls'])
    })
  })

  describe('rename', () => {
    test('the owner renames: the answer is the Buble with the trimmed name and the same slug, and the old slug still finds it', async () => {
      const { owner, member, buble } = await crew('Old Name')
      const res = await rename(owner.token, buble.id, { name: '  New Name  ' })
      expect(res.status).toBe(200)
      const renamed = await res.json()
      expect(renamed).toEqual({ ...(await bubleOf(owner.token, buble.id)), name: 'New Name' })
      expect(renamed.slug).toBe(buble.slug)
      expect(renamed.slug).toBe('old-name')
      expect((await bubleOf(member.token, buble.slug)).name).toBe('New Name')
    })

    test('renaming needs manage_buble: an admin may; a moderator and a member get 403 until given it; a non-member 404', async () => {
      const { owner, admin, moderator, member, stranger, buble } = await crew('Named By Few')
      expect((await (await rename(admin.token, buble.id, { name: 'By The Admin' })).json()).name).toBe('By The Admin')
      for (const who of [moderator, member])
        await expectBody(await rename(who.token, buble.id, { name: 'Not Mine' }), 403, NOT_ALLOWED_TO_RENAME)
      await expectBody(await rename(stranger.token, buble.id, { name: 'Not Mine' }), 404, NOT_FOUND)
      expect((await bubleOf(owner.token, buble.id)).name).toBe('By The Admin')

      const grant = await h.call('PUT', `/api/bubles/${buble.id}/members/role`, {
        token: owner.token,
        body: { userId: member.id, role: 'member', customPermissions: ['manage_buble'] },
      })
      expect(grant.status).toBe(200)
      expect((await rename(member.token, buble.id, { name: 'By The Member' })).status).toBe(200)
      // And an admin without it may not.
      const withdraw = await h.call('PUT', `/api/bubles/${buble.id}/members/role`, {
        token: owner.token,
        body: { userId: admin.id, role: 'admin', customPermissions: ['change_roles'] },
      })
      expect(withdraw.status).toBe(200)
      await expectBody(await rename(admin.token, buble.id, { name: 'Not Anymore' }), 403, NOT_ALLOWED_TO_RENAME)
      expect((await bubleOf(owner.token, buble.id)).name).toBe('By The Member')
    })

    test.each([
      ['an empty name', { name: '   ' }, 'Buble name is required'],
      ['a missing name', {}, 'Buble name is required'],
      ['81 characters', { name: 'x'.repeat(81) }, 'Buble name must be at most 80 characters'],
      ['a line feed', { name: 'Two\nLines' }, 'Buble name must not contain control characters'],
    ])('a rename to %s is a 400 and keeps the old name', async (_what, body, message) => {
      const { owner, buble } = await crew('Keeps Its Name')
      await expectBody(await rename(owner.token, buble.id, body), 400, {
        code: 'VALIDATION_ERROR',
        message,
        issues: [{ path: 'name', message }],
      })
      expect((await bubleOf(owner.token, buble.id)).name).toBe('Keeps Its Name')
    })

    test('an unknown buble and a slug in place of the id are 404; no token is 401', async () => {
      const { owner, buble } = await crew('Stays Put')
      await expectBody(await rename(owner.token, randomUUID(), { name: 'Elsewhere' }), 404, NOT_FOUND)
      await expectBody(await rename(owner.token, buble.slug, { name: 'Elsewhere' }), 404, NOT_FOUND)
      expect((await rename('', buble.id, { name: 'Elsewhere' })).status).toBe(401)
      expect((await bubleOf(owner.token, buble.id)).name).toBe('Stays Put')
    })

    test('a rename reaches the other members’ devices as the buble with its new name', async () => {
      const { owner, moderator, buble } = await crew('Before')
      const { cursor } = await pullAll(h, moderator.token)
      expect((await rename(owner.token, buble.id, { name: 'After' })).status).toBe(200)
      const { changes } = await pullAll(h, moderator.token, cursor)
      expect(changes).toEqual([
        {
          entity: 'buble',
          op: 'put',
          id: buble.id,
          buble_id: buble.id,
          data: await bubleOf(moderator.token, buble.id),
        },
      ])
      expect(changes[0]?.data).toMatchObject({ name: 'After', slug: buble.slug, my_role: 'moderator' })
    })
  })
})
