import { afterEach, describe, expect, test } from 'vitest'
import type { Change, PullResponse } from '../protocol.ts'
import { BACKOFF, SyncEngine } from './engine.ts'
import { type LocalDb, readMeta } from './local-db.ts'
import { alice, manualClock, scriptedTransport, testDb } from './test-kit.ts'
import { TransportError } from './transport.ts'

const B1 = '0192b3c4-0000-7000-8000-0000000000b1'
const B2 = '0192b3c4-0000-7000-8000-0000000000b2'

/** A buble as the server sends it. */
const serverBuble = (id: string, name: string, extra: Record<string, unknown> = {}): Change => ({
  entity: 'buble',
  op: 'put',
  id,
  buble_id: id,
  data: { id, slug: name.toLowerCase().replace(/\W+/g, '-'), name, member_count: 1, ...extra },
})

const page = (changes: Change[], cursor = 'c1', hasMore = false): PullResponse => ({ cursor, hasMore, changes })

let dbs: LocalDb[] = []
const freshDb = () => {
  const db = testDb()
  dbs.push(db)
  return db
}
let engines: SyncEngine[] = []
afterEach(() => {
  for (const engine of engines) engine.stop()
  for (const db of dbs) db.close()
  engines = []
  dbs = []
})

function engineWith(db: LocalDb, script: Parameters<typeof scriptedTransport>[0] = {}, extra = {}) {
  const clock = manualClock()
  const scripted = scriptedTransport(script)
  const engine = new SyncEngine({
    db,
    transport: scripted.transport,
    actor: () => alice,
    timers: clock.timers,
    now: clock.now,
    random: () => 1,
    intervalMs: 0,
    ...extra,
  })
  engines.push(engine)
  return { engine, clock, ...scripted }
}

describe('mutate', () => {
  test('the optimistic row and the queued mutation land together, before any answer', async () => {
    const db = freshDb()
    // The server never answers: what the device shows comes from the device alone.
    const { engine } = engineWith(db, { push: () => new Promise(() => {}) })
    const id = await engine.mutate('buble.create', { id: B1, name: '  Book club ' })
    expect(await db.bubles.get(B1)).toMatchObject({
      name: 'Book club',
      _pending: true,
      my_role: 'owner',
      member_count: 1,
    })
    expect(await db.members.get(`${B1}:${alice.id}`)).toMatchObject({ role: 'owner', user: { name: alice.name } })
    expect(await db.outbox.toArray()).toMatchObject([{ id, name: 'buble.create', args: { id: B1, name: 'Book club' } }])
    engine.stop()
  })

  test('bad args are refused on the device and nothing is stored', async () => {
    const db = freshDb()
    const { engine, pushes } = engineWith(db)
    await expect(engine.mutate('buble.create', { id: B1, name: '   ' })).rejects.toThrow('Buble name is required')
    await expect(engine.mutate('buble.create', { id: 'not-a-uuid', name: 'x' })).rejects.toThrow()
    expect(await db.outbox.count()).toBe(0)
    expect(await db.bubles.count()).toBe(0)
    expect(pushes).toHaveLength(0)
  })
})

