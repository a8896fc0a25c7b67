import { describe, expect, test } from 'vitest'
import {
  choiceOfRule,
  isOccurrence,
  occurrences,
  RecurrenceRule,
  recurrenceLabel,
  ruleFromChoice,
  seriesProblem,
  shownOccurrence,
  splitSeries,
} from './recurrence.ts'

// Tuesday 13 October 2026, 18:00 in Stockholm (CEST, UTC+2); the clocks go back on 25 October
// and forward on 28 March 2027.
const START = '2026-10-13T16:00:00.000Z'
const at = (iso: string) => Date.parse(iso)

describe('recurrence rules', () => {
  test('weekly keeps 18:00 on Stockholm’s clock across both changes of time', () => {
    const rule = ruleFromChoice('weekly', START, { count: 4 }) as string
    expect(rule).toBe('FREQ=WEEKLY;COUNT=4')
    expect(occurrences({ event_time: START, recurrence: rule })).toEqual([
      '2026-10-13T16:00:00.000Z',
      '2026-10-20T16:00:00.000Z',
      '2026-10-27T17:00:00.000Z',
      '2026-11-03T17:00:00.000Z',
    ])
    const spring = '2027-03-23T17:00:00.000Z' // Tuesday 18:00 CET
    expect(occurrences({ event_time: spring, recurrence: 'FREQ=WEEKLY;COUNT=2' })).toEqual([
      spring,
      '2027-03-30T16:00:00.000Z',
    ])
  })

  test('every two weeks, until a date (the whole of that day in Stockholm)', () => {
    const rule = ruleFromChoice('biweekly', START, { until: '2026-11-10' }) as string
    expect(rule).toBe('FREQ=WEEKLY;INTERVAL=2;UNTIL=20261110T225959Z')
    expect(occurrences({ event_time: START, recurrence: rule })).toEqual([
      START,
      '2026-10-27T17:00:00.000Z',
      '2026-11-10T17:00:00.000Z',
    ])
    expect(recurrenceLabel(rule, START)).toBe('Repeats every 2 weeks until 10 Nov 2026')
  })

  test('monthly by weekday: the second Tuesday; and the last Friday of a month with five', () => {
    const rule = ruleFromChoice('monthly_weekday', START, { count: 3 }) as string
    expect(rule).toBe('FREQ=MONTHLY;BYDAY=+2TU;COUNT=3')
    expect(occurrences({ event_time: START, recurrence: rule })).toEqual([
      START,
      '2026-11-10T17:00:00.000Z',
      '2026-12-08T17:00:00.000Z',
    ])
    expect(recurrenceLabel(rule, START)).toBe('Repeats monthly on the second Tuesday, 3 times')
    const lastFriday = '2026-10-30T17:00:00.000Z'
    const last = ruleFromChoice('monthly_weekday', lastFriday, { count: 2 }) as string
    expect(last).toBe('FREQ=MONTHLY;BYDAY=-1FR;COUNT=2')
    expect(occurrences({ event_time: lastFriday, recurrence: last })).toEqual([lastFriday, '2026-11-27T17:00:00.000Z'])
  })

  test('monthly by day of the month', () => {
    const rule = ruleFromChoice('monthly_day', START, { count: 3 }) as string
    expect(rule).toBe('FREQ=MONTHLY;COUNT=3')
    expect(occurrences({ event_time: START, recurrence: rule })).toEqual([
      START,
      '2026-11-13T17:00:00.000Z',
      '2026-12-13T17:00:00.000Z',
    ])
    expect(recurrenceLabel(rule, START)).toBe('Repeats monthly on day 13, 3 times')
    expect(choiceOfRule(rule)).toEqual({ choice: 'monthly_day', until: null, count: 3 })
  })

  test('the next occurrence: the first still to start, skipping taken-out ones; the last once all have passed', () => {
    const series = { event_time: START, recurrence: 'FREQ=WEEKLY;COUNT=4', exdates: ['2026-10-20T16:00:00.000Z'] }
    expect(shownOccurrence(series, at('2026-10-01T00:00:00Z'))).toBe(START)
    expect(shownOccurrence(series, at('2026-10-14T00:00:00Z'))).toBe('2026-10-27T17:00:00.000Z')
    expect(shownOccurrence(series, at('2027-01-01T00:00:00Z'))).toBe('2026-11-03T17:00:00.000Z')
    expect(shownOccurrence({ event_time: START, recurrence: null }, at('2027-01-01T00:00:00Z'))).toBe(START)
    expect(isOccurrence(series, '2026-10-20T16:00:00Z')).toBe(false)
    expect(isOccurrence(series, '2026-10-27T18:00:00+01:00')).toBe(true)
  })

  test('a window [from, to) of a series: each bound exact at an occurrence, across the change of time', () => {
    const weekly = { event_time: START, recurrence: 'FREQ=WEEKLY;COUNT=100' }
    const all = occurrences(weekly)
    // Each start's own instant bounds it exactly (a floating 18:00 is one or two hours ahead of it).
    for (const [from, to] of [
      ['2026-10-20T16:00:00.000Z', '2026-11-03T17:00:00.000Z'],
      ['2026-10-20T16:00:00.001Z', '2026-11-03T17:00:00.001Z'],
      ['2026-10-20T15:59:59.999Z', '2026-11-03T16:59:59.999Z'],
      ['2027-03-23T17:00:00.000Z', '2027-04-06T16:00:00.000Z'],
    ] as const)
      expect(occurrences(weekly, { from: at(from), to: at(to) }), `${from} ${to}`).toEqual(
        all.filter((iso) => at(iso) >= at(from) && at(iso) < at(to)),
      )
    expect(occurrences(weekly, { from: at('2026-10-20T16:00:00Z'), to: at('2026-11-03T17:00:00Z') })).toEqual([
      '2026-10-20T16:00:00.000Z',
      '2026-10-27T17:00:00.000Z',
    ])
    expect(occurrences({ event_time: START, recurrence: null }, { from: at(START), to: at(START) })).toEqual([])
    expect(occurrences({ event_time: START, recurrence: null }, { from: at(START), to: at(START) + 1 })).toEqual([
      START,
    ])
  })

  test('a weekly series of the longest end allowed (2 years) is expanded to its last occurrence', () => {
    const series = { event_time: START, recurrence: 'FREQ=WEEKLY;UNTIL=20281013T160000Z' }
    const all = occurrences(series)
    expect(all).toHaveLength(105)
    expect(all.at(-1)).toBe('2028-10-10T16:00:00.000Z')
    expect(isOccurrence(series, '2028-10-10T16:00:00.000Z')).toBe(true)
  })

  test('count and until bound the series', () => {
    expect(occurrences({ event_time: START, recurrence: 'FREQ=WEEKLY;COUNT=2' })).toHaveLength(2)
    expect(occurrences({ event_time: START, recurrence: 'FREQ=WEEKLY;UNTIL=20261027T170000Z' })).toHaveLength(3)
    expect(occurrences({ event_time: START, recurrence: 'FREQ=WEEKLY;UNTIL=20261027T165959Z' })).toHaveLength(2)
  })

  test.each([
    ['FREQ=WEEKLY;COUNT=2', 'FREQ=WEEKLY;COUNT=2'],
    ['rrule:interval=2;freq=weekly;count=5', 'FREQ=WEEKLY;INTERVAL=2;COUNT=5'],
    ['FREQ=MONTHLY;BYMONTHDAY=13;COUNT=2', 'FREQ=MONTHLY;BYMONTHDAY=13;COUNT=2'],
  ])('%s is read as %s', (input, normal) => {
    expect(RecurrenceRule.parse(input)).toBe(normal)
  })

  test.each([
    ['FREQ=DAILY;COUNT=2', 'An event can repeat weekly, every two weeks or monthly'],
    ['FREQ=MONTHLY;INTERVAL=2;COUNT=2', 'An event can repeat weekly, every two weeks or monthly'],
    ['FREQ=WEEKLY;BYHOUR=9;COUNT=2', 'An event can repeat weekly, every two weeks or monthly'],
    ['FREQ=WEEKLY;BYDAY=MO,TU;COUNT=2', 'An event can repeat weekly, every two weeks or monthly'],
    ['FREQ=MONTHLY;BYDAY=TU;COUNT=2', 'A monthly event repeats on one day of the month or on one weekday of the month'],
    ['FREQ=WEEKLY;COUNT=1', 'An event can repeat 2 to 100 times'],
    ['FREQ=WEEKLY', 'Choose when the event stops repeating: a date or a number of times'],
    ['FREQ=WEEKLY;COUNT=x', 'recurrence must be an RRULE such as FREQ=WEEKLY;COUNT=10'],
  ])('%s is refused: %s', (input, message) => {
    expect(RecurrenceRule.safeParse(input).error?.issues[0]?.message).toBe(message)
  })

  test('blank and null are an event that does not repeat', () => {
    expect(RecurrenceRule.parse('')).toBeNull()
    expect(RecurrenceRule.parse(null)).toBeNull()
    expect(RecurrenceRule.parse(undefined)).toBeNull()
  })

  test('a rule must start on the event’s own time and end within two years', () => {
    expect(seriesProblem(START, 'FREQ=MONTHLY;BYDAY=+2TU;COUNT=3')).toBeNull()
    expect(seriesProblem(START, 'FREQ=MONTHLY;BYDAY=+3TU;COUNT=3')).toBe(
      "The event's date and time must be the first time it repeats",
    )
    expect(seriesProblem(START, 'FREQ=WEEKLY;UNTIL=20281013T160000Z')).toBeNull()
    expect(seriesProblem(START, 'FREQ=WEEKLY;UNTIL=20281015T160000Z')).toBe('An event can repeat for at most 2 years')
    expect(seriesProblem(START, 'FREQ=WEEKLY;UNTIL=20261013T160000Z')).toBe(
      'The end date must come after the first event',
    )
  })

  test('splitting a series: the old one ends the second before, the new one keeps what is left of the count', () => {
    const series = { event_time: START, recurrence: 'FREQ=WEEKLY;COUNT=4' }
    expect(splitSeries(series, '2026-10-27T17:00:00.000Z', '2026-10-27T17:00:00.000Z')).toEqual({
      before: 'FREQ=WEEKLY;UNTIL=20261027T165959Z',
      after: 'FREQ=WEEKLY;COUNT=2',
    })
    // One time left is a single event.
    expect(splitSeries(series, '2026-11-03T17:00:00.000Z', '2026-11-03T17:00:00.000Z').after).toBeNull()
    // A monthly weekday rule follows its new start's weekday of the month.
    const monthly = { event_time: START, recurrence: 'FREQ=MONTHLY;BYDAY=+2TU;UNTIL=20270331T215959Z' }
    expect(splitSeries(monthly, '2026-12-08T17:00:00.000Z', '2026-12-15T17:00:00.000Z').after).toBe(
      'FREQ=MONTHLY;BYDAY=+3TU;UNTIL=20270331T215959Z',
    )
  })
})
