import { describe, expect, test } from 'vitest'
import {
  formatZonedEventTime,
  isoToStockholmLocal,
  isoToZonedLocal,
  relativeTime,
  stockholmLocalToIso,
  zonedLocalToIso,
} from './time.ts'

const NOW = Date.parse('2026-11-23T12:00:00.000Z')
const ago = (ms: number) => new Date(NOW - ms).toISOString()
const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

test.each([
  ['just now', 0, 'now'],
  ['59 seconds', 59 * SECOND, 'now'],
  ['a minute', MINUTE, '1m ago'],
  ['5 minutes 30 seconds', 5 * MINUTE + 30 * SECOND, '5m ago'],
  ['59 minutes', 59 * MINUTE + 59 * SECOND, '59m ago'],
  ['an hour', HOUR, '1h ago'],
  ['3 hours 59 minutes', 3 * HOUR + 59 * MINUTE, '3h ago'],
  ['23 hours', 23 * HOUR + 59 * MINUTE, '23h ago'],
  ['a day', DAY, '1d ago'],
  ['2 days 5 hours', 2 * DAY + 5 * HOUR, '2d ago'],
  ['6 days 23 hours', 6 * DAY + 23 * HOUR, '6d ago'],
])('%s ago reads %j', (_what, ms, text) => {
  expect(relativeTime(ago(ms), NOW)).toBe(text)
})

test('from 7 days on, the date in Stockholm, without the year when it is this year', () => {
  expect(relativeTime(ago(7 * DAY), NOW)).toBe('16 Nov')
  expect(relativeTime('2026-11-09T09:30:00.000Z', NOW)).toBe('9 Nov')
  expect(relativeTime('2026-01-02T08:00:00.000Z', new Date(NOW))).toBe('2 Jan')
})

test('the date is the Stockholm date, not the UTC one', () => {
  // 23:30 UTC on 13 Nov is 00:30 on 14 Nov in Stockholm (UTC+1 in winter); 22:30 UTC in summer is 00:30 (UTC+2).
  expect(relativeTime('2026-11-13T23:30:00.000Z', NOW)).toBe('14 Nov')
  expect(relativeTime('2026-07-01T22:30:00.000Z', NOW)).toBe('2 Jul')
})

test('another year carries its year', () => {
  expect(relativeTime('2025-11-14T10:00:00.000Z', NOW)).toBe('14 Nov 2025')
  // New Year's Eve in UTC is already the new year in Stockholm.
  expect(relativeTime('2025-12-31T23:30:00.000Z', NOW)).toBe('1 Jan')
})

test('a time ahead of now (a slow device clock) reads now, and a bad date reads nothing', () => {
  expect(relativeTime(new Date(NOW + 5 * MINUTE).toISOString(), NOW)).toBe('now')
  expect(relativeTime('not a date', NOW)).toBe('')
})

describe('Stockholm wall-clock times', () => {
  test.each([
    ['2026-12-24T18:00', '2026-12-24T17:00:00.000Z'],
    ['2026-07-01T12:30', '2026-07-01T10:30:00.000Z'],
    // The clocks skip 02:00–03:00 on 29 Mar 2026: 02:30 is taken as 03:30.
    ['2026-03-29T02:30', '2026-03-29T01:30:00.000Z'],
    // 02:30 comes twice on 25 Oct 2026: the earlier one.
    ['2026-10-25T02:30', '2026-10-25T00:30:00.000Z'],
  ])('%s in Stockholm is %s', (local, iso) => {
    expect(stockholmLocalToIso(local)).toBe(iso)
  })

  test('anything but a wall-clock time is null', () => {
    expect(stockholmLocalToIso('')).toBeNull()
    expect(stockholmLocalToIso('tomorrow')).toBeNull()
    expect(stockholmLocalToIso('2026-12-24')).toBeNull()
  })

  test('an instant reads back as the field value it came from', () => {
    expect(isoToStockholmLocal('2026-12-24T17:00:00.000Z')).toBe('2026-12-24T18:00')
    expect(isoToStockholmLocal('2026-07-01T10:30:00Z')).toBe('2026-07-01T12:30')
    expect(isoToStockholmLocal('nope')).toBe('')
  })
})

describe("the viewer's own time zone", () => {
  test('datetime-local values convert to and from UTC in any zone, across summer time', () => {
    expect(zonedLocalToIso('2026-11-29T19:00', 'America/New_York')).toBe('2026-11-30T00:00:00.000Z')
    expect(zonedLocalToIso('2026-07-01T19:00', 'America/New_York')).toBe('2026-07-01T23:00:00.000Z')
    expect(zonedLocalToIso('2026-11-29T19:00', 'Asia/Tokyo')).toBe('2026-11-29T10:00:00.000Z')
    expect(zonedLocalToIso('2026-11-29T19:00', 'UTC')).toBe('2026-11-29T19:00:00.000Z')
    expect(isoToZonedLocal('2026-11-30T00:00:00.000Z', 'America/New_York')).toBe('2026-11-29T19:00')
    expect(isoToZonedLocal('2026-11-29T10:00:00.000Z', 'Asia/Tokyo')).toBe('2026-11-29T19:00')
    // The hour New York skips (8 March 2026, 02:00 → 03:00) lands past the gap.
    expect(zonedLocalToIso('2026-03-08T02:30', 'America/New_York')).toBe('2026-03-08T07:30:00.000Z')
    expect(zonedLocalToIso('nope', 'UTC')).toBeNull()
  })

  test('event times name their zone, and the year only when it is not this one', () => {
    const now = Date.parse('2026-11-28T12:00:00.000Z')
    expect(formatZonedEventTime('2026-11-29T18:00:00.000Z', 'Europe/Stockholm', now)).toBe('Sun 29 Nov, 19:00 CET')
    expect(formatZonedEventTime('2026-07-01T18:00:00.000Z', 'Europe/Stockholm', now)).toBe('Wed 1 Jul, 20:00 CEST')
    expect(formatZonedEventTime('2026-11-29T18:00:00.000Z', 'America/New_York', now)).toBe('Sun 29 Nov, 13:00 EST')
    expect(formatZonedEventTime('2027-01-02T09:00:00.000Z', 'Asia/Tokyo', now)).toBe('Sat 2 Jan 2027, 18:00 GMT+9')
    expect(formatZonedEventTime('2026-11-29T18:00:00.000Z', 'UTC', now)).toBe('Sun 29 Nov, 18:00 UTC')
    expect(formatZonedEventTime('bad', 'UTC', now)).toBe('')
  })
})