describe('push', () => {
  test('mutations go in the order they were made, in batches of at most 100', async () => {
    const db = freshDb()
    const { engine, pushes } = engineWith(db, {}, { isOnline: () => false })
    const ids: string[] = []
    for (let i = 0; i < 150; i++) ids.push(await engine.mutate('invite.accept', { code: `CODE${i}` }))
    expect(pushes).toHaveLength(0)
    const online = engineWith(db)
    await online.engine.sync()
    expect(online.pushes.map((body) => body.mutations.length)).toEqual([100, 50])
    expect(online.pushes.flatMap((body) => body.mutations.map((m) => m.id))).toEqual(ids)
    expect(new Set(online.pushes.map((body) => body.clientId)).size).toBe(1)
  })

  test('an applied mutation stays re-applied until a complete pull brings the server version, then leaves the queue', async () => {
    const db = freshDb()
    let pulled = false
    const { engine } = engineWith(db, {
      pull: () => {
        pulled = true
        return page([serverBuble(B1, 'Book club', { slug: 'book-club' })])
      },
    })
    await engine.mutate('buble.create', { id: B1, name: 'Book club' })
    await engine.sync()
    expect(pulled).toBe(true)
    expect(await db.outbox.count()).toBe(0)
    expect(await db.shadows.count()).toBe(0)
    const row = await db.bubles.get(B1)
    expect(row).toMatchObject({ slug: 'book-club', buble_id: B1 })
    expect(row?._pending).toBeUndefined()
  })

  test('duplicate counts as applied: the mutation is not pushed again', async () => {
    const db = freshDb()
    const { engine, pushes } = engineWith(db, {
      push: (body) => ({ results: body.mutations.map((m) => ({ id: m.id, status: 'duplicate' as const })) }),
    })
    await engine.mutate('invite.accept', { code: 'ABCDEFGH' })
    await engine.sync()
    await engine.sync()
    expect(pushes).toHaveLength(1)
    expect(await db.outbox.count()).toBe(0)
  })

  test('a rejected mutation is rolled back, kept with its text as not saved, and never sent again', async () => {
    const db = freshDb()
    const { engine, pushes } = engineWith(db, {
      push: (body) => ({
        results: body.mutations.map((m) => ({
          id: m.id,
          status: 'rejected' as const,
          code: 'FORBIDDEN',
          message: 'No',
        })),
      }),
    })
    const id = await engine.mutate('buble.create', { id: B1, name: 'Words I typed' })
    await engine.sync()
    expect(await db.bubles.get(B1)).toBeUndefined()
    expect(await db.members.count()).toBe(0)
    expect(await db.rejections.toArray()).toMatchObject([
      { id, name: 'buble.create', args: { name: 'Words I typed' }, code: 'FORBIDDEN', message: 'No' },
    ])
    await engine.sync()
    expect(pushes).toHaveLength(1)
  })

  test('a refused delete brings the buble back as the server last sent it', async () => {
    const db = freshDb()
    const { engine } = engineWith(db, { pull: () => page([serverBuble(B1, 'Survivor')]) })
    await engine.sync()
    const rejecting = engineWith(db, {
      push: (body) => ({
        results: body.mutations.map((m) => ({
          id: m.id,
          status: 'rejected' as const,
          code: 'FORBIDDEN',
          message: 'x',
        })),
      }),
      pull: () => page([serverBuble(B1, 'Survivor, renamed meanwhile')], 'c2'),
    })
    await rejecting.engine.mutate('buble.delete', { id: B1 })
    expect(await db.bubles.get(B1)).toBeUndefined()
    await rejecting.engine.sync()
    expect(await db.bubles.get(B1)).toMatchObject({ name: 'Survivor, renamed meanwhile' })
  })

  test('rows pulled while a change is pending do not undo it; refusing it then shows the pulled version', async () => {
    const db = freshDb()
    await engineWith(db, { pull: () => page([serverBuble(B1, 'Original')]) }).engine.sync()
    const offline = engineWith(db, {}, { isOnline: () => false })
    await offline.engine.mutate('buble.leave', { buble_id: B1 })
    // A pull arrives (another tab, say) with a newer version of the buble: it stays gone here.
    const pullOnly = engineWith(db, {
      push: () => {
        throw new TransportError('network', 'down')
      },
      pull: () => page([serverBuble(B1, 'Newer')], 'c2'),
    })
    await pullOnly.engine.sync()
    expect(await db.bubles.get(B1)).toBeUndefined()
    expect((await db.shadows.get(`bubles:${B1}`))?.value).toMatchObject({ name: 'Original' })
    const refusing = engineWith(db, {
      push: (body) => ({
        results: body.mutations.map((m) => ({
          id: m.id,
          status: 'rejected' as const,
          code: 'CONFLICT',
          message: 'Owner',
        })),
      }),
      pull: () => page([serverBuble(B1, 'Newer')], 'c3'),
    })
    await refusing.engine.sync()
    expect(await db.bubles.get(B1)).toMatchObject({ name: 'Newer' })
    expect(await db.shadows.count()).toBe(0)
  })

  test('a batch the server refuses as a whole is retried one by one, and only the culprit is refused', async () => {
    const db = freshDb()
    const { engine, pushes } = engineWith(db, {
      push: (body) => {
        if (body.mutations.length > 1 || body.mutations[0]?.args.code === 'POISON')
          throw new TransportError('client', 'Request body is too large', 413, 'PAYLOAD_TOO_LARGE')
        return { results: body.mutations.map((m) => ({ id: m.id, status: 'applied' as const })) }
      },
    })
    await engine.mutate('invite.accept', { code: 'FIRSTCODE' })
    await engine.mutate('invite.accept', { code: 'POISON' })
    await engine.mutate('invite.accept', { code: 'THIRDCODE' })
    await engine.sync()
    expect(pushes.map((body) => body.mutations.length)).toEqual([3, 1, 1, 1])
    expect(await db.rejections.toArray()).toMatchObject([{ args: { code: 'POISON' }, code: 'PAYLOAD_TOO_LARGE' }])
    expect(await db.outbox.count()).toBe(0)
  })
})

