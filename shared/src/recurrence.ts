/**
 * Recurring events (issue 23 §3): an event repeats weekly, every two weeks, or monthly (on a day of
 * the month, or on a weekday such as the second Tuesday), until a date or for a number of times.
 * The rule is stored as an RFC 5545 RRULE value without its DTSTART (the event's own time is it)
 * and with UNTIL in UTC. The `rrule` library expands it; this module only decides which rules are
 * allowed and expands them on Stockholm's wall clock, so an event at 18:00 stays at 18:00 across a
 * change of summer time (docs/decisions/0097).
 */

import * as rruleModule from 'rrule'
import { z } from 'zod'
import { isoToStockholmLocal, stockholmLocalToIso } from './time.ts'

// rrule ships a CommonJS build for Node (named exports hidden behind `default`) and an ES module
// build for bundlers (named exports only): take whichever this runtime gave.
const { RRule, Weekday } =
  'RRule' in rruleModule ? rruleModule : (rruleModule as { default: typeof rruleModule }).default

/** The most occurrences any allowed rule has: weekly for 2 years (COUNT stops at 100). */
const MAX_OCCURRENCES = 53 * 2 + 1

/** At most this many occurrences in a series; an UNTIL at most this far after the first. */
export const RECURRENCE_LIMITS = { maxCount: 100, minCount: 2, maxYears: 2 } as const

export const RECURRENCE_MESSAGES = {
  invalid: 'recurrence must be an RRULE such as FREQ=WEEKLY;COUNT=10',
  frequency: 'An event can repeat weekly, every two weeks or monthly',
  monthlyDay: 'A monthly event repeats on one day of the month or on one weekday of the month',
  end: 'Choose when the event stops repeating: a date or a number of times',
  endBoth: 'Choose either an end date or a number of times, not both',
  count: `An event can repeat ${RECURRENCE_LIMITS.minCount} to ${RECURRENCE_LIMITS.maxCount} times`,
  untilTooFar: `An event can repeat for at most ${RECURRENCE_LIMITS.maxYears} years`,
  untilBeforeStart: 'The end date must come after the first event',
  notFirst: "The event's date and time must be the first time it repeats",
  occurrenceRequired: 'occurrence is required for a repeating event: the start of the one meant',
  occurrenceNotAllowed: 'occurrence is only for repeating events',
  occurrenceNotFound: 'The event does not take place at that time',
  scopeNeedsOccurrence: 'occurrence and new_id are required to change one event of a series or the ones after it',
  scopeNotRecurring: 'Only a repeating event has single events to change',
  exceptionRepeats: 'A single event changed apart from its series cannot repeat',
} as const

const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const
const ORDINALS: Record<number, string> = { 1: 'first', 2: 'second', 3: 'third', 4: 'fourth', [-1]: 'last' }
const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']

/** What a rule says, as the app understands it. */
export interface Recurrence {
  freq: 'weekly' | 'monthly'
  /** 1, or 2 for every two weeks. */
  interval: 1 | 2
  /** Monthly on a weekday: which one (1–4, -1 for the last) and the weekday (0 Monday … 6 Sunday). */
  weekday: { n: number; day: number } | null
  /** Monthly on a day of the month (1–31); null: the first event's day. */
  monthDay: number | null
  count: number | null
  /** An instant in UTC (ISO). */
  until: string | null
}

type Problem = { message: string } | { value: Recurrence }

