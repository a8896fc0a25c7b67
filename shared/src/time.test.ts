import { expect, test } from 'vitest'
import { relativeTime } from './time.ts'

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
