/** How dates and counts read on screen, the same on every page. */

// en-GB, whatever the browser's locale: the app's texts are English and "23 Nov 2026" reads the same everywhere.
const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' })
const MOMENT = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' })

const CLOCK = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })

/** "23 Nov 2026". */
export const formatDay = (iso: string): string => DAY.format(new Date(iso))

/** "23 Nov 2026, 14:05" in the browser's time zone. */
export const formatMoment = (iso: string): string => MOMENT.format(new Date(iso))

/** "14:05" in the browser's time zone. */
export const formatClock = (iso: string): string => CLOCK.format(new Date(iso))

/** "1 member", "3 members". */
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`