/** The rule read and checked (the first event's time aside); a problem's message is shown as it is. */
export function readRecurrence(rule: string): Problem {
  const text = rule.trim().replace(/^RRULE:/i, '')
  if (!/^[A-Z0-9=;,+-]+$/i.test(text) || text.length > 200) return { message: RECURRENCE_MESSAGES.invalid }
  let options: ReturnType<typeof RRule.parseString>
  try {
    options = RRule.parseString(text)
  } catch {
    return { message: RECURRENCE_MESSAGES.invalid }
  }
  const numbers = [options.count, options.interval, options.bymonthday].flat()
  if (numbers.some((n) => n !== undefined && n !== null && !Number.isInteger(n)))
    return { message: RECURRENCE_MESSAGES.invalid }
  if (options.until !== undefined && options.until !== null && Number.isNaN(options.until.getTime()))
    return { message: RECURRENCE_MESSAGES.invalid }
  const keys = new Set(text.split(';').map((part) => part.split('=')[0]?.toUpperCase()))
  const allowed = new Set(['FREQ', 'INTERVAL', 'COUNT', 'UNTIL', 'BYDAY', 'BYMONTHDAY'])
  if (![...keys].every((key) => key && allowed.has(key))) return { message: RECURRENCE_MESSAGES.frequency }
  const interval = options.interval ?? 1
  let freq: Recurrence['freq']
  if (options.freq === RRule.WEEKLY && (interval === 1 || interval === 2)) freq = 'weekly'
  else if (options.freq === RRule.MONTHLY && interval === 1) freq = 'monthly'
  else return { message: RECURRENCE_MESSAGES.frequency }

  const days =
    options.byweekday == null ? [] : Array.isArray(options.byweekday) ? options.byweekday : [options.byweekday]
  const monthDays =
    options.bymonthday == null ? [] : Array.isArray(options.bymonthday) ? options.bymonthday : [options.bymonthday]
  let weekday: Recurrence['weekday'] = null
  let monthDay: number | null = null
  if (freq === 'weekly' && (days.length > 0 || monthDays.length > 0)) return { message: RECURRENCE_MESSAGES.frequency }
  if (freq === 'monthly') {
    if (days.length + monthDays.length > 1) return { message: RECURRENCE_MESSAGES.monthlyDay }
    const day = days[0]
    if (day !== undefined) {
      const found = typeof day === 'number' ? { weekday: day, n: undefined } : (day as { weekday: number; n?: number })
      if (found.n === undefined || !(found.n in ORDINALS)) return { message: RECURRENCE_MESSAGES.monthlyDay }
      weekday = { n: found.n, day: found.weekday }
    }
    const dayOfMonth = monthDays[0]
    if (dayOfMonth !== undefined) {
      if (dayOfMonth < 1 || dayOfMonth > 31) return { message: RECURRENCE_MESSAGES.monthlyDay }
      monthDay = dayOfMonth
    }
  }

  const count = options.count ?? null
  const until = options.until ? options.until.toISOString() : null
  if (count === null && until === null) return { message: RECURRENCE_MESSAGES.end }
  if (count !== null && until !== null) return { message: RECURRENCE_MESSAGES.endBoth }
  if (count !== null && (count < RECURRENCE_LIMITS.minCount || count > RECURRENCE_LIMITS.maxCount))
    return { message: RECURRENCE_MESSAGES.count }
  return { value: { freq, interval: interval as 1 | 2, weekday, monthDay, count, until } }
}

/** A Recurrence as its RRULE value (the form's choices, and a split series' rules). */
export function recurrenceRule(r: Recurrence): string {
  const parts = [`FREQ=${r.freq === 'weekly' ? 'WEEKLY' : 'MONTHLY'}`]
  if (r.interval !== 1) parts.push(`INTERVAL=${r.interval}`)
  if (r.weekday) parts.push(`BYDAY=${r.weekday.n > 0 ? '+' : ''}${r.weekday.n}${WEEKDAYS[r.weekday.day]}`)
  if (r.monthDay !== null) parts.push(`BYMONTHDAY=${r.monthDay}`)
  if (r.count !== null) parts.push(`COUNT=${r.count}`)
  if (r.until !== null) parts.push(`UNTIL=${r.until.replace(/[-:]/g, '').replace(/\.\d+/, '')}`)
  return parts.join(';')
}

/**
 * The `recurrence` of an event body: an RRULE value, normalised (its parts in one order); null or
 * blank is an event that does not repeat.
 */
