import { BACKOFF, STRIKES_KEY, SyncEngine } from '@buble/sync/client/engine'
import { readMeta } from '@buble/sync/client/local-db'
import { alice, manualClock, scriptedTransport } from '@buble/sync/client/test-kit'
import { TransportError } from '@buble/sync/client/transport'
import type { Change, PullResponse, PushBody, PushResponse } from '@buble/sync/protocol'
import { v7 as uuidv7 } from 'uuid'
import { afterEach, describe, expect, test } from 'vitest'
import { testDb } from '../../test/device-kit.ts'
import type { DeviceDb } from '../device-db.ts'

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

let dbs: DeviceDb[] = []
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

function engineWith(db: DeviceDb, script: Parameters<typeof scriptedTransport>[0] = {}, extra = {}) {
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
    let started: () => void = () => {}
    const firstPull = new Promise<void>((resolve) => (started = resolve))
    const { engine } = engineWith(db, {
      pull: async () => {
        rounds += 1
        inFlight += 1
        most = Math.max(most, inFlight)
        if (rounds === 1) {
          const held = new Promise<void>((resolve) => (release = resolve))
          started()
          await held
        }
        inFlight -= 1
        return page([])
      },
    })
    const first = engine.sync()
    // The first round is inside its pull (waiting on a timer instead raced a loaded machine).
    await firstPull
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

/** Fires each retry timer as it comes due until none is left (or `most` have fired); answers the waits. */
async function drain(engine: SyncEngine, clock: ReturnType<typeof manualClock>, most = 40): Promise<number[]> {
  const waits: number[] = []
  await engine.settled()
  for (let i = 0; i < most; i++) {
    const [wait] = clock.waiting()
    if (wait === undefined) break
    waits.push(wait)
    clock.advance(wait)
    await engine.settled()
  }
  return waits
}

/**
 * A server that applies each mutation once, answering `duplicate` on a replay, and fails a whole
 * batch (nothing applied, as a rolled-back transaction) when `fails` says so.
 */
function countingServer(fails: (body: PushBody, tries: number) => TransportError | null) {
  /** Every mutation id applied, in order: one entry each when nothing is doubled. */
  const applied: string[] = []
  let tries = 0
  return {
    applied,
    push(body: PushBody): PushResponse {
      tries += 1
      const failure = fails(body, tries)
      if (failure) throw failure
      return {
        results: body.mutations.map((m) => {
          if (applied.includes(m.id)) return { id: m.id, status: 'duplicate' as const }
          applied.push(m.id)
          return { id: m.id, status: 'applied' as const }
        }),
      }
    },
  }
}

const serverError = () => new TransportError('server', 'Internal server error', 500, 'INTERNAL_ERROR')
const contentOf = (m: PushBody['mutations'][number]) => m.args.content

/** Queues chat messages offline, one per text; answers their mutation ids. */
async function queueMessages(db: DeviceDb, texts: string[]): Promise<string[]> {
  const { engine } = engineWith(db, {}, { isOnline: () => false })
  const ids: string[] = []
  for (const content of texts) ids.push(await engine.mutate('chat.send', { id: uuidv7(), buble_id: B1, content }))
  await engine.settled()
  engine.stop()
  return ids
}

const texts = (n: number) => Array.from({ length: n }, (_, i) => `message ${i}`)

describe('a batch the server keeps failing', () => {
  test('a poisoned mutation in a queue of 10 is found alone and kept as INTERNAL with its text; the other 9 apply once', async () => {
    const db = freshDb()
    const ids = await queueMessages(db, texts(10))
    const server = countingServer((body) =>
      body.mutations.some((m) => contentOf(m) === 'message 4') ? serverError() : null,
    )
    const { engine, clock, pushes, pulls } = engineWith(db, { push: (body) => server.push(body) })
    await engine.sync()
    const waits = await drain(engine, clock)

    // Three tries of the batch, then one by one: four go through, the fifth fails alone three times,
    // and full batches resume with the rest.
    expect(pushes.map((body) => body.mutations.length)).toEqual([10, 10, 10, 1, 1, 1, 1, 1, 1, 1, 5])
    // Every failure but the last waited, growing (random() is 1: the full cap of each step).
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16000])
    expect(server.applied).toEqual(ids.filter((_, i) => i !== 4))
    expect(await db.rejections.toArray()).toMatchObject([
      {
        id: ids[4],
        name: 'chat.send',
        args: { content: 'message 4' },
        code: 'INTERNAL',
        message: 'Something went wrong on the server',
      },
    ])
    // Rolled back on the device; the rest are the server's now.
    const shown = (await db.chat_messages.toArray()).map((row) => row.content)
    expect(shown).not.toContain('message 4')
    expect(await db.outbox.count()).toBe(0)
    expect(await readMeta(db, STRIKES_KEY)).toBeUndefined()
    expect((await engine.status()).state).toBe('idle')
    // No retry loop: nothing waits, and the culprit is not sent again.
    expect(clock.waiting()).toEqual([])
    const before = pushes.length
    await engine.sync()
    expect(pushes.length).toBe(before)
    expect(pulls.length).toBeGreaterThan(0)
  })

  test('a 503 with Retry-After (the database down) never marks anything, and waits as asked', async () => {
    const db = freshDb()
    const ids = await queueMessages(db, texts(3))
    let down = true
    const server = countingServer(() =>
      down ? new TransportError('server', 'Database unavailable', 503, 'SERVICE_UNAVAILABLE', 30_000) : null,
    )
    const { engine, clock, pushes } = engineWith(db, { push: (body) => server.push(body) })
    await engine.sync()
    const waits = await drain(engine, clock, 12)
    expect(waits).toHaveLength(12)
    expect(waits.every((wait) => wait >= 30_000)).toBe(true)
    expect(pushes.every((body) => body.mutations.length === 3)).toBe(true)
    expect(await db.rejections.count()).toBe(0)
    expect(await db.outbox.count()).toBe(3)

    down = false
    await drain(engine, clock)
    expect(await db.rejections.count()).toBe(0)
    expect(server.applied).toEqual(ids)
    expect(await db.outbox.count()).toBe(0)
  })

  test.each([
    ['gateway', () => new TransportError('server', 'Bad gateway', 502)],
    ['timeout', () => new TransportError('server', 'Gateway timeout', 504)],
    ['rate', () => new TransportError('server', 'Too many requests', 429, 'RATE_LIMITED', 1000)],
    ['network', () => new TransportError('network', 'Failed to fetch')],
  ])('a batch failing with no fault of its own (%s) is never taken apart', async (_, failure) => {
    const db = freshDb()
    await queueMessages(db, texts(3))
    const { engine, clock, pushes } = engineWith(db, {
      push: () => {
        throw failure()
      },
    })
    await engine.sync()
    await drain(engine, clock, 10)
    expect(pushes).toHaveLength(11)
    expect(pushes.every((body) => body.mutations.length === 3)).toBe(true)
    expect(await db.rejections.count()).toBe(0)
  })

  test('a server failing every request (push and pull) never blames a mutation', async () => {
    const db = freshDb()
    await queueMessages(db, ['only one'])
    const { engine, clock, pushes } = engineWith(db, {
      push: () => {
        throw serverError()
      },
      pull: () => {
        throw serverError()
      },
    })
    await engine.sync()
    await drain(engine, clock, 10)
    expect(pushes.length).toBeGreaterThan(3)
    expect(await db.rejections.count()).toBe(0)
    expect(await db.outbox.count()).toBe(1)
  })

  test('a batch applied but whose answers are lost ends duplicate, applied once, nothing refused', async () => {
    const db = freshDb()
    const ids = await queueMessages(db, texts(4))
    let lost = 0
    const server = countingServer(() => null)
    const answers: string[] = []
    const { engine, clock, pushes } = engineWith(db, {
      push: (body) => {
        // The server commits, then the answer is cut off: three times for the full batch.
        const answer = server.push(body)
        if (body.mutations.length > 1 && lost < 3) {
          lost += 1
          throw new TransportError('server', 'Unreadable answer', 200)
        }
        answers.push(...answer.results.map((result) => result.status))
        return answer
      },
    })
    await engine.sync()
    await drain(engine, clock)
    // A cut 2xx is no fault of the batch: it is sent again whole, and comes back duplicate.
    expect(pushes.map((body) => body.mutations.length)).toEqual([4, 4, 4, 4])
    expect(answers).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate'])
    expect(server.applied).toEqual(ids)
    expect(await db.rejections.count()).toBe(0)
    expect(await db.outbox.count()).toBe(0)
  })

  test('a lone mutation whose 2xx answer is cut off again and again is retried, never refused: it was saved', async () => {
    const db = freshDb()
    const ids = await queueMessages(db, ['saved though unheard'])
    let lost = 0
    const server = countingServer(() => null)
    const answers: string[] = []
    const { engine, clock, pushes } = engineWith(db, {
      push: (body) => {
        const answer = server.push(body)
        if (lost < 4) {
          lost += 1
          throw new TransportError('server', 'Unreadable answer', 200)
        }
        answers.push(...answer.results.map((result) => result.status))
        return answer
      },
    })
    await engine.sync()
    await drain(engine, clock)
    expect(pushes).toHaveLength(5)
    expect(answers).toEqual(['duplicate'])
    expect(server.applied).toEqual(ids)
    expect(await db.rejections.count()).toBe(0)
    expect(await db.outbox.count()).toBe(0)
  })

  test('a lost answer is replayed as duplicate in the same batch: nothing doubled, nothing taken apart', async () => {
    const db = freshDb()
    const ids = await queueMessages(db, texts(3))
    let lost = false
    const server = countingServer(() => null)
    const { engine, clock, pushes } = engineWith(db, {
      push: (body) => {
        const answer = server.push(body)
        if (!lost) {
          lost = true
          throw new TransportError('server', 'Unreadable answer', 200)
        }
        return answer
      },
    })
    await engine.sync()
    await drain(engine, clock)
    expect(pushes.map((body) => body.mutations.length)).toEqual([3, 3])
    expect(server.applied).toEqual(ids)
    expect(await db.rejections.count()).toBe(0)
    expect(await db.outbox.count()).toBe(0)
  })

  test('a batch answered with nothing counts as a server error against it', async () => {
    const db = freshDb()
    await queueMessages(db, ['answered never'])
    const { engine, clock, pushes } = engineWith(db, { push: () => ({ results: [] }) })
    await engine.sync()
    await drain(engine, clock)
    expect(pushes).toHaveLength(3)
    expect(await db.rejections.toArray()).toMatchObject([{ code: 'INTERNAL', args: { content: 'answered never' } }])
  })

  test('the count belongs to one batch: errors of different batches never add up', async () => {
    const db = freshDb()
    await queueMessages(db, ['a1', 'a2'])
    const server = countingServer((_, tries) => (tries <= 2 || (tries >= 4 && tries <= 5) ? serverError() : null))
    const { engine, clock, pushes } = engineWith(db, { push: (body) => server.push(body) })
    await engine.sync()
    await drain(engine, clock)
    expect(await db.outbox.count()).toBe(0)
    await queueMessages(db, ['b1', 'b2'])
    await engine.sync()
    await drain(engine, clock)
    // Never one by one: no batch failed three times in a row.
    expect(pushes.map((body) => body.mutations.length)).toEqual([2, 2, 2, 2, 2, 2])
    expect(await db.rejections.count()).toBe(0)
    expect(server.applied).toHaveLength(4)
    expect(await readMeta(db, STRIKES_KEY)).toBeUndefined()
  })

  test('a change queued while its batch fails does not start the count over', async () => {
    const db = freshDb()
    await queueMessages(db, ['poison', 'fine'])
    const server = countingServer((body) =>
      body.mutations.some((m) => contentOf(m) === 'poison') ? serverError() : null,
    )
    const { engine, clock, pushes } = engineWith(db, { push: (body) => server.push(body) })
    await engine.sync()
    expect(clock.waiting()).toHaveLength(1)
    // Typed while the queue was stuck: the batch grows at its end, the failing part is still in it.
    await engine.mutate('chat.send', { id: uuidv7(), buble_id: B1, content: 'typed meanwhile' })
    await drain(engine, clock)
    expect(pushes.map((body) => body.mutations.length).slice(0, 4)).toEqual([2, 3, 3, 1])
    expect(await db.rejections.toArray()).toMatchObject([{ args: { content: 'poison' }, code: 'INTERNAL' }])
    expect(server.applied).toHaveLength(2)
  })

  test('a batch that fails whole while each of its mutations goes through alone: nobody blamed, full batches after', async () => {
    const db = freshDb()
    await queueMessages(db, texts(3))
    const server = countingServer((body) => (body.mutations.length > 1 ? serverError() : null))
    const { engine, clock, pushes } = engineWith(db, { push: (body) => server.push(body) })
    await engine.sync()
    await drain(engine, clock)
    await queueMessages(db, ['later 1', 'later 2'])
    await engine.sync()
    await drain(engine, clock)
    expect(pushes.map((body) => body.mutations.length)).toEqual([3, 3, 3, 1, 1, 1, 2, 2, 2, 1, 1])
    expect(await db.rejections.count()).toBe(0)
    expect(server.applied).toHaveLength(5)
  })

  test('the count is kept with the device data: another engine on it (a tab, the service worker) carries on', async () => {
    const db = freshDb()
    await queueMessages(db, ['poison'])
    const failing = { push: () => Promise.reject(serverError()) }
    for (let tab = 0; tab < 2; tab++) {
      const { engine } = engineWith(db, failing)
      await engine.sync()
      engine.stop()
    }
    expect(await readMeta(db, STRIKES_KEY)).toMatchObject({ count: 2 })
    const { engine } = engineWith(db, failing)
    await engine.sync()
    expect(await db.rejections.toArray()).toMatchObject([{ code: 'INTERNAL', args: { content: 'poison' } }])
  })
})

