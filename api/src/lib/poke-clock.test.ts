import { describe, expect, test } from 'vitest'
import type { BusEvent, ChangeBus } from './change-bus.ts'
import { createPokeClock } from './poke-clock.ts'

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

describe('the poke clock', () => {
  test('a buble poked after a mark has changed since it; other bubles have not', () => {
    const { bus, emit } = fakeBus()
    const clock = createPokeClock(bus)
    const mark = clock.mark()
    expect(clock.pokedSince(mark, ['a', 'b'])).toBe(false)
    emit({ buble_id: 'a', entity: 'member' })
    expect(clock.pokedSince(mark, ['a'])).toBe(true)
    expect(clock.pokedSince(mark, ['b'])).toBe(false)
    expect(clock.pokedSince(clock.mark(), ['a'])).toBe(false)
    clock.close()
  })

  test("a user's own poke counts for that user, and for the buble it names", () => {
    const { bus, emit } = fakeBus()
    const clock = createPokeClock(bus)
    const mark = clock.mark()
    emit({ buble_id: 'a', entity: 'buble', user_id: 'u1' })
    expect(clock.pokedSince(mark, [], 'u1')).toBe(true)
    expect(clock.pokedSince(mark, [], 'u2')).toBe(false)
    expect(clock.pokedSince(mark, ['a'], 'u2')).toBe(true)
    clock.close()
  })

  test('while the listening connection is down everything counts as changed; back, caches forget', () => {
    const { bus, emit } = fakeBus()
    const clock = createPokeClock(bus)
    let forgotten = 0
    clock.onForget(() => {
      forgotten += 1
    })
    emit({ lost: true })
    expect(clock.listening()).toBe(false)
    expect(clock.pokedSince(clock.mark(), [])).toBe(true)
    emit({ resync: true })
    expect(clock.listening()).toBe(true)
    expect(clock.pokedSince(clock.mark(), [])).toBe(false)
    expect(forgotten).toBe(2)
    clock.close()
  })
})