export const RecurrenceRule = z
  .string()
  .max(200, { error: RECURRENCE_MESSAGES.invalid })
  .nullish()
  .transform((value, ctx) => {
    if (value == null || value.trim() === '') return null
    const read = readRecurrence(value)
    if ('message' in read) {
      ctx.addIssue({ code: 'custom', message: read.message })
      return z.NEVER
    }
    return recurrenceRule(read.value)
  })

// Stockholm's wall clock as "floating" UTC dates: the library counts days and weeks on them, free
// of summer time, and each occurrence is then read back as a Stockholm time.
const toFloating = (iso: string): Date => {
  const ms = Date.parse(iso)
  return new Date(Date.parse(`${isoToStockholmLocal(iso)}:00Z`) + (((ms % 60_000) + 60_000) % 60_000))
}
const fromFloating = (date: Date): string => {
  const iso = stockholmLocalToIso(date.toISOString().slice(0, 19)) as string
  return new Date(Date.parse(iso) + date.getUTCMilliseconds()).toISOString()
}

/** The library's rule for a series starting at `start`. */
function expander(start: string, r: Recurrence) {
  const monthly = r.freq === 'monthly'
  return new RRule({
    freq: monthly ? RRule.MONTHLY : RRule.WEEKLY,
    interval: r.interval,
    dtstart: toFloating(start),
    count: r.count,
    until: r.until ? toFloating(r.until) : null,
    byweekday: r.weekday ? [new Weekday(r.weekday.day, r.weekday.n)] : null,
    bymonthday: r.monthDay,
  })
}

const ruleOf = (rule: string): Recurrence => {
  const read = readRecurrence(rule)
  if ('message' in read) throw new Error(read.message)
  return read.value
}

/** What an event needs to be expanded. */
export interface SeriesFields {
  event_time: string
  recurrence: string | null
  exdates?: readonly string[] | null
}

/**
 * How far a floating date (Stockholm's wall clock read as UTC) is ahead of the instant it names:
 * one or two hours, so never less than 0 nor more than this.
 */
const MAX_FLOATING_AHEAD_MS = 3 * 3_600_000

/**
 * The series' occurrence starts (ISO, UTC) from `from` on (every one when absent), before `to`
 * (when given), at most `limit`, without those taken out (exdates). An event that does not repeat
 * has its one time.
 */
export function occurrences(
  series: SeriesFields,
  { from, to, limit = MAX_OCCURRENCES } = {} as {
    from?: number
    to?: number
    limit?: number
  },
): string[] {
  const out: string[] = []
  if (series.recurrence === null) {
    const at = Date.parse(series.event_time)
    if ((from === undefined || at >= from) && (to === undefined || at < to))
      out.push(new Date(series.event_time).toISOString())
    return out
  }
  const skipped = new Set((series.exdates ?? []).map((date) => new Date(date).toISOString()))
  expander(series.event_time, ruleOf(series.recurrence)).all((date) => {
    // Reading a date back as a Stockholm time is the costly part: dates surely before `from` (a
    // floating date is never behind its instant) or after `to` are not read back.
    if (from !== undefined && date.getTime() < from) return true
    if (to !== undefined && date.getTime() >= to + MAX_FLOATING_AHEAD_MS) return false
    const iso = fromFloating(date)
    const at = Date.parse(iso)
    if (to !== undefined && at >= to) return false
    if ((from === undefined || at >= from) && !skipped.has(iso)) out.push(iso)
    return out.length < limit
  })
  return out
}

/** Whether `at` is a start of the series (taken-out ones are not). */
export const isOccurrence = (series: SeriesFields, at: string): boolean =>
  occurrences(series, { from: Date.parse(at), limit: 1 })[0] === new Date(at).toISOString()

