import { describe, expect, test } from 'vitest'
import { eventHeat, HOT_MIN_ANSWERS, isPastEventTime, type RsvpStatus, rankEvents } from './events.ts'

const event = (id: string, time: string, statuses: RsvpStatus[]) => ({
  id,
  event_time: time,
  rsvps: statuses.map((status) => ({ status })),
})

describe('Hot needs more than one answer', () => {
  test('one Going alone, the best of its buble, reads Popular, not Hot', () => {
    const [only] = rankEvents([event('a', '2026-12-01T18:00:00.000Z', ['going'])])
    expect(only).toMatchObject({ going: 1, heat: 'Popular' })
  })

  test(`${HOT_MIN_ANSWERS} answers at the top read Hot; the spec's thresholds stay`, () => {
    const ranked = rankEvents([
      event('a', '2026-12-01T18:00:00.000Z', ['going', 'maybe']),
      event('b', '2026-12-02T18:00:00.000Z', ['going']),
      event('c', '2026-12-03T18:00:00.000Z', ['maybe', 'cant_go']),
    ])
    expect(ranked.map((entry) => [entry.event.id, entry.heat])).toEqual([
      ['a', 'Hot'],
      ['b', 'Popular'],
      ['c', 'Emerging'],
    ])
  })

  test("a Can't Go is not interest: it does not make an event Hot", () => {
    expect(eventHeat(1, 1, 1)).toBe('Popular')
    const [top] = rankEvents([event('a', '2026-12-01T18:00:00.000Z', ['going', 'cant_go', 'cant_go'])])
    expect(top?.heat).toBe('Popular')
  })
})

describe('past events', () => {
  const now = Date.parse('2026-11-28T12:00:00.000Z')
  test('a time before now is past; now and later are not', () => {
    expect(isPastEventTime('2026-11-28T11:59:00.000Z', now)).toBe(true)
    expect(isPastEventTime('2026-11-28T12:00:00.000Z', now)).toBe(false)
    expect(isPastEventTime('2026-11-28T13:00:00+01:00', now)).toBe(false)
    expect(isPastEventTime('2026-12-24T17:00:00.000Z', now)).toBe(false)
  })
})
