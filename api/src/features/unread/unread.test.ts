import { randomUUID } from 'node:crypto'
import type { Change } from '@buble/sync/protocol'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { users } from '../../db/schema.ts'
import { backends } from '../../testing/databases.ts'
import { createHarness, type Harness, type TestResponse, uniqueEmail } from '../../testing/harness.ts'
import { mutation, pullAll, push } from '../../testing/sync.ts'

/**
 * Unread counters (CONTRACT §3.2, §5, §6): what others added to a tab since the member last read
 * it, over REST, the `unread.read` mutation, and the sync pull. Only the members tab has content
 * so far: a member joining counts on it.
 */

const NOT_FOUND = { code: 'NOT_FOUND', message: 'Buble not found' }

type User = { token: string; id: string; name: string }

/** The five counters in CONTRACT order, all zero but the members tab, then Reports (issue 24 §1). */
const counters = (members: number) => [
  { contentType: 'wall', unreadCount: 0 },
  { contentType: 'events', unreadCount: 0 },
  { contentType: 'polls', unreadCount: 0 },
  { contentType: 'members', unreadCount: members },
  { contentType: 'chat', unreadCount: 0 },
  { contentType: 'reports', unreadCount: 0 },
]

describe.each(backends())('unread counters on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
  })
  afterAll(() => h?.close())

  let userCount = 0
  /** An account made straight in the database: these tests need sign-ins, not passwords. */
  const user = async (name = `Reader ${++userCount}`): Promise<User> => {
    const [row] = await h.database.db
      .insert(users)
      .values({ id: uuidv7(), name, email: uniqueEmail('unread'), createdAt: h.clock.now, updatedAt: h.clock.now })
      .returning()
    return { id: row!.id, name, token: await h.deps.tokens.sign(row!) }
  }

  const create = async (owner: User, name = 'Reading Room'): Promise<string> => {
    const res = await h.call('POST', '/api/bubles', { token: owner.token, body: { name } })
    expect(res.status).toBe(201)
    return (await res.json()).id
  }
  const join = async (owner: User, joiner: User, bubleId: string) => {
    const invite = await h.call('POST', `/api/bubles/${bubleId}/invites`, { token: owner.token, body: {} })
    const { code } = await invite.json()
    expect((await h.call('POST', `/api/bubles/invites/${code}/accept`, { token: joiner.token })).status).toBe(200)
  }
  const countsCall = (token: string, bubleId: string) => h.call('GET', `/api/unread/buble/${bubleId}`, { token })
  const counts = async (who: User, bubleId: string) => {
    const res = await countsCall(who.token, bubleId)
    expect(res.status).toBe(200)
    return res.json()
  }
  const membersUnread = async (who: User, bubleId: string): Promise<number> =>
    (await counts(who, bubleId)).find((c: { contentType: string }) => c.contentType === 'members').unreadCount
  const readCall = (token: string, bubleId: string, body: unknown) =>
    h.call('POST', `/api/unread/buble/${bubleId}/read`, { token, body })
  const markRead = async (who: User, bubleId: string, contentType = 'members') => {
    const res = await readCall(who.token, bubleId, { contentType })
    expect(res.status).toBe(204)
    expect(await res.text()).toBe('')
  }
  const expectBody = async (res: TestResponse, status: number, body: unknown) => {
    expect({ status: res.status, body: await res.json() }).toEqual({ status, body })
  }
  /** The `unread` changes of a pull for one buble. */
  const unreadIn = (changes: Change[], bubleId: string) =>
    changes.filter((c) => c.entity === 'unread' && c.buble_id === bubleId)

  describe('over REST', () => {
    test('a new buble answers the five tabs in order, all at zero', async () => {
      const owner = await user()
      const bubleId = await create(owner)
      expect(await counts(owner, bubleId)).toEqual(counters(0))
    })

    test('a join counts 1 for every earlier member, and nothing for the one who joined', async () => {
      const owner = await user()
      const first = await user()
      const second = await user()
      const bubleId = await create(owner)
      await join(owner, first, bubleId)
      expect(await counts(owner, bubleId)).toEqual(counters(1))
      // Joining counts as having read everything before: the owner's arrival does not count.
      expect(await counts(first, bubleId)).toEqual(counters(0))
      await join(owner, second, bubleId)
      expect(await membersUnread(owner, bubleId)).toBe(2)
      expect(await membersUnread(first, bubleId)).toBe(1)
      expect(await membersUnread(second, bubleId)).toBe(0)
    })

    test('reading the members tab resets it to 0 for the reader alone, and later joins count again from there', async () => {
      const owner = await user()
      const first = await user()
      const bubleId = await create(owner)
      await join(owner, first, bubleId)
      await join(owner, await user(), bubleId)
      expect(await membersUnread(owner, bubleId)).toBe(2)
      await markRead(owner, bubleId)
      expect(await counts(owner, bubleId)).toEqual(counters(0))
      expect(await membersUnread(first, bubleId)).toBe(1)
      // Reading again is harmless.
      await markRead(owner, bubleId)
      expect(await membersUnread(owner, bubleId)).toBe(0)
      await join(owner, await user(), bubleId)
      expect(await membersUnread(owner, bubleId)).toBe(1)
      expect(await membersUnread(first, bubleId)).toBe(2)
    })

    test('reading another tab leaves the members tab as it was', async () => {
      const owner = await user()
      const bubleId = await create(owner)
      await join(owner, await user(), bubleId)
      for (const contentType of ['wall', 'events', 'polls', 'chat']) await markRead(owner, bubleId, contentType)
      expect(await counts(owner, bubleId)).toEqual(counters(1))
    })

    test('a member who is removed, or who leaves, no longer counts', async () => {
      const owner = await user()
      const removed = await user()
      const leaver = await user()
      const stays = await user()
      const bubleId = await create(owner)
      await join(owner, stays, bubleId)
      await markRead(owner, bubleId)
      await join(owner, removed, bubleId)
      await join(owner, leaver, bubleId)
      expect(await membersUnread(owner, bubleId)).toBe(2)
      expect(await membersUnread(stays, bubleId)).toBe(2)

      const gone = await h.call('DELETE', `/api/bubles/${bubleId}/members/remove`, {
        token: owner.token,
        body: { userId: removed.id },
      })
      expect(gone.status).toBe(200)
      expect(await membersUnread(owner, bubleId)).toBe(1)
      expect(
        (await h.call('DELETE', `/api/bubles/${bubleId}/members/${leaver.id}`, { token: leaver.token })).status,
      ).toBe(204)
      expect(await membersUnread(owner, bubleId)).toBe(0)
      expect(await membersUnread(stays, bubleId)).toBe(0)
    })

    test('a role change or a transfer is not a join: the counters stay as they were', async () => {
      const owner = await user()
      const member = await user()
      const bubleId = await create(owner)
      await join(owner, member, bubleId)
      const promoted = await h.call('PUT', `/api/bubles/${bubleId}/members/role`, {
        token: owner.token,
        body: { userId: member.id, role: 'admin' },
      })
      expect(promoted.status).toBe(200)
      expect(await membersUnread(owner, bubleId)).toBe(1)
      expect(await membersUnread(member, bubleId)).toBe(0)
      const handed = await h.call('POST', `/api/bubles/${bubleId}/transfer-ownership`, {
        token: owner.token,
        body: { newOwnerId: member.id },
      })
      expect(handed.status).toBe(200)
      expect(await membersUnread(owner, bubleId)).toBe(1)
      expect(await membersUnread(member, bubleId)).toBe(0)
    })

    test('someone removed and invited back starts at zero again, counting only joins after their return', async () => {
      const owner = await user()
      const returner = await user()
      const bubleId = await create(owner)
      await join(owner, returner, bubleId)
      await join(owner, await user(), bubleId)
      expect(await membersUnread(returner, bubleId)).toBe(1)
      const gone = await h.call('DELETE', `/api/bubles/${bubleId}/members/remove`, {
        token: owner.token,
        body: { userId: returner.id },
      })
      expect(gone.status).toBe(200)
      await join(owner, returner, bubleId)
      expect(await membersUnread(returner, bubleId)).toBe(0)
      await join(owner, await user(), bubleId)
      expect(await membersUnread(returner, bubleId)).toBe(1)
    })

    test('a non-member, an unknown buble and a non-UUID id get 404 on both routes', async () => {
      const owner = await user()
      const stranger = await user()
      const bubleId = await create(owner)
      await join(owner, await user(), bubleId)
      for (const [who, id] of [
        [stranger, bubleId],
        [owner, randomUUID()],
        [owner, 'reading-room'],
      ] as const) {
        await expectBody(await countsCall(who.token, id), 404, NOT_FOUND)
        await expectBody(await readCall(who.token, id, { contentType: 'members' }), 404, NOT_FOUND)
      }
      expect(await membersUnread(owner, bubleId)).toBe(1)
    })

    test.each([
      ['an unknown content type', { contentType: 'stories' }],
      ['a content type in another case', { contentType: 'Members' }],
      ['no content type', {}],
    ])('marking read with %s is a 400 naming contentType, and reads nothing', async (_what, body) => {
      const owner = await user()
      const bubleId = await create(owner)
      await join(owner, await user(), bubleId)
      const res = await readCall(owner.token, bubleId, body)
      expect(res.status).toBe(400)
      const answer = await res.json()
      expect(answer.code).toBe('VALIDATION_ERROR')
      expect(answer.issues[0].path).toBe('contentType')
      expect(await membersUnread(owner, bubleId)).toBe(1)
    })

    test('both routes need a token', async () => {
      const owner = await user()
      const bubleId = await create(owner)
      expect((await countsCall('', bubleId)).status).toBe(401)
      expect((await readCall('', bubleId, { contentType: 'members' })).status).toBe(401)
    })
  })

  describe('the unread.read mutation', () => {
    test('is applied and resets the counter as the REST call does', async () => {
      const owner = await user()
      const bubleId = await create(owner)
      await join(owner, await user(), bubleId)
      const [result] = await push(h, owner.token, [
        mutation('unread.read', { buble_id: bubleId, contentType: 'members' }),
      ])
      expect(result).toMatchObject({ status: 'applied' })
      expect(await counts(owner, bubleId)).toEqual(counters(0))
    })

    test('the same mutation sent again is a duplicate and reads nothing new', async () => {
      const owner = await user()
      const bubleId = await create(owner)
      await join(owner, await user(), bubleId)
      const read = mutation('unread.read', { buble_id: bubleId, contentType: 'members' })
      expect((await push(h, owner.token, [read]))[0]?.status).toBe('applied')
      await join(owner, await user(), bubleId)
      expect((await push(h, owner.token, [read]))[0]?.status).toBe('duplicate')
      expect(await membersUnread(owner, bubleId)).toBe(1)
    })

    test('is rejected with NOT_FOUND for a buble the caller is not in, and VALIDATION_ERROR for a bad content type', async () => {
      const owner = await user()
      const stranger = await user()
      const bubleId = await create(owner)
      await join(owner, await user(), bubleId)
      const [outside, bad] = [
        (await push(h, stranger.token, [mutation('unread.read', { buble_id: bubleId, contentType: 'members' })]))[0],
        (await push(h, owner.token, [mutation('unread.read', { buble_id: bubleId, contentType: 'gossip' })]))[0],
      ]
      expect(outside).toMatchObject({ status: 'rejected', code: 'NOT_FOUND' })
      expect(bad).toMatchObject({ status: 'rejected', code: 'VALIDATION_ERROR' })
      expect(await membersUnread(owner, bubleId)).toBe(1)
    })
  })

  describe('through the sync pull', () => {
    test('a join brings the earlier member’s counter at 1; reading brings it at 0 (REST or mutation, to every device)', async () => {
      const owner = await user()
      const joiner = await user()
      const bubleId = await create(owner)
      const start = (await pullAll(h, owner.token)).cursor
      await join(owner, joiner, bubleId)

      const afterJoin = await pullAll(h, owner.token, start)
      expect(unreadIn(afterJoin.changes, bubleId)).toEqual([
        {
          entity: 'unread',
          op: 'put',
          id: `${bubleId}:members`,
          buble_id: bubleId,
          data: { contentType: 'members', unreadCount: 1 },
        },
      ])

      await markRead(owner, bubleId)
      const afterRead = await pullAll(h, owner.token, afterJoin.cursor)
      expect(afterRead.changes).toEqual([
        {
          entity: 'unread',
          op: 'put',
          id: `${bubleId}:members`,
          buble_id: bubleId,
          data: { contentType: 'members', unreadCount: 0 },
        },
      ])

      // Another join, read on one device by the mutation: the other device, at its own cursor, gets the 0.
      await join(owner, await user(), bubleId)
      const otherDevice = await pullAll(h, owner.token, afterRead.cursor)
      expect(unreadIn(otherDevice.changes, bubleId).at(-1)?.data).toEqual({ contentType: 'members', unreadCount: 1 })
      const [read] = await push(
        h,
        owner.token,
        [mutation('unread.read', { buble_id: bubleId, contentType: 'members' })],
        'phone',
      )
      expect(read?.status).toBe('applied')
      expect(unreadIn((await pullAll(h, owner.token, otherDevice.cursor)).changes, bubleId)).toEqual([
        {
          entity: 'unread',
          op: 'put',
          id: `${bubleId}:members`,
          buble_id: bubleId,
          data: { contentType: 'members', unreadCount: 0 },
        },
      ])
    })

    test('the joiner’s own device never gets a counter above 0 for their own join', async () => {
      const owner = await user()
      const joiner = await user()
      const bubleId = await create(owner)
      await create(joiner, 'Their Own')
      const start = (await pullAll(h, joiner.token)).cursor
      await join(owner, joiner, bubleId)
      const { changes } = await pullAll(h, joiner.token, start)
      expect(changes.some((c) => c.entity === 'buble' && c.id === bubleId && c.op === 'put')).toBe(true)
      for (const change of unreadIn(changes, bubleId))
        expect(change.data).toEqual({ contentType: 'members', unreadCount: 0 })
    })

    test('one member reading does not send the others a change of their counters', async () => {
      const owner = await user()
      const member = await user()
      const bubleId = await create(owner)
      await join(owner, member, bubleId)
      await join(owner, await user(), bubleId)
      const { cursor } = await pullAll(h, member.token)
      await markRead(owner, bubleId)
      expect((await pullAll(h, member.token, cursor)).changes).toEqual([])
      expect(await membersUnread(member, bubleId)).toBe(1)
    })

    test('a member removed before the owner read the tab brings the owner’s counter down by sync', async () => {
      const owner = await user()
      const removed = await user()
      const bubleId = await create(owner)
      await join(owner, removed, bubleId)
      const { cursor } = await pullAll(h, owner.token)
      const gone = await h.call('DELETE', `/api/bubles/${bubleId}/members/remove`, {
        token: owner.token,
        body: { userId: removed.id },
      })
      expect(gone.status).toBe(200)
      expect(unreadIn((await pullAll(h, owner.token, cursor)).changes, bubleId)).toEqual([
        {
          entity: 'unread',
          op: 'put',
          id: `${bubleId}:members`,
          buble_id: bubleId,
          data: { contentType: 'members', unreadCount: 0 },
        },
      ])
    })
  })
})