/** Whether the rule's first time is the event's own time (RFC 5545 counts DTSTART as the first). */
export function startsTheSeries(eventTime: string, rule: string): boolean {
  const [first] = occurrences({ event_time: eventTime, recurrence: rule }, { limit: 1 })
  return first === new Date(eventTime).toISOString()
}

/** The problem with a rule for an event at `eventTime` (the first time, the end date), or null. */
export function seriesProblem(eventTime: string, rule: string | null): string | null {
  if (rule === null) return null
  const r = ruleOf(rule)
  if (r.until !== null) {
    if (Date.parse(r.until) <= Date.parse(eventTime)) return RECURRENCE_MESSAGES.untilBeforeStart
    const limit = new Date(eventTime)
    limit.setUTCFullYear(limit.getUTCFullYear() + RECURRENCE_LIMITS.maxYears)
    if (Date.parse(r.until) > limit.getTime() + 24 * 3600_000) return RECURRENCE_MESSAGES.untilTooFar
  }
  return startsTheSeries(eventTime, rule) ? null : RECURRENCE_MESSAGES.notFirst
}

/**
 * The occurrence the list shows: the first still to start at `now`, or, once all have started, the
 * last (then past). Null for a series whose every occurrence was taken out.
 */
export function shownOccurrence(series: SeriesFields, now: number): string | null {
  if (series.recurrence === null) return new Date(series.event_time).toISOString()
  const [next] = occurrences(series, { from: now, limit: 1 })
  if (next) return next
  return occurrences(series).at(-1) ?? null
}

/** 'Repeats weekly', 'Repeats every 2 weeks', 'Repeats monthly on the second Tuesday', …, with its end. */
export function recurrenceLabel(rule: string, firstTime: string): string {
  const r = ruleOf(rule)
  let label: string
  if (r.freq === 'weekly') label = r.interval === 2 ? 'Repeats every 2 weeks' : 'Repeats weekly'
  else if (r.weekday) label = `Repeats monthly on the ${ORDINALS[r.weekday.n]} ${WEEKDAY_NAMES[r.weekday.day]}`
  else label = `Repeats monthly on day ${r.monthDay ?? Number(isoToStockholmLocal(firstTime).slice(8, 10))}`
  if (r.count !== null) return `${label}, ${r.count} times`
  const until = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Stockholm',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  }).format(new Date(r.until as string))
  return `${label} until ${until}`
}

/** The form's repeat choices. */
export const REPEAT_CHOICES = ['none', 'weekly', 'biweekly', 'monthly_day', 'monthly_weekday'] as const
export type RepeatChoice = (typeof REPEAT_CHOICES)[number]

/** The weekday of the month of a Stockholm time: its number (1–4, or -1 in the last week of 5) and day. */
function weekdayOfMonth(iso: string): { n: number; day: number } {
  const local = isoToStockholmLocal(iso)
  const date = new Date(`${local.slice(0, 10)}T00:00:00Z`)
  const dayOfMonth = date.getUTCDate()
  const n = Math.ceil(dayOfMonth / 7)
  return { n: n > 4 ? -1 : n, day: (date.getUTCDay() + 6) % 7 }
}

/**
 * The RRULE a form's choices make for an event at `eventTime` (null for 'none'): `until` is a
 * Stockholm date ('2027-03-01', the whole of that day), else `count` times.
 */
export function ruleFromChoice(
  choice: RepeatChoice,
  eventTime: string,
  end: { until: string } | { count: number },
): string | null {
  if (choice === 'none') return null
  const until = 'until' in end ? (stockholmLocalToIso(`${end.until}T23:59:59`) ?? end.until) : null
  return recurrenceRule({
    freq: choice === 'weekly' || choice === 'biweekly' ? 'weekly' : 'monthly',
    interval: choice === 'biweekly' ? 2 : 1,
    weekday: choice === 'monthly_weekday' ? weekdayOfMonth(eventTime) : null,
    monthDay: null,
    count: 'count' in end ? end.count : null,
    until,
  })
}