describe('refused changes', () => {
  test('a RATE_LIMITED refusal keeps when it may be tried again', async () => {
    const db = freshDb()
    const { engine, clock } = engineWith(db, {
      push: (body) => ({
        results: body.mutations.map((m) => ({
          id: m.id,
          status: 'rejected' as const,
          code: 'RATE_LIMITED',
          message: 'Too many messages',
          retryAfter: 90,
        })),
      }),
    })
    const id = await engine.mutate('chat.send', { id: uuidv7(), buble_id: B1, content: 'Slow down' })
    await engine.sync()
    const at = new Date(clock.now()).toISOString()
    expect(await db.rejections.get(id)).toEqual({
      id,
      name: 'chat.send',
      args: expect.objectContaining({ content: 'Slow down' }),
      code: 'RATE_LIMITED',
      message: 'Too many messages',
      at,
      retryAt: new Date(clock.now() + 90_000).toISOString(),
    })
  })

  test('retry queues the same change as a new mutation, applied again here; discard forgets it', async () => {
    const db = freshDb()
    let refuse = true
    const { engine, pushes } = engineWith(db, {
      // Refused at first; then the server has not answered yet when the test looks.
      push: (body) =>
        refuse
          ? {
              results: body.mutations.map((m) => ({
                id: m.id,
                status: 'rejected' as const,
                code: 'INTERNAL',
                message: 'Something went wrong',
              })),
            }
          : new Promise<PushResponse>(() => {}),
    })
    const first = await engine.mutate('buble.create', { id: B1, name: 'Book club' })
    const second = await engine.mutate('buble.create', { id: B2, name: 'Chess club' })
    await engine.sync()
    expect(await db.bubles.count()).toBe(0)
    expect(await db.rejections.count()).toBe(2)

    refuse = false
    const again = await engine.retryRejected(first)
    expect(again).not.toBe(first)
    // Applied on the device at once, before any answer, and gone from the refusals.
    expect(await db.bubles.get(B1)).toMatchObject({ name: 'Book club', _pending: true })
    expect(await db.rejections.get(first)).toBeUndefined()
    expect(await db.outbox.toArray()).toMatchObject([{ id: again, name: 'buble.create', args: { id: B1 } }])
    await expect.poll(() => pushes.at(-1)?.mutations.map((m) => m.id)).toEqual([again])
    expect(pushes.at(-1)?.mutations[0]?.args).toEqual({ id: B1, name: 'Book club' })
    expect(await engine.retryRejected(first)).toBeNull()

    await engine.discardRejected(second)
    expect(await db.rejections.count()).toBe(0)
    expect(await db.bubles.get(B2)).toBeUndefined()
  })
})
