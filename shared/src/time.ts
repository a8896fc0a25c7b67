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