/** A rule as the form's choices, to edit it. */
export function choiceOfRule(rule: string | null): {
  choice: RepeatChoice
  until: string | null
  count: number | null
} {
  if (rule === null) return { choice: 'none', until: null, count: null }
  const r = ruleOf(rule)
  const choice: RepeatChoice =
    r.freq === 'weekly' ? (r.interval === 2 ? 'biweekly' : 'weekly') : r.weekday ? 'monthly_weekday' : 'monthly_day'
  return { choice, until: r.until ? isoToStockholmLocal(r.until).slice(0, 10) : null, count: r.count }
}

/**
 * A series split at occurrence `at` ("this and following events"): the old series' rule ends the
 * second before `at`; the new one starts at `newStart` with what is left of the count (or the same
 * end date). Null `before`: `at` was the first occurrence, the whole series changes.
 */
export function splitSeries(
  series: SeriesFields & { recurrence: string },
  at: string,
  newStart: string,
  newRule?: string | null,
): { before: string | null; after: string | null } {
  const r = ruleOf(series.recurrence)
  const all = occurrences({ ...series, exdates: [] })
  const index = all.indexOf(new Date(at).toISOString())
  const before =
    index <= 0 ? null : recurrenceRule({ ...r, count: null, until: new Date(Date.parse(at) - 1000).toISOString() })
  if (newRule !== undefined) return { before, after: newRule }
  const left = r.count === null ? null : r.count - Math.max(index, 0)
  // One time left is a single event; the rule needs two.
  if (left !== null && left < RECURRENCE_LIMITS.minCount) return { before, after: null }
  return { before, after: startsOk(newStart, { ...r, count: left }) }
}

/** A rule for a start whose weekday of the month moved takes the new one (the second Tuesday stays a weekday of its start). */
function startsOk(start: string, r: Recurrence): string {
  const adjusted = r.weekday ? { ...r, weekday: weekdayOfMonth(start) } : r
  return recurrenceRule(adjusted)
}

/** An event as the list shows it: at its shown occurrence, with that occurrence's answers only. */
export type AtOccurrence<E> = E & {
  /** The occurrence's start for a repeating event (what an RSVP names), else null. */
  occurrence: string | null
  /** The series' first time (`event_time` as stored). */
  series_time: string
}

/**
 * The event at the occurrence the list shows (`shownOccurrence`): its `event_time` that
 * occurrence's and its RSVPs that occurrence's; an event that does not repeat as it is. Null for a
 * series with no occurrence left.
 */
export function atShownOccurrence<E extends SeriesFields & { rsvps: readonly { occurrence?: string | null }[] }>(
  event: E,
  now: number,
): AtOccurrence<E> | null {
  const recurrence = event.recurrence ?? null
  if (recurrence === null) return { ...event, occurrence: null, series_time: event.event_time }
  const shown = shownOccurrence({ ...event, recurrence }, now)
  if (shown === null) return null
  return {
    ...event,
    event_time: shown,
    occurrence: shown,
    series_time: event.event_time,
    rsvps: event.rsvps.filter((rsvp) => rsvp.occurrence === shown),
  }
}

/** A repeat choice as the form names it for an event at `eventTime` ('Monthly on the second Tuesday'). */
export function repeatChoiceLabel(choice: RepeatChoice, eventTime: string | null): string {
  if (choice === 'none') return 'Does not repeat'
  if (choice === 'weekly') return 'Weekly'
  if (choice === 'biweekly') return 'Every 2 weeks'
  if (!eventTime) return choice === 'monthly_day' ? 'Monthly on the same day' : 'Monthly on the same weekday'
  if (choice === 'monthly_day') return `Monthly on day ${Number(isoToStockholmLocal(eventTime).slice(8, 10))}`
  const { n, day } = weekdayOfMonth(eventTime)
  return `Monthly on the ${ORDINALS[n]} ${WEEKDAY_NAMES[day]}`
}
