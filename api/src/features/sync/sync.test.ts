import { encodeCursor } from '@buble/sync/server/cursor'
import { sql } from 'drizzle-orm'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { announceResync } from '../../lib/sync-writes.ts'
import { backends } from '../../testing/databases.ts'
import { createHarness, type Harness } from '../../testing/harness.ts'
import { applyChanges, idsOf, mutation, pullAll, pullPage, push } from '../../testing/sync.ts'
import { SYNC_RETENTION_MS, syncMaintenanceJob } from './maintenance.ts'

describe.each(backends())('sync on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
  })
  afterAll(() => h?.close())

  const count = async (query: ReturnType<typeof sql>) => {
    const result = (await h.database.db.execute(query)) as unknown as { rows: { n: string | number }[] }
    return Number(result.rows[0]?.n)
  }
  const bublesNamed = (name: string) => count(sql`select count(*) as n from bubles where name = ${name}`)
  const membersOf = (bubleId: string) => count(sql`select count(*) as n from memberships where buble_id = ${bubleId}`)

  async function newBuble(token: string, name = 'Shared') {
    const res = await h.call('POST', '/api/bubles', { token, body: { name } })
    return (await res.json()) as { id: string; slug: string }
  }
  async function join(token: string, bubleId: string, inviterToken: string) {
    const { code } = await (
      await h.call('POST', `/api/bubles/${bubleId}/invites`, { token: inviterToken, body: {} })
    ).json()
    const res = await h.call('POST', `/api/bubles/invites/${code}/accept`, { token })
    expect(res.status).toBe(200)
  }

  describe('push', () => {
    test('a mutation is applied once and answers the REST shape; the same mutation again answers duplicate and writes nothing', async () => {
      const { token, id: userId } = await h.register({ name: 'Dot Device' })
      const create = mutation('buble.create', { id: uuidv7(), name: 'Once only' })
      const [first] = await push(h, token, [create])
      expect(first).toMatchObject({ id: create.id, status: 'applied', data: { name: 'Once only', owner_id: userId } })
      const [again] = await push(h, token, [create])
      expect(again).toMatchObject({
        id: create.id,
        status: 'duplicate',
        data: { id: create.args.id, name: 'Once only' },
      })
      // Twice in one batch, too.
      const [inBatchA, inBatchB] = await push(h, token, [create, create])
      expect([inBatchA?.status, inBatchB?.status]).toEqual(['duplicate', 'duplicate'])
      expect(await bublesNamed('Once only')).toBe(1)
    })

    test('the same mutation pushed twice at the same moment is applied exactly once', async () => {
      const { token } = await h.register()
      const create = mutation('buble.create', { id: uuidv7(), name: 'Concurrent twin' })
      const answers = await Promise.all([push(h, token, [create], 'tab-1'), push(h, token, [create], 'tab-2')])
      const statuses = answers.map((results) => results[0]?.status).sort()
      expect(statuses).toEqual(['applied', 'duplicate'])
      expect(await bublesNamed('Concurrent twin')).toBe(1)
    })

    test('mutations apply in the order pushed: a later one may use what an earlier one made', async () => {
      const { token } = await h.register()
      const bubleId = uuidv7()
      const results = await push(h, token, [
        mutation('invite.create', { buble_id: bubleId }),
        mutation('buble.create', { id: bubleId, name: 'Ordered' }),
        mutation('invite.create', { buble_id: bubleId }),
      ])
      expect(results.map((result) => result.status)).toEqual(['rejected', 'applied', 'applied'])
      expect(results[0]).toMatchObject({ code: 'NOT_FOUND', message: 'Buble not found' })
      expect(results[2]?.data).toMatchObject({ code: expect.stringMatching(/^[2-9A-Z]{10}$/) })
    })

    test('each mutation is refused on its own with a code; the rest of the batch still applies', async () => {
      const owner = await h.register()
      const member = await h.register()
      const outsider = await h.register()
      const buble = await newBuble(owner.token, 'Guarded')
      await join(member.token, buble.id, owner.token)
      const kept = mutation('buble.create', { id: uuidv7(), name: 'Kept despite the others' })
      const results = await push(h, member.token, [
        mutation('buble.delete', { id: buble.id }),
        mutation('buble.create', { id: uuidv7(), name: '' }),
        mutation('buble.create', { name: 'no id' }),
        mutation('post.explode', {}),
        mutation('chat.send', { id: uuidv7(), buble_id: buble.id, content: '   ' }),
        kept,
      ])
      expect(results.map((result) => [result.status, result.code])).toEqual([
        ['rejected', 'FORBIDDEN'],
        ['rejected', 'VALIDATION_ERROR'],
        ['rejected', 'VALIDATION_ERROR'],
        ['rejected', 'UNKNOWN_MUTATION'],
        ['rejected', 'VALIDATION_ERROR'],
        ['applied', undefined],
      ])
      expect(results[1]?.message).toBe('Buble name is required')
      expect(results[3]?.message).toBe('Unknown mutation: post.explode')
      expect(results[4]?.message).toBe('Message is required')
      // Someone outside the buble learns nothing about it.
      const [outside] = await push(h, outsider.token, [mutation('buble.delete', { id: buble.id })])
      expect(outside).toMatchObject({ status: 'rejected', code: 'NOT_FOUND', message: 'Buble not found' })
      expect(await membersOf(buble.id)).toBe(2)
      expect(await bublesNamed('Kept despite the others')).toBe(1)
    })

    test('a rejected mutation stays rejected when replayed, even once it would be allowed', async () => {
      const owner = await h.register()
      const joiner = await h.register()
      const buble = await newBuble(owner.token, 'Later allowed')
      const early = mutation('invite.create', { buble_id: buble.id })
      expect((await push(h, joiner.token, [early]))[0]).toMatchObject({ status: 'rejected', code: 'NOT_FOUND' })
      await join(joiner.token, buble.id, owner.token)
      // Now a plain member: still refused, and the replay writes nothing at all.
      const invitesBefore = await count(sql`select count(*) as n from invites where buble_id = ${buble.id}`)
      expect((await push(h, joiner.token, [early]))[0]).toMatchObject({ status: 'rejected', code: 'NOT_FOUND' })
      expect(await count(sql`select count(*) as n from invites where buble_id = ${buble.id}`)).toBe(invitesBefore)
    })

    test('a refused mutation leaves no partial write: an invite code is not spent by a failed join', async () => {
      const owner = await h.register()
      const member = await h.register()
      const buble = await newBuble(owner.token, 'Unspent')
      await join(member.token, buble.id, owner.token)
      const { code } = await (
        await h.call('POST', `/api/bubles/${buble.id}/invites`, { token: owner.token, body: {} })
      ).json()
      const [again] = await push(h, member.token, [mutation('invite.accept', { code })])
      expect(again).toMatchObject({ status: 'rejected', code: 'CONFLICT' })
      const newcomer = await h.register()
      const [used] = await push(h, newcomer.token, [mutation('invite.accept', { code: ` ${code.toLowerCase()} ` })])
      expect(used).toMatchObject({ status: 'applied', data: { id: buble.id, my_role: 'member', member_count: 3 } })
    })

    test("another user's mutation id is refused without touching either user's data", async () => {
      const a = await h.register()
      const b = await h.register()
      const shared = uuidv7()
      await push(h, a.token, [mutation('buble.create', { id: uuidv7(), name: 'First claim' }, shared)])
      const [theirs] = await push(h, b.token, [
        mutation('buble.create', { id: uuidv7(), name: 'Second claim' }, shared),
      ])
      expect(theirs).toMatchObject({ status: 'rejected', code: 'CONFLICT' })
      expect(JSON.stringify(theirs)).not.toContain('First claim')
      expect(await bublesNamed('Second claim')).toBe(0)
    })

    test('REST and sync share one service: a buble made by either is the same shape, and ids are never reused', async () => {
      const { token } = await h.register()
      const id = uuidv7()
      const [viaSync] = await push(h, token, [mutation('buble.create', { id, name: 'One door' })])
      const viaRest = await h.call('POST', '/api/bubles', { token, body: { id, name: 'Another door' } })
      expect(viaRest.status).toBe(200)
      expect(await viaRest.json()).toEqual(viaSync?.data)
      const other = await h.register()
      expect((await h.call('POST', '/api/bubles', { token: other.token, body: { id, name: 'Taken' } })).status).toBe(
        409,
      )
    })

    test('profile.update renames the user, and their member rows are sent again', async () => {
      const owner = await h.register({ name: 'Owner Olsen' })
      const member = await h.register({ name: 'Before Rename' })
      const buble = await newBuble(owner.token, 'Renames')
      await join(member.token, buble.id, owner.token)
      const { cursor } = await pullAll(h, owner.token)
      const [renamed] = await push(h, member.token, [mutation('profile.update', { name: 'After Rename' })])
      expect(renamed).toMatchObject({ status: 'applied', data: { name: 'After Rename' } })
      const { changes } = await pullAll(h, owner.token, cursor)
      const memberChange = changes.find((change) => change.entity === 'member' && change.id.endsWith(member.id))
      expect(memberChange?.data).toMatchObject({ user: { name: 'After Rename' } })
      const bubleChange = changes.find((change) => change.entity === 'buble')
      expect(bubleChange?.data).toMatchObject({
        members: expect.arrayContaining([{ id: member.id, name: 'After Rename', avatar_url: null }]),
      })
    })
  })

  describe('pull', () => {
    test('from zero: every buble of the caller with its members, as REST answers them; nothing of other bubles', async () => {
      const owner = await h.register({ name: 'Olga Owner' })
      const member = await h.register({ name: 'Mats Member' })
      const stranger = await h.register()
      const buble = await newBuble(owner.token, 'From zero')
      await join(member.token, buble.id, owner.token)
      await newBuble(stranger.token, 'Not yours')
      const { changes, cursor } = await pullAll(h, member.token)
      const rest = await (await h.call('GET', `/api/bubles/${buble.id}`, { token: member.token })).json()
      expect(changes.filter((change) => change.entity === 'buble')).toEqual([
        { entity: 'buble', op: 'put', id: buble.id, buble_id: buble.id, data: rest },
      ])
      const members = await (await h.call('GET', `/api/bubles/${buble.id}/members`, { token: member.token })).json()
      const memberChanges = changes.filter((change) => change.entity === 'member')
      expect(memberChanges.map((change) => change.id).sort()).toEqual(
        [`${buble.id}:${owner.id}`, `${buble.id}:${member.id}`].sort(),
      )
      expect(memberChanges.map((change) => change.data)).toEqual(expect.arrayContaining(members))
      expect(changes.every((change) => change.buble_id === buble.id && change.op === 'put')).toBe(true)
      // Up to date now: the same cursor answers nothing new.
      expect(await pullPage(h, member.token, cursor)).toEqual({ cursor, hasMore: false, changes: [] })
    })

    test('with a cursor: only what changed since, in version order', async () => {
      const owner = await h.register()
      const member = await h.register({ name: 'Late Comer' })
      const buble = await newBuble(owner.token, 'Since cursor')
      const { cursor } = await pullAll(h, owner.token)
      await join(member.token, buble.id, owner.token)
      const { changes } = await pullAll(h, owner.token, cursor)
      expect(changes.map((change) => [change.entity, change.op, change.id])).toEqual([
        ['member', 'put', `${buble.id}:${member.id}`],
        ['buble', 'put', buble.id],
        // The new member counts on the owner's members tab.
        ['unread', 'put', `${buble.id}:members`],
      ])
      expect(changes[1]?.data).toMatchObject({ member_count: 2 })
      expect(changes[2]?.data).toEqual({ contentType: 'members', unreadCount: 1 })
    })

    test('after joining, the buble arrives whole though the cursor is newer than its history', async () => {
      const owner = await h.register()
      const early = await h.register({ name: 'Early Member' })
      const joiner = await h.register()
      const buble = await newBuble(owner.token, 'History')
      await join(early.token, buble.id, owner.token)
      // The joiner's device is fully synced, and later than all of that history.
      await newBuble(joiner.token, 'Own buble')
      const { cursor } = await pullAll(h, joiner.token)
      await join(joiner.token, buble.id, owner.token)
      const { changes } = await pullAll(h, joiner.token, cursor)
      const state = applyChanges(changes)
      expect(idsOf(state).member).toEqual(
        [`${buble.id}:${owner.id}`, `${buble.id}:${early.id}`, `${buble.id}:${joiner.id}`].sort(),
      )
      expect(state.get('buble')?.get(buble.id)?.data).toMatchObject({ member_count: 3, my_role: 'member' })
      // It starts with a del of the buble, so a device that had it before (left and rejoined) drops stale rows first.
      expect(changes[0]).toEqual({ entity: 'buble', op: 'del', id: buble.id, buble_id: buble.id })
    })

    test('a backfill across several small pages delivers everything exactly once, and the cursor then rests', async () => {
      const owner = await h.register()
      const joiner = await h.register()
      const buble = await newBuble(owner.token, 'Paged history')
      for (let i = 0; i < 5; i++) await join((await h.register({ name: `Member ${i}` })).token, buble.id, owner.token)
      await newBuble(joiner.token, 'Mine')
      const { cursor } = await pullAll(h, joiner.token)
      await join(joiner.token, buble.id, owner.token)
      const paged = await pullAll(h, joiner.token, cursor, 2)
      const whole = await pullAll(h, joiner.token, cursor)
      expect(paged.pages).toBeGreaterThan(3)
      expect(idsOf(applyChanges(paged.changes))).toEqual(idsOf(applyChanges(whole.changes)))
      // Each row once; a counter is sent again with each page that changes it.
      const puts = paged.changes
        .filter((change) => change.op === 'put' && change.entity !== 'unread')
        .map((change) => change.id)
      expect(new Set(puts).size).toBe(puts.length)
      expect(idsOf(applyChanges(paged.changes)).member).toHaveLength(7)
      expect((await pullPage(h, joiner.token, paged.cursor)).changes).toEqual([])
    })

    test('a device of someone in 120 bubles pages through them with a small cursor', async () => {
      const { token } = await h.register()
      await push(
        h,
        token,
        Array.from({ length: 100 }, (_, i) => mutation('buble.create', { id: uuidv7(), name: `Many ${i}` })),
      )
      await push(
        h,
        token,
        Array.from({ length: 20 }, (_, i) => mutation('buble.create', { id: uuidv7(), name: `More ${i}` })),
      )
      let cursor: string | undefined
      let pages = 0
      const seen = new Set<string>()
      for (;;) {
        const page = await pullPage(h, token, cursor, 7)
        pages += 1
        expect(page.cursor.length).toBeLessThan(200)
        for (const change of page.changes) if (change.entity === 'buble') seen.add(change.id)
        cursor = page.cursor
        if (!page.hasMore) break
      }
      expect(pages).toBeGreaterThan(30)
      expect(seen.size).toBe(120)
    })

    test('leaving brings a del of the buble to the one who left, and a del of their member row to the others', async () => {
      const owner = await h.register()
      const leaver = await h.register()
      const buble = await newBuble(owner.token, 'Left behind')
      await join(leaver.token, buble.id, owner.token)
      const leaverCursor = (await pullAll(h, leaver.token)).cursor
      const ownerCursor = (await pullAll(h, owner.token)).cursor
      const [left] = await push(h, leaver.token, [mutation('buble.leave', { buble_id: buble.id })])
      expect(left?.status).toBe('applied')
      expect((await pullAll(h, leaver.token, leaverCursor)).changes).toEqual([
        { entity: 'buble', op: 'del', id: buble.id, buble_id: buble.id },
      ])
      const ownerChanges = (await pullAll(h, owner.token, ownerCursor)).changes
      expect(ownerChanges.map((change) => [change.entity, change.op, change.id])).toEqual([
        ['member', 'del', `${buble.id}:${leaver.id}`],
        ['buble', 'put', buble.id],
        // Gone before the owner read the members tab: it counts no more.
        ['unread', 'put', `${buble.id}:members`],
      ])
      expect(ownerChanges[2]?.data).toEqual({ contentType: 'members', unreadCount: 0 })
    })

    test('a deleted buble comes as a del to every member, and nothing of it afterwards', async () => {
      const owner = await h.register()
      const member = await h.register()
      const buble = await newBuble(owner.token, 'Doomed')
      await join(member.token, buble.id, owner.token)
      const cursor = (await pullAll(h, member.token)).cursor
      expect((await h.call('DELETE', `/api/bubles/${buble.id}`, { token: owner.token })).status).toBe(204)
      const { changes } = await pullAll(h, member.token, cursor)
      expect(changes).toEqual([{ entity: 'buble', op: 'del', id: buble.id, buble_id: buble.id }])
      expect((await pullAll(h, member.token)).changes.some((change) => change.buble_id === buble.id)).toBe(false)
    })

    test('leaving and rejoining between two pulls leaves the device with the buble, not a del', async () => {
      const owner = await h.register()
      const member = await h.register()
      const buble = await newBuble(owner.token, 'Boomerang')
      await join(member.token, buble.id, owner.token)
      const first = await pullAll(h, member.token)
      await push(h, member.token, [mutation('buble.leave', { buble_id: buble.id })])
      await join(member.token, buble.id, owner.token)
      const state = applyChanges((await pullAll(h, member.token, first.cursor)).changes, applyChanges(first.changes))
      expect(state.get('buble')?.has(buble.id)).toBe(true)
      expect(idsOf(state).member).toEqual([`${buble.id}:${owner.id}`, `${buble.id}:${member.id}`].sort())
    })

    test('a quiet device pulls nothing, however busy other bubles are', async () => {
      const quietUser = await h.register()
      await newBuble(quietUser.token, 'Quiet')
      const { cursor } = await pullAll(h, quietUser.token)
      const busy = await h.register()
      for (let i = 0; i < 3; i++) await newBuble(busy.token, `Busy ${i}`)
      expect(await pullPage(h, quietUser.token, cursor)).toEqual({ cursor, hasMore: false, changes: [] })
    })

    test("a device that was up to date sees its own write at once, and another member's once its poke arrives", async () => {
      const owner = await h.register()
      const member = await h.register()
      const buble = await newBuble(owner.token, 'Fresh after quiet')
      await join(member.token, buble.id, owner.token)
      const { cursor } = await pullAll(h, owner.token)
      // Quiet twice: the second answer may come from the process's memory.
      expect((await pullPage(h, owner.token, cursor)).changes).toEqual([])
      expect((await pullPage(h, owner.token, cursor)).changes).toEqual([])
      await push(h, owner.token, [mutation('profile.update', { name: 'Own Write' })])
      const own = await pullPage(h, owner.token, cursor)
      expect(own.changes.some((change) => change.entity === 'member' && change.id.endsWith(owner.id))).toBe(true)
      // Another member writes: the poke comes back through LISTEN, then the same cursor is no longer quiet.
      const poked = new Promise<void>((resolve) => {
        const stop = h.deps.bus.subscribe((event) => {
          if ('buble_id' in event && event.buble_id === buble.id) {
            stop()
            resolve()
          }
        })
      })
      await push(h, member.token, [mutation('profile.update', { name: 'Their Write' })])
      await poked
      const theirs = await pullPage(h, owner.token, own.cursor)
      expect(theirs.changes.some((change) => change.entity === 'member' && change.id.endsWith(member.id))).toBe(true)
    })

    test('concurrent writers never make a pulling device skip a change', async () => {
      const owner = await h.register()
      const buble = await newBuble(owner.token, 'Crowded')
      const crowd = await Promise.all(Array.from({ length: 12 }, (_, i) => h.register({ name: `Crowd ${i}` })))
      for (const person of crowd) await join(person.token, buble.id, owner.token)
      let { cursor, changes } = await pullAll(h, owner.token)
      const state = applyChanges(changes)
      let writing = true
      const puller = (async () => {
        while (writing) {
          const page = await pullAll(h, owner.token, cursor)
          applyChanges(page.changes, state)
          cursor = page.cursor
        }
      })()
      await Promise.all(
        crowd.map((person, i) => push(h, person.token, [mutation('profile.update', { name: `Renamed ${i}` })])),
      )
      writing = false
      await puller
      ;({ changes } = await pullAll(h, owner.token, cursor))
      applyChanges(changes, state)
      const names = [...(state.get('member')?.values() ?? [])].map(
        (change) => (change.data as { user: { name: string } }).user.name,
      )
      expect(names.filter((name) => name.startsWith('Renamed')).sort()).toEqual(
        crowd.map((_, i) => `Renamed ${i}`).sort(),
      )
    })

    describe('a cursor that is not ours answers reset: true and the whole state again', () => {
      let token: string
      let whole: string[]
      let epoch: string
      beforeAll(async () => {
        ;({ token } = await h.register())
        await newBuble(token, 'Reset me')
        const all = await pullAll(h, token)
        whole = all.changes.map((change) => change.id).sort()
        epoch = (JSON.parse(Buffer.from(all.cursor, 'base64url').toString()) as { e: string }).e
      })

      // The maintenance job (or a restore) announces a resync; wait until this process has heard it.
      let resyncs = 0
      beforeAll(() => {
        h.deps.bus.subscribe((event) => {
          if ('resync' in event) resyncs += 1
        })
      })
      const waitForResync = async (before: number) => {
        for (let i = 0; i < 100 && resyncs === before; i++) await new Promise((resolve) => setTimeout(resolve, 20))
        expect(resyncs).toBeGreaterThan(before)
      }

      const expectReset = async (cursor: string) => {
        const page = await pullPage(h, token, cursor)
        expect(page.reset).toBe(true)
        expect(page.changes.map((change) => change.id).sort()).toEqual(whole)
        const next = await pullPage(h, token, page.cursor)
        expect(next.reset).toBeUndefined()
        expect(next.changes).toEqual([])
      }

      test('garbage', () => expectReset('definitely-not-a-cursor'))
      test('a cursor of another database (another epoch)', () =>
        expectReset(encodeCursor({ epoch: 'another-database', version: 1, lower: 1, upTo: 1, horizon: 0 })))
      test('a cursor from the future of this database (restored from a backup)', () =>
        expectReset(
          encodeCursor({
            epoch,
            version: Number.MAX_SAFE_INTEGER,
            lower: Number.MAX_SAFE_INTEGER,
            upTo: Number.MAX_SAFE_INTEGER,
            horizon: 0,
          }),
        ))

      test('a cursor from before a purge of the tombstones it still needed', async () => {
        const owner = await h.register()
        const other = await h.register()
        const buble = await newBuble(owner.token, 'Purged history')
        await join(other.token, buble.id, owner.token)
        const { cursor } = await pullAll(h, owner.token)
        // A member leaves (a tombstone), then 90 days pass and the maintenance job purges it.
        await push(h, other.token, [mutation('buble.leave', { buble_id: buble.id })])
        const later = new Date(Date.now() + SYNC_RETENTION_MS + 60_000)
        const before = resyncs
        await expect(h.database.withAdvisoryLock(1, (tx) => syncMaintenanceJob.run(tx, later))).resolves.toBe(true)
        await waitForResync(before)
        try {
          const page = await pullPage(h, owner.token, cursor)
          expect(page.reset).toBe(true)
          expect(page.changes.some((change) => change.id === buble.id)).toBe(true)
          expect((await pullPage(h, owner.token, page.cursor)).reset).toBeUndefined()
        } finally {
          await h.database.db.execute(sql`delete from sync_meta where key = 'horizon'`)
        }
      })

      test('a cursor from before the database was reset (new epoch)', async () => {
        const { cursor } = await pullAll(h, token)
        // As a restore would leave it: a new epoch, announced to running processes.
        const before = resyncs
        await h.database.db.transaction(async (tx) => {
          await tx.execute(sql`update sync_meta set value = 'reset-epoch' where key = 'epoch'`)
          await announceResync(tx)
        })
        await waitForResync(before)
        try {
          await expectReset(cursor)
        } finally {
          await h.database.db.execute(sql`update sync_meta set value = ${epoch} where key = 'epoch'`)
        }
      })
    })
  })

  describe('bad input is a clear 400, never a 500, and writes nothing', () => {
    const valid = () => mutation('buble.create', { id: uuidv7(), name: 'Never written' })
    test.each([
      ['a body that is not JSON', '{"clientId": '],
      ['an array', []],
      ['no clientId', { mutations: [valid()] }],
      ['no mutations', { clientId: 'd', mutations: [] }],
      ['101 mutations', { clientId: 'd', mutations: Array.from({ length: 101 }, valid) }],
      ['a mutation id that is not a UUID', { clientId: 'd', mutations: [{ ...valid(), id: 'mutation-1' }] }],
      ['args that are not an object', { clientId: 'd', mutations: [{ ...valid(), args: ['x'] }] }],
      ['a name that is not a string', { clientId: 'd', mutations: [{ ...valid(), name: 7 }] }],
      ['no createdAt', { clientId: 'd', mutations: [{ ...valid(), createdAt: undefined }] }],
    ])('push with %s', async (_what, body) => {
      const { token } = await h.register()
      const res = await h.call('POST', '/api/sync/push', { token, body })
      expect(res.status).toBe(400)
      expect((await res.json()).code).toBe('VALIDATION_ERROR')
      expect(await bublesNamed('Never written')).toBe(0)
    })

    test.each([
      ['limit=0', 'limit=0'],
      ['limit=1001', 'limit=1001'],
      ['a limit that is not a number', 'limit=lots'],
      ['a cursor over 8 KB', `cursor=${'a'.repeat(9000)}`],
    ])('pull with %s', async (_what, query) => {
      const { token } = await h.register()
      const res = await h.call('GET', `/api/sync/pull?${query}`, { token })
      expect(res.status).toBe(400)
      expect((await res.json()).code).toBe('VALIDATION_ERROR')
    })

    test('push and pull need a token', async () => {
      expect((await h.call('POST', '/api/sync/push', { body: { clientId: 'd', mutations: [valid()] } })).status).toBe(
        401,
      )
      expect((await h.call('GET', '/api/sync/pull')).status).toBe(401)
      expect(await bublesNamed('Never written')).toBe(0)
    })
  })
})
