/** How long ago something happened, as posts and stories say it (spec part 2 §9). */

/** Dates are shown as a reader in the buble's home would see them (spec part 2 §9). */
export const DISPLAY_TIME_ZONE = 'Europe/Stockholm'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

// en-GB, as the rest of the app writes dates ("14 Nov", "23 Nov 2026").
const SHORT_DATE = new Intl.DateTimeFormat('en-GB', { timeZone: DISPLAY_TIME_ZONE, day: 'numeric', month: 'short' })
const LONG_DATE = new Intl.DateTimeFormat('en-GB', {
  timeZone: DISPLAY_TIME_ZONE,
  day: 'numeric',
  month: 'short',
  year: 'numeric',
})
const YEAR = new Intl.DateTimeFormat('en-GB', { timeZone: DISPLAY_TIME_ZONE, year: 'numeric' })

/**
 * 'now' under a minute, '5m ago', '3h ago', '2d ago' under 7 days, then the date in Stockholm:
 * '14 Nov', with the year when it is not this year ('14 Nov 2025'). A time ahead of `now` (a
 * device clock running slow) reads 'now'.
 */
export function relativeTime(iso: string, now: Date | number): string {
  const then = new Date(iso)
  const at = typeof now === 'number' ? now : now.getTime()
  const elapsed = at - then.getTime()
  if (Number.isNaN(elapsed)) return ''
  if (elapsed < MINUTE) return 'now'
  if (elapsed < HOUR) return `${Math.floor(elapsed / MINUTE)}m ago`
  if (elapsed < DAY) return `${Math.floor(elapsed / HOUR)}h ago`
  if (elapsed < 7 * DAY) return `${Math.floor(elapsed / DAY)}d ago`
  return YEAR.format(then) === YEAR.format(at) ? SHORT_DATE.format(then) : LONG_DATE.format(then)
}

type Parts = Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>

/** One formatter per zone, made when first needed (a zone name a browser does not know throws). */
const partsFormatters = new Map<string, Intl.DateTimeFormat>()
function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let format = partsFormatters.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
    partsFormatters.set(timeZone, format)
  }
  return format
}

/** The wall-clock parts of an instant in a time zone. */
function zoneParts(ms: number, timeZone: string): Parts {
  const parts: Record<string, number> = {}
  for (const part of partsFormatter(timeZone).formatToParts(new Date(ms)))
    if (part.type !== 'literal') parts[part.type] = Number(part.value)
  return parts as Parts
}

/** How far a zone's clock is ahead of UTC at an instant, in ms. */
function zoneOffset(ms: number, timeZone: string): number {
  const p = zoneParts(ms, timeZone)
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(ms / 1000) * 1000
}

/**
 * A wall-clock time in `timeZone` as a form's `datetime-local` field gives it ('2026-12-24T18:00')
 * to an ISO instant in UTC; null when it is not such a time. In the hour the clocks go back, the
 * earlier of the two instants; in the hour they skip, the time an hour later.
 */
export function zonedLocalToIso(local: string, timeZone: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local.trim())
  if (!match) return null
  const [y, mo, d, h, mi, s] = match.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  const asUtc = Date.UTC(y, mo - 1, d, h, mi, s)
  if (Number.isNaN(asUtc)) return null
  // Try the offsets in force just before and after: the first that reads back the same wall time wins.
  const before = asUtc - zoneOffset(asUtc - 3 * 3600_000, timeZone)
  for (const guess of [before, asUtc - zoneOffset(asUtc + 3 * 3600_000, timeZone)]) {
    if (zoneOffset(guess, timeZone) === asUtc - guess) return new Date(guess).toISOString()
  }
  // A skipped time: the offset before the change, which lands as far past the gap.
  return new Date(before).toISOString()
}

/** An ISO instant as a `datetime-local` value in `timeZone` ('2026-12-24T18:00'); '' for a bad date. */
export function isoToZonedLocal(iso: string, timeZone: string): string {
  const ms = Date.parse(iso)
  if (Number.isNaN(ms)) return ''
  const p = zoneParts(ms, timeZone)
  const two = (n: number) => String(n).padStart(2, '0')
  return `${p.year}-${two(p.month)}-${two(p.day)}T${two(p.hour)}:${two(p.minute)}`
}

/** A wall-clock time in Stockholm to an ISO instant in UTC (zonedLocalToIso in Europe/Stockholm). */
export const stockholmLocalToIso = (local: string): string | null => zonedLocalToIso(local, DISPLAY_TIME_ZONE)

/** An ISO instant as a `datetime-local` value in Stockholm ('2026-12-24T18:00'); '' for a bad date. */
export const isoToStockholmLocal = (iso: string): string => isoToZonedLocal(iso, DISPLAY_TIME_ZONE)

/** A zone's short name at an instant: 'CET', 'CEST', 'GMT', 'EST'; an offset ('GMT+9') where it has none. */
export function zoneAbbreviation(ms: number, timeZone: string): string {
  const nameIn = (locale: string) =>
    new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' })
      .formatToParts(ms)
      .find((part) => part.type === 'timeZoneName')?.value ?? ''
  const british = nameIn('en-GB')
  if (!/^(GMT|UTC)[+-]/.test(british)) return british
  // en-GB names Europe's zones; en-US names North America's ('EST', 'PDT').
  const american = nameIn('en-US')
  return /^[A-Z]{2,5}$/.test(american) ? american : british
}

/**
 * When an event happens, in the viewer's own zone, with the zone named: 'Sat 29 Nov, 19:00 CET',
 * with the year when it is not this year ('Thu 24 Dec 2026, 18:00 CET' read in 2025).
 */
export function formatZonedEventTime(iso: string, timeZone: string, now: Date | number = Date.now()): string {
  const ms = Date.parse(iso)
  if (Number.isNaN(ms)) return ''
  const part: Record<string, string> = {}
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  })
  for (const { type, value } of format.formatToParts(ms)) part[type] = value
  const thisYear = String(zoneParts(typeof now === 'number' ? now : now.getTime(), timeZone).year)
  const year = part.year === thisYear ? '' : ` ${part.year}`
  return `${part.weekday} ${part.day} ${part.month}${year}, ${part.hour}:${part.minute} ${zoneAbbreviation(ms, timeZone)}`
}
