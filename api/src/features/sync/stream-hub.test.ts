import { describe, expect, test } from 'vitest'
import type { BusEvent, ChangeBus } from '../../lib/change-bus.ts'
import { createLogger } from '../../lib/log.ts'
import { createStreamHub, type HubStream } from './stream-hub.ts'

/** A change bus the test drives by hand. */
function fakeBus() {
  const listeners = new Set<(event: BusEvent) => void>()
  const revoked = new Set<(userId: string, sessionId?: string) => void>()
  const bus: ChangeBus = {
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    onRevoked(listener) {
      revoked.add(listener)
      return () => revoked.delete(listener)
    },
    async close() {},
  }
  return {
    bus,
    emit: (event: BusEvent) => {
      for (const listener of listeners) listener(event)
    },
    revoke: (userId: string, sessionId?: string) => {
      for (const listener of revoked) listener(userId, sessionId)
    },
  }
}

/** Memberships read by the hub: counted, and answered from `bubles` as it is when read. */
function fakeMemberships(bubles: Map<string, string[]>) {
  const reads: string[] = []
  return {
    reads,
    bublesOf: async (userId: string) => {
      reads.push(userId)
      return new Set(bubles.get(userId) ?? [])
    },
  }
}

interface TestStream extends HubStream {
  writes: Uint8Array[]
  rechecks: number
}

const newStream = (userId: string, sessionId?: string): TestStream => {
  const stream: TestStream = {
    userId,
    sessionId,
    ready: false,
    writes: [],
    rechecks: 0,
    write: (bytes) => stream.writes.push(bytes),
    recheck: () => stream.rechecks++,
  }
  return stream
}

const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes)

