import { describe, expect, test } from 'vitest'
import type { BusEvent, ChangeBus } from './change-bus.ts'
import { createPokeCache } from './poke-cache.ts'
import { createPokeClock } from './poke-clock.ts'

/** A poke clock fed by hand. */
function clock() {
  const listeners = new Set<(event: BusEvent) => void>()
  const bus: ChangeBus = {
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    onRevoked: () => () => {},
    close: async () => {},
  }
  const pokes = createPokeClock(bus)
  return {
    pokes,
    poke: (bubleId: string, userId?: string) => {
      for (const listener of listeners)
        listener({ buble_id: bubleId, entity: 'buble', ...(userId ? { user_id: userId } : {}) })
    },
  }
}

/** A load that resolves when told to. */
function deferred<V>() {
  let resolve!: (value: V) => void
  const promise = new Promise<V>((done) => {
    resolve = done
  })
  return { promise, resolve }
}

describe('the poke cache', () => {
  test('it never holds more than its entries or its bytes, oldest out first', () => {
    const { pokes } = clock()
    const cache = createPokeCache<string>(pokes, { maxEntries: 50, maxBytes: 1000, sizeOf: (value) => value.length })
    let most = { entries: 0, bytes: 0 }
    for (let i = 0; i < 5000; i++) {
      cache.set(`k${i}`, 'x'.repeat(i % 97), pokes.mark(), `b${i % 7}`)
      const { entries, bytes } = cache.size()
      most = { entries: Math.max(most.entries, entries), bytes: Math.max(most.bytes, bytes) }
    }
    expect(most.entries).toBeLessThanOrEqual(50)
    expect(most.bytes).toBeLessThanOrEqual(1000)
    expect(most.bytes).toBeGreaterThan(900)
    // The newest stayed, the oldest went.
    expect(cache.get('k4999')).toBe('x'.repeat(4999 % 97))
    expect(cache.get('k0')).toBeUndefined()
    // A value bigger than the whole bound is not kept at all, and pushes nothing out.
    const before = cache.size()
    cache.set('huge', 'y'.repeat(1001), pokes.mark(), 'b1')
    expect(cache.get('huge')).toBeUndefined()
    expect(cache.size()).toEqual(before)
    // Small values meet the count first.
    for (let i = 0; i < 500; i++) cache.set(`small${i}`, 's', pokes.mark(), 'b2')
    expect(cache.size()).toEqual({ entries: 50, bytes: 50 })
    cache.close()
  })

  test('a value read from several bubles is forgotten by a poke of any of them, or of its user', () => {
    const { pokes, poke } = clock()
    const cache = createPokeCache<string>(pokes, { maxEntries: 10 })
    cache.set('list:u1', 'a and b', pokes.mark(), ['a', 'b'], 'u1')
    cache.set('list:u2', 'c', pokes.mark(), ['c'], 'u2')
    poke('z')
    expect(cache.get('list:u1')).toBe('a and b')
    poke('b')
    expect(cache.get('list:u1')).toBeUndefined()
    expect(cache.get('list:u2')).toBe('c')
    cache.set('list:u1', 'a and b', pokes.mark(), ['a', 'b'], 'u1')
    // u1 joined or left another buble: their own list changed.
    poke('d', 'u1')
    expect(cache.get('list:u1')).toBeUndefined()
    expect(cache.get('list:u2')).toBe('c')
    cache.close()
  })

  test('the bubles of a value can come from the value read', async () => {
    const { pokes, poke } = clock()
    const cache = createPokeCache<{ ids: string[] }>(pokes, { maxEntries: 10 })
    const read = await cache.getOrLoad(
      'list:u1',
      (value) => value.ids,
      'u1',
      async () => ({ ids: ['a', 'b'] }),
    )
    expect(cache.get('list:u1')).toBe(read)
    poke('a')
    expect(cache.get('list:u1')).toBeUndefined()
    cache.close()
  })

  test('callers at once share a read; one who comes after a poke of what it reads starts their own', async () => {
    const { pokes, poke } = clock()
    const cache = createPokeCache<string>(pokes, { maxEntries: 10 })
    const first = deferred<string>()
    let loads = 0
    const load = (answer: Promise<string>) => () => {
      loads += 1
      return answer
    }
    const a = cache.getOrLoad('k', 'b1', undefined, load(first.promise))
    const b = cache.getOrLoad('k', 'b1', undefined, load(Promise.resolve('unused')))
    expect(loads).toBe(1)
    // A rename commits while the read is under way: its writer reads the buble back.
    poke('b1')
    const second = deferred<string>()
    const c = cache.getOrLoad('k', 'b1', undefined, load(second.promise))
    expect(loads).toBe(2)
    first.resolve('old name')
    second.resolve('new name')
    expect(await a).toBe('old name')
    expect(await b).toBe('old name')
    expect(await c).toBe('new name')
    // The first read ended after the poke: only the second is kept.
    expect(cache.get('k')).toBe('new name')
    // A poke elsewhere does not stop sharing.
    const third = deferred<string>()
    poke('b1')
    const d = cache.getOrLoad('k', 'b1', undefined, load(third.promise))
    poke('other')
    const e = cache.getOrLoad('k', 'b1', undefined, load(Promise.resolve('unused')))
    expect(loads).toBe(3)
    third.resolve('newest')
    expect([await d, await e]).toEqual(['newest', 'newest'])
    cache.close()
  })

  test('a failed read is answered to its callers and not kept', async () => {
    const { pokes } = clock()
    const cache = createPokeCache<string>(pokes, { maxEntries: 10 })
    await expect(cache.getOrLoad('k', 'b1', undefined, () => Promise.reject(new Error('404')))).rejects.toThrow('404')
    expect(await cache.getOrLoad('k', 'b1', undefined, async () => 'found')).toBe('found')
    cache.close()
  })
})
