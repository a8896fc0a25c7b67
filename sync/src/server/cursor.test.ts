import { describe, expect, test } from 'vitest'
import {
  advanceCursor,
  type CursorState,
  decodeCursor,
  encodeCursor,
  freshCursor,
  isUsable,
  lowerBound,
  type MemberBuble,
  settle,
} from './cursor.ts'

const buble = (id: string, joinedVersion: number, changedVersion = joinedVersion): MemberBuble => ({
  id,
  joinedVersion,
  changedVersion,
})
const at = (
  version: number,
  backfill: { lower: number; upTo: number } = { lower: version, upTo: version },
): CursorState => ({
  epoch: 'e',
  version,
  ...backfill,
  horizon: 0,
})

describe('cursor encoding', () => {
  test('a cursor survives the round trip, with and without a backfill under way', () => {
    const states: CursorState[] = [
      { epoch: 'e1', version: 42, lower: 42, upTo: 42, horizon: 0 },
      { epoch: 'e1', version: 42, lower: 7, upTo: 90, horizon: 30 },
    ]
    for (const state of states) expect(decodeCursor(encodeCursor(state))).toEqual(state)
  })

  test('the encoding is URL-safe and stays small whatever the number of bubles', () => {
    const cursor = encodeCursor({
      epoch: '0192b3c4-d5e6-7f80-9123-456789abcdef',
      version: 9e12,
      lower: 8e12,
      upTo: 9.5e12,
      horizon: 3e12,
    })
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(cursor.length).toBeLessThan(200)
  })

  test.each([
    ['not base64 JSON', 'not a cursor!'],
    ['JSON of the wrong shape', Buffer.from('{"v":"x"}').toString('base64url')],
    ['a negative version', Buffer.from('{"e":"e","v":-1}').toString('base64url')],
    ['a backfill ahead of the version', Buffer.from('{"e":"e","v":5,"l":9,"k":20}').toString('base64url')],
    ['empty', ''],
  ])('%s is not ours', (_what, raw) => {
    expect(decodeCursor(raw)).toBeNull()
  })
})

describe('lower bounds', () => {
  test('a buble joined by the cursor is read from it; one joined since, from the start', () => {
    const cursor = at(100)
    expect(lowerBound(cursor, buble('a', 50))).toBe(100)
    expect(lowerBound(cursor, buble('a', 100))).toBe(100)
    expect(lowerBound(cursor, buble('a', 101))).toBe(0)
  })

  test('a buble being backfilled is read from where the backfill stands', () => {
    const cursor = at(100, { lower: 30, upTo: 150 })
    expect(lowerBound(cursor, buble('b', 150))).toBe(30)
    expect(lowerBound(cursor, buble('a', 90))).toBe(100)
  })

  test('a buble joined beyond the backfill restarts it from the start, with every backfilling buble', () => {
    const settled = settle(at(100, { lower: 30, upTo: 150 }), [buble('a', 90), buble('b', 150), buble('c', 170)])
    expect(settled).toMatchObject({ version: 100, lower: 0, upTo: 170 })
    expect(lowerBound(settled, buble('b', 150))).toBe(0)
    expect(lowerBound(settled, buble('c', 170))).toBe(0)
    expect(lowerBound(settled, buble('a', 90))).toBe(100)
  })

  test('a fresh device reads every buble from the start', () => {
    const settled = settle(freshCursor('e'), [buble('a', 5), buble('b', 9)])
    expect(lowerBound(settled, buble('a', 5))).toBe(0)
    expect(lowerBound(settled, buble('b', 9))).toBe(0)
  })
})

describe('advancing', () => {
  test('a complete answer moves everything to the version reached', () => {
    expect(advanceCursor(at(10, { lower: 3, upTo: 20 }), 40, false, 0)).toEqual(at(40))
  })

  test('a partial page of a backfill moves the backfill, not the cursor', () => {
    // The device is at 100; it joined B at 150 and the page delivered B's rows up to 60.
    const next = advanceCursor(at(100, { lower: 0, upTo: 150 }), 60, true, 0)
    expect(next).toEqual(at(100, { lower: 60, upTo: 150 }))
    expect(lowerBound(next, buble('b', 150))).toBe(60)
    expect(lowerBound(next, buble('a', 5))).toBe(100)
  })

  test('a backfill that passes the cursor carries both along, and the buble is not read from the start again', () => {
    const next = advanceCursor(at(100, { lower: 60, upTo: 150 }), 120, true, 0)
    expect(next).toEqual(at(120, { lower: 120, upTo: 150 }))
    expect(lowerBound(next, buble('b', 150))).toBe(120)
  })

  test('a fresh device paging through many bubles keeps a cursor of fixed size', () => {
    const bubles = Array.from({ length: 500 }, (_, i) => buble(`b${i}`, 10 + i * 3))
    let cursor = settle(freshCursor('e'), bubles)
    for (const reached of [200, 900, 1400]) cursor = advanceCursor(cursor, reached, true, 0)
    expect(cursor).toEqual(at(1400, { lower: 1400, upTo: 1507 }))
    expect(bubles.every((b) => lowerBound(cursor, b) === 1400)).toBe(true)
    expect(encodeCursor(cursor).length).toBeLessThan(100)
  })

  test('the new cursor carries the horizon it was issued under', () => {
    expect(advanceCursor(at(10), 20, false, 7).horizon).toBe(7)
  })
})

describe('which cursors are ours', () => {
  const state = { epoch: 'e', maxVersion: 1000, settled: 1000, horizon: 0 }
  test('one of this epoch, not from its future', () => {
    expect(isUsable(at(500), state)).toBe(true)
    expect(isUsable({ ...at(500), epoch: 'other' }, state)).toBe(false)
    expect(isUsable(at(1001), state)).toBe(false)
  })

  test('a purge since the cursor was issued makes it unusable only if it had not passed the purged versions', () => {
    const purged = { ...state, horizon: 300 }
    expect(isUsable(at(200), purged)).toBe(false)
    expect(isUsable(at(300), purged)).toBe(true)
    expect(isUsable(at(500, { lower: 100, upTo: 600 }), purged)).toBe(false)
    // A backfill from zero needs no tombstones.
    expect(isUsable(at(500, { lower: 0, upTo: 600 }), purged)).toBe(true)
    // Issued after the purge: it never needed the purged tombstones, even if still below the horizon.
    expect(isUsable({ ...at(200), horizon: 300 }, purged)).toBe(true)
  })
})