describe('pull', () => {
  test('pulls page after page until hasMore is false, storing the cursor', async () => {
    const db = freshDb()
    const pages = [
      page([serverBuble(B1, 'One')], 'p1', true),
      page([serverBuble(B2, 'Two')], 'p2', true),
      page([], 'p3', false),
    ]
    const { engine, pulls } = engineWith(db, { pull: () => pages.shift()! })
    await engine.sync()
    expect(pulls).toEqual([undefined, 'p1', 'p2'])
    expect(await readMeta(db, 'cursor')).toBe('p3')
    expect(await db.bubles.count()).toBe(2)
  })

  test("a buble's del drops the buble and every row of it", async () => {
    const db = freshDb()
    const member: Change = { entity: 'member', op: 'put', id: `${B1}:x`, buble_id: B1, data: { user_id: 'x' } }
    const other: Change = { entity: 'member', op: 'put', id: `${B2}:x`, buble_id: B2, data: { user_id: 'x' } }
    await engineWith(db, {
      pull: () => page([serverBuble(B1, 'Gone'), serverBuble(B2, 'Kept'), member, other]),
    }).engine.sync()
    await engineWith(db, {
      pull: () => page([{ entity: 'buble', op: 'del', id: B1, buble_id: B1 }], 'c2'),
    }).engine.sync()
    expect((await db.bubles.toArray()).map((row) => row.id)).toEqual([B2])
    expect((await db.members.toArray()).map((row) => row.id)).toEqual([`${B2}:x`])
  })

  test('within one page, order holds: rows written before their buble is dropped go with it, later ones stay', async () => {
    const db = freshDb()
    const member = (id: string, bubleId: string): Change => ({
      entity: 'member',
      op: 'put',
      id,
      buble_id: bubleId,
      data: { user_id: id },
    })
    await engineWith(db, {
      pull: () =>
        page([
          serverBuble(B1, 'Left and rejoined'),
          member(`${B1}:early`, B1),
          { entity: 'buble', op: 'del', id: B1, buble_id: B1 },
          serverBuble(B1, 'Left and rejoined'),
          member(`${B1}:late`, B1),
          { entity: 'member', op: 'del', id: `${B1}:late`, buble_id: B1 },
          member(`${B1}:last`, B1),
        ]),
    }).engine.sync()
    expect(await db.bubles.count()).toBe(1)
    expect((await db.members.toArray()).map((row) => row.id)).toEqual([`${B1}:last`])
  })

  test('a reset starts over from the server state, keeping what is still pending', async () => {
    const db = freshDb()
    await engineWith(db, { pull: () => page([serverBuble(B1, 'Stale')]) }).engine.sync()
    let pulls = 0
    const resetting = engineWith(db, {
      push: () => {
        throw new TransportError('network', 'down')
      },
      pull: async () => {
        pulls += 1
        // A buble made while the reset is on its way: still pending when it lands.
        await resetting.engine.mutate('buble.create', { id: B2, name: 'Made meanwhile' })
        return { ...page([serverBuble('0192b3c4-0000-7000-8000-0000000000b3', 'Fresh')], 'fresh'), reset: true }
      },
    })
    await resetting.engine.sync()
    expect(pulls).toBe(1)
    expect(await db.bubles.get(B1)).toBeUndefined()
    expect(await db.bubles.get(B2)).toMatchObject({ name: 'Made meanwhile', _pending: true })
    expect(await db.bubles.count()).toBe(2)
    expect(await readMeta(db, 'cursor')).toBe('fresh')
    resetting.engine.stop()
  })
})

