/** How dates and counts read on screen, the same on every page. */

import { formatZonedEventTime, isoToZonedLocal, zoneAbbreviation, zonedLocalToIso } from '@buble/shared/time'

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

/** The viewer's own time zone ('Europe/Stockholm'), as the device reports it; UTC where it reports none. */
export const viewerTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'

/** When an event happens, in the viewer's zone, named: "Sat 29 Nov, 19:00 CET" (events tab, admin area). */
export const formatEventMoment = (iso: string, now: number = Date.now()): string =>
  formatZonedEventTime(iso, viewerTimeZone(), now)

/** The viewer's zone's short name now ("CET"), for the time field's hint. */
export const viewerZoneName = (now: number = Date.now()): string => zoneAbbreviation(now, viewerTimeZone())

/** What a time field says about its clock: "Your time zone: CET (Europe/Stockholm)". */
export const viewerZoneHint = (now: number = Date.now()): string =>
  `Your time zone: ${viewerZoneName(now)} (${viewerTimeZone().replace(/_/g, ' ')})`

/** A stored event time as a `datetime-local` value on the viewer's clock. */
export const toLocalInput = (iso: string): string => isoToZonedLocal(iso, viewerTimeZone())

/** A `datetime-local` value on the viewer's clock as an ISO instant in UTC; null when it is not one. */
export const fromLocalInput = (local: string): string | null => zonedLocalToIso(local, viewerTimeZone())
