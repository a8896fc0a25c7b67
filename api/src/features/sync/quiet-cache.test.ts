import { describe, expect, test } from 'vitest'
import type { BusEvent, ChangeBus } from '../../lib/change-bus.ts'
import { createPokeClock } from '../../lib/poke-clock.ts'
import { createQuietCache } from './quiet-cache.ts'

const U = 'user-1'
const B1 = 'buble-1'
const B2 = 'buble-2'

function fakeBus() {
  const listeners = new Set<(event: BusEvent) => void>()
  const bus: ChangeBus = {
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    onRevoked: () => () => {},
    close: async () => {},
  }
  return {
    bus,
    emit: (event: BusEvent) => {
      for (const listener of listeners) listener(event)
    },
  }
}

function remembered() {
  const { bus, emit } = fakeBus()
  const cache = createQuietCache(createPokeClock(bus))
  cache.quiet(U, 'c1', [B1, B2], cache.begin())
  return { cache, emit }
}

describe('the quiet cache', () => {
  test('the same cursor again is quiet; another cursor or another user is asked of the database', () => {
    const { cache } = remembered()
    expect(cache.isQuiet(U, 'c1')).toBe(true)
    expect(cache.isQuiet(U, 'c2')).toBe(false)
    expect(cache.isQuiet('user-2', 'c1')).toBe(false)
  })

  test("a poke of one of the user's bubles, or of the user, forgets it; other bubles' pokes do not", () => {
    const { cache, emit } = remembered()
    emit({ buble_id: 'elsewhere', entity: 'buble' })
    emit({ buble_id: 'elsewhere', entity: 'buble', user_id: 'user-2' })
    expect(cache.isQuiet(U, 'c1')).toBe(true)
    emit({ buble_id: B2, entity: 'member' })
    expect(cache.isQuiet(U, 'c1')).toBe(false)

    const other = remembered()
    other.emit({ buble_id: 'joined', entity: 'buble', user_id: U })
    expect(other.cache.isQuiet(U, 'c1')).toBe(false)
  })

  test('a poke that arrives while the database is being asked still counts', () => {
    const { bus, emit } = fakeBus()
    const cache = createQuietCache(createPokeClock(bus))
    const since = cache.begin()
    emit({ buble_id: B1, entity: 'buble' })
    cache.quiet(U, 'c1', [B1], since)
    expect(cache.isQuiet(U, 'c1')).toBe(false)
  })

  test('nothing is trusted while the listening connection is down, nor what was remembered before', () => {
    const { cache, emit } = remembered()
    emit({ lost: true })
    expect(cache.isQuiet(U, 'c1')).toBe(false)
    cache.quiet(U, 'c1', [B1], cache.begin())
    expect(cache.isQuiet(U, 'c1')).toBe(false)
    emit({ resync: true })
    expect(cache.isQuiet(U, 'c1')).toBe(false)
    cache.quiet(U, 'c1', [B1], cache.begin())
    expect(cache.isQuiet(U, 'c1')).toBe(true)
  })
})