describe('the stream hub', () => {
  test("fans a poke out to every member's streams in the bus's own turn: one encoding, no read, no stream of a non-member", async () => {
    const N = 3_000
    const bubles = new Map<string, string[]>()
    for (let i = 0; i < N; i++) bubles.set(`u${i}`, i % 3 === 0 ? ['b-poked', 'b-other'] : ['b-other'])
    const memberships = fakeMemberships(bubles)
    const { bus, emit } = fakeBus()
    const hub = createStreamHub({ bus, bublesOf: memberships.bublesOf, log: createLogger('silent') })
    const streams = Array.from({ length: N }, (_, i) => newStream(`u${i}`))
    for (const stream of streams) hub.join(stream)
    await Promise.all(streams.map((stream) => hub.settled(stream)))
    for (const stream of streams) stream.ready = true
    const readsBefore = memberships.reads.length

    emit({ buble_id: 'b-poked', entity: 'post' })

    // Checked before anything else runs: a fan-out that awaited (a query, a write's promise) per
    // stream would not have reached them yet.
    const members = streams.filter((_, i) => i % 3 === 0)
    const others = streams.filter((_, i) => i % 3 !== 0)
    expect(members.every((stream) => stream.writes.length === 1)).toBe(true)
    expect(others.every((stream) => stream.writes.length === 0)).toBe(true)
    // One buffer, encoded once, written to each.
    expect(new Set(members.map((stream) => stream.writes[0])).size).toBe(1)
    expect(text(members[0]?.writes[0])).toBe('event: poke\ndata: {"buble_id":"b-poked","entity":"post"}\n\n')
    expect(memberships.reads.length).toBe(readsBefore)
    hub.close()
  })

  test('a stream hears nothing before it is ready, and nothing after it left', async () => {
    const { bus, emit } = fakeBus()
    const hub = createStreamHub({
      bus,
      bublesOf: fakeMemberships(new Map([['u1', ['b1']]])).bublesOf,
      log: createLogger('silent'),
    })
    const stream = newStream('u1')
    hub.join(stream)
    await hub.settled(stream)
    emit({ buble_id: 'b1', entity: 'post' })
    expect(stream.writes).toHaveLength(0)
    stream.ready = true
    emit({ buble_id: 'b1', entity: 'post' })
    expect(stream.writes).toHaveLength(1)
    hub.leave(stream)
    emit({ buble_id: 'b1', entity: 'post' })
    expect(stream.writes).toHaveLength(1)
    hub.close()
  })

  test("a user's own poke reaches only that user's streams", async () => {
    const { bus, emit } = fakeBus()
    const bubles = new Map([
      ['u1', ['b1']],
      ['u2', ['b1']],
    ])
    const hub = createStreamHub({ bus, bublesOf: fakeMemberships(bubles).bublesOf, log: createLogger('silent') })
    const [mine, alsoMine, theirs] = [newStream('u1'), newStream('u1'), newStream('u2')] as const
    for (const stream of [mine, alsoMine, theirs]) {
      hub.join(stream)
      await hub.settled(stream)
      stream.ready = true
    }
    emit({ buble_id: 'b1', entity: 'unread', user_id: 'u1' })
    expect([mine.writes.length, alsoMine.writes.length, theirs.writes.length]).toEqual([1, 1, 0])
    hub.close()
  })

  test('joining a buble reloads the user once for all their streams, and the poke comes after, so the next pokes are heard', async () => {
    const { bus, emit } = fakeBus()
    const bubles = new Map([['u1', ['b1']]])
    const memberships = fakeMemberships(bubles)
    const hub = createStreamHub({ bus, bublesOf: memberships.bublesOf, log: createLogger('silent') })
    const streams = [newStream('u1'), newStream('u1'), newStream('u1')]
    for (const stream of streams) hub.join(stream)
    await Promise.all(streams.map((stream) => hub.settled(stream)))
    for (const stream of streams) stream.ready = true
    expect(memberships.reads).toEqual(['u1'])

    emit({ buble_id: 'b2', entity: 'post' })
    expect(streams.map((stream) => stream.writes.length)).toEqual([0, 0, 0])
    bubles.set('u1', ['b1', 'b2'])
    emit({ buble_id: 'b2', entity: 'buble', user_id: 'u1' })
    await hub.settled(streams[0]!)
    expect(memberships.reads).toEqual(['u1', 'u1'])
    expect(streams.map((stream) => text(stream.writes[0]))).toEqual(
      streams.map(() => 'event: poke\ndata: {"buble_id":"b2","entity":"buble"}\n\n'),
    )
    emit({ buble_id: 'b2', entity: 'post' })
    expect(streams.map((stream) => stream.writes.length)).toEqual([2, 2, 2])

    // Leaving it: its pokes stop.
    bubles.set('u1', ['b1'])
    emit({ buble_id: 'b2', entity: 'buble', user_id: 'u1' })
    await hub.settled(streams[0]!)
    emit({ buble_id: 'b2', entity: 'post' })
    expect(streams.map((stream) => stream.writes.length)).toEqual([3, 3, 3])
    hub.close()
  })

  test('of two reloads, the later one counts even when the earlier answers last', async () => {
    const { bus, emit } = fakeBus()
    const answers: ((bubles: Set<string>) => void)[] = []
    const hub = createStreamHub({
      bus,
      bublesOf: () => new Promise((resolve) => answers.push(resolve)),
      log: createLogger('silent'),
    })
    const stream = newStream('u1')
    hub.join(stream)
    answers[0]?.(new Set())
    await hub.settled(stream)
    stream.ready = true
    // Joined, then left: the first reload read before the leave, and answers last.
    emit({ buble_id: 'b1', entity: 'buble', user_id: 'u1' })
    emit({ buble_id: 'b1', entity: 'buble', user_id: 'u1' })
    answers[2]?.(new Set())
    answers[1]?.(new Set(['b1']))
    await hub.settled(stream)
    await new Promise((resolve) => setImmediate(resolve))
    const heard = stream.writes.length
    emit({ buble_id: 'b1', entity: 'post' })
    expect(stream.writes.length).toBe(heard)
    hub.close()
  })

  test("a revocation rechecks that user's streams alone; a resync rechecks and tells every stream", async () => {
    const { bus, emit, revoke } = fakeBus()
    const hub = createStreamHub({
      bus,
      bublesOf: fakeMemberships(new Map()).bublesOf,
      log: createLogger('silent'),
    })
    const [revoked, bystander] = [newStream('u1'), newStream('u2')]
    for (const stream of [revoked, bystander]) hub.join(stream)
    // Heard from the moment a stream joins, before its bubles are read.
    revoke('u1')
    expect([revoked.rechecks, bystander.rechecks]).toEqual([1, 0])
    for (const stream of [revoked, bystander]) {
      await hub.settled(stream)
      stream.ready = true
    }
    emit({ resync: true })
    expect([revoked.rechecks, bystander.rechecks]).toEqual([2, 1])
    expect([revoked, bystander].map((stream) => text(stream.writes[0]))).toEqual([
      'event: resync\ndata: {}\n\n',
      'event: resync\ndata: {}\n\n',
    ])
    hub.close()
  })

  test("an ended session rechecks that session's streams alone, not the user's other sessions'", () => {
    const { bus, revoke } = fakeBus()
    const hub = createStreamHub({ bus, bublesOf: fakeMemberships(new Map()).bublesOf, log: createLogger('silent') })
    const streams = [newStream('u1', 's1'), newStream('u1', 's1'), newStream('u1', 's2'), newStream('u2', 's3')]
    for (const stream of streams) hub.join(stream)
    revoke('u1', 's1')
    expect(streams.map((stream) => stream.rechecks)).toEqual([1, 1, 0, 0])
    // Another user's session of that id is no business of u1's: the user is checked first.
    revoke('u2', 's1')
    expect(streams.map((stream) => stream.rechecks)).toEqual([1, 1, 0, 0])
    hub.close()
  })

  test('a first read of the bubles that failed fails the stream, and is tried again for the next', async () => {
    const { bus } = fakeBus()
    let fail = true
    const hub = createStreamHub({
      bus,
      bublesOf: async () => {
        if (fail) throw new Error('database down')
        return new Set(['b1'])
      },
      log: createLogger('silent'),
    })
    const first = newStream('u1')
    hub.join(first)
    await expect(hub.settled(first)).rejects.toThrow('database down')
    fail = false
    const second = newStream('u1')
    hub.join(second)
    await expect(hub.settled(second)).resolves.toBeUndefined()
    hub.close()
  })
})
