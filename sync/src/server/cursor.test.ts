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
} from './cursor.ts'

const A = '0192b3c4-d5e6-7f80-9123-00000000000a'
const B = '0192b3c4-d5e6-7f80-9123-00000000000b'
const buble = (id: string, joinedVersion: number, changedVersion = joinedVersion): MemberBuble => ({
  id,
  joinedVersion,
  changedVersion,
})

const at = (version: number, lower: Record<string, number> = {}): CursorState => ({
  epoch: 'e',
  version,
  lower,
  horizon: 0,
})

describe('cursor encoding', () => {
  test('a cursor survives the round trip, with and without per-buble bounds', () => {
    const states: CursorState[] = [
      { epoch: 'e1', version: 42, lower: {}, horizon: 0 },
      { epoch: 'e1', version: 42, lower: { [A]: 7 }, horizon: 30 },
    ]
    for (const state of states) {
      expect(decodeCursor(encodeCursor(state))).toEqual(state)
    }
  })

  test('the encoding is URL-safe', () => {
    expect(encodeCursor({ epoch: 'épöch?&/', version: 9, lower: { [A]: 1 }, horizon: 3 })).toMatch(/^[A-Za-z0-9_-]+$/)
  })

  test.each([
    ['not base64 JSON', 'not a cursor!'],
    ['JSON of the wrong shape', Buffer.from('{"v":"x"}').toString('base64url')],
    ['a negative version', Buffer.from('{"e":"e","v":-1}').toString('base64url')],
    [
      'a bound keyed by something else than a buble id',
      Buffer.from('{"e":"e","v":1,"b":{"x":1}}').toString('base64url'),
    ],
    ['empty', ''],
  ])('%s is not ours', (_what, raw) => {
    expect(decodeCursor(raw)).toBeNull()
  })
})

describe('lower bounds', () => {
  test('a buble joined before the cursor is read from the cursor; one joined after, from the start', () => {
    const cursor = { epoch: 'e', version: 100, lower: {}, horizon: 0 }
    expect(lowerBound(cursor, buble(A, 50))).toBe(100)
    expect(lowerBound(cursor, buble(A, 100))).toBe(100)
    expect(lowerBound(cursor, buble(A, 101))).toBe(0)
  })

  test('a buble still being caught up on is read from its own bound', () => {
    expect(lowerBound({ epoch: 'e', version: 100, lower: { [A]: 30 }, horizon: 0 }, buble(A, 150))).toBe(30)
  })
})

describe('advancing', () => {
  test('a complete answer moves every buble to the version reached and lists none', () => {
    const next = advanceCursor(at(10, { [B]: 3 }), [buble(A, 5), buble(B, 20)], 40, false, 0)
    expect(next).toEqual(at(40))
  })

  test('a partial page of a backfill keeps the newly joined buble listed at the page end', () => {
    // The device is at 100; it joined B at 150 and the page delivered B's rows up to 60.
    const next = advanceCursor(at(100), [buble(A, 5), buble(B, 150)], 60, true, 0)
    expect(next).toEqual(at(100, { [B]: 60 }))
    // The next page starts there, and older bubles stay at the cursor.
    expect(lowerBound(next, buble(B, 150))).toBe(60)
    expect(lowerBound(next, buble(A, 5))).toBe(100)
  })

  test('a backfill that passes the cursor but not the join still lists the buble', () => {
    const next = advanceCursor(at(100, { [B]: 60 }), [buble(B, 150)], 120, true, 0)
    expect(next).toEqual(at(120, { [B]: 120 }))
    expect(lowerBound(next, buble(B, 150))).toBe(120)
  })

  test('bubles the caller left drop out of the bounds', () => {
    const next = advanceCursor(at(100, { [B]: 60 }), [buble(A, 5)], 80, true, 0)
    expect(next.lower).toEqual({})
  })

  test('a fresh device starts at version 0 with no bounds', () => {
    expect(freshCursor('e')).toEqual(at(0))
  })

  test('the new cursor carries the horizon it was issued under', () => {
    expect(advanceCursor(at(10), [], 20, false, 7).horizon).toBe(7)
  })
})

describe('which cursors are ours', () => {
  const state = { epoch: 'e', maxVersion: 1000, horizon: 0 }
  test('one of this epoch, not from its future', () => {
    expect(isUsable(at(500), state)).toBe(true)
    expect(isUsable({ ...at(500), epoch: 'other' }, state)).toBe(false)
    expect(isUsable(at(1001), state)).toBe(false)
  })

  test('a purge since the cursor was issued makes it unusable only if it had not passed the purged versions', () => {
    const purged = { ...state, horizon: 300 }
    expect(isUsable(at(200), purged)).toBe(false)
    expect(isUsable(at(300), purged)).toBe(true)
    expect(isUsable(at(500, { [B]: 100 }), purged)).toBe(false)
    // A backfill from zero needs no tombstones, so a bound of 0 is fine.
    expect(isUsable(at(500, { [B]: 0 }), purged)).toBe(true)
    // Issued after the purge: it never needed the purged tombstones, even if still below the horizon.
    expect(isUsable({ ...at(200), horizon: 300 }, purged)).toBe(true)
  })
})