describe('failures and retries', () => {
  test('without a network the engine says offline, and retries with growing, capped, jittered waits', async () => {
    const db = freshDb()
    let reachable = false
    const unreachable: number[] = []
    const { engine, clock } = engineWith(
      db,
      {
        push: (body) => {
          if (!reachable) throw new TransportError('network', 'Failed to fetch')
          return { results: body.mutations.map((m) => ({ id: m.id, status: 'applied' as const })) }
        },
      },
      { onUnreachable: () => unreachable.push(1) },
    )
    await engine.mutate('invite.accept', { code: 'ABCDEFGH' })
    await engine.settled()
    expect((await engine.status()).state).toBe('offline')
    const waits: number[] = []
    for (let i = 0; i < 8; i++) {
      const [wait] = clock.waiting()
      waits.push(wait!)
      clock.advance(wait!)
      await engine.settled()
    }
    // random() is 1 here: the full cap of each step, 1 s doubling up to 60 s.
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000])
    expect(unreachable.length).toBeGreaterThan(0)
    reachable = true
    clock.advance(clock.waiting()[0]!)
    await engine.settled()
    expect((await engine.status()).state).toBe('idle')
    expect(await db.outbox.count()).toBe(0)
    expect(clock.waiting()).toEqual([])
  })

  test('the jitter spreads waits between zero and the cap', async () => {
    const db = freshDb()
    const { engine, clock } = engineWith(
      db,
      {
        pull: () => {
          throw new TransportError('server', 'Bad gateway', 502)
        },
      },
      { random: () => 0.25 },
    )
    await engine.sync()
    expect(clock.waiting()).toEqual([BACKOFF.baseMs * 0.25])
    expect((await engine.status()).state).toBe('error')
  })

  test('a 429 waits at least as long as Retry-After says', async () => {
    const db = freshDb()
    const { engine, clock } = engineWith(db, {
      pull: () => {
        throw new TransportError('server', 'Too many requests', 429, 'RATE_LIMITED', 30_000)
      },
    })
    await engine.sync()
    expect(clock.waiting()).toEqual([30_000])
  })

  test('a 401 stops the engine until asked again: the queue waits for a new sign-in', async () => {
    const db = freshDb()
    const { engine, clock } = engineWith(db, {
      push: () => {
        throw new TransportError('auth', 'Invalid or expired token', 401)
      },
    })
    await engine.mutate('invite.accept', { code: 'ABCDEFGH' })
    await engine.sync()
    expect((await engine.status()).state).toBe('signed-out')
    expect(clock.waiting()).toEqual([])
    expect(await db.outbox.count()).toBe(1)
  })

  test('rounds never overlap; asking during a round runs exactly one more after it', async () => {
    const db = freshDb()
    let inFlight = 0
    let most = 0
    let release: () => void = () => {}
    let rounds = 0
    const { engine } = engineWith(db, {
      pull: async () => {
        rounds += 1
        inFlight += 1
        most = Math.max(most, inFlight)
        if (rounds === 1) await new Promise<void>((resolve) => (release = resolve))
        inFlight -= 1
        return page([])
      },
    })
    const first = engine.sync()
    await new Promise((resolve) => setTimeout(resolve, 10))
    const second = engine.sync()
    const third = engine.sync()
    release()
    await Promise.all([first, second, third])
    expect(most).toBe(1)
    expect(rounds).toBe(2)
  })
})

test('a round asked for while a failing round runs still happens', async () => {
  const db = freshDb()
  let online = false
  const { engine, pushes } = engineWith(db, {}, { isOnline: () => online })
  await engine.mutate('invite.accept', { code: 'ABCDEFGH' })
  // The offline round started by mutate is still running when the network comes back.
  const during = engine.sync()
  online = true
  await engine.sync()
  await during
  expect(pushes).toHaveLength(1)
  expect(await db.outbox.count()).toBe(0)
})
