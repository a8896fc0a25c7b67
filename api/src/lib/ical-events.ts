/**
 * Buble events as iCalendar (RFC 5545) VEVENTs: one rule for the "Add to calendar" file and the
 * private feed (decision 96). ical-generator writes the lines (CRLF, folded at 75 octets without
 * splitting a character, TEXT escaped); this module decides what goes in them.
 */

import { DISPLAY_TIME_ZONE, isoToStockholmLocal } from '@buble/shared/time'
import ical, { type ICalCalendar, type ICalEventData } from 'ical-generator'

/** Buble events have a start only; calendars get an hour (docs/decisions/). */
export const CALENDAR_EVENT_DURATION_MS = 60 * 60 * 1000

/** Stable across downloads, feeds and edits, so a calendar updates its copy instead of adding another. */
export const eventUid = (eventId: string): string => `${eventId}@buble`

export interface CalendarEventInput {
  id: string
  title: string
  description: string | null
  location: string | null
  url: string | null
  bubleName: string
  start: Date
  createdAt: Date
  /** The last edit of the event's own fields. */
  updatedAt: Date
  /**
   * DTSTAMP. Without a METHOD, RFC 5545 §3.8.7.2 makes it the time the information was last revised:
   * the feed gives `updatedAt`, so the same events are the same bytes (and the same ETag); a file made
   * to download gives the time it was made.
   */
  stamp: Date
  /** A repeating event's RRULE (decision 97): one VEVENT for the whole series. */
  recurrence?: string | null
  /** Occurrences taken out of the series (EXDATE). */
  exdates?: readonly Date[]
  /** An occurrence changed on its own: its series (whose UID it takes) and the start it had there (RECURRENCE-ID). */
  seriesId?: string | null
  recurrenceId?: Date | null
}

// A repeating event's times go on Stockholm's clock (TZID), so a calendar keeps 18:00 across summer
// time; ical-generator writes a Date's UTC fields after a TZID, so it is handed the wall time.
const wallDate = (date: Date) => new Date(`${isoToStockholmLocal(date.toISOString())}:00Z`)
const wallText = (date: Date) => `${isoToStockholmLocal(date.toISOString()).replace(/[-:]/g, '')}00`

/**
 * The UID, start, end and repetition of an event (decision 97): an event that does not repeat in
 * UTC under its own UID; a series on Stockholm's clock with its RRULE and an EXDATE for each
 * occurrence taken out; an occurrence changed on its own under its series' UID with its RECURRENCE-ID.
 */
function timesOf(
  event: CalendarEventInput,
): Pick<ICalEventData, 'id' | 'start' | 'end' | 'timezone' | 'repeating' | 'recurrenceId'> {
  const end = new Date(event.start.getTime() + CALENDAR_EVENT_DURATION_MS)
  const exception = event.seriesId && event.recurrenceId ? event.recurrenceId : null
  if (!event.recurrence && !exception) return { id: eventUid(event.id), start: event.start, end }
  const lines = event.recurrence
    ? [
        `RRULE:${event.recurrence}`,
        ...(event.exdates ?? []).map((date) => `EXDATE;TZID=${DISPLAY_TIME_ZONE}:${wallText(date)}`),
      ]
    : []
  return {
    id: eventUid(exception && event.seriesId ? event.seriesId : event.id),
    timezone: DISPLAY_TIME_ZONE,
    start: wallDate(event.start),
    end: wallDate(end),
    ...(lines.length > 0 && { repeating: lines.join('\n') }),
    ...(exception && { recurrenceId: wallDate(exception) }),
  }
}

/**
 * SEQUENCE: whole seconds from creation to the last edit. It grows with every edit (a second or
 * more apart) without a counter of its own, and an RSVP, which leaves `updated_at`, does not move it.
 */
export const sequenceOf = (createdAt: Date, updatedAt: Date): number =>
  Math.max(0, Math.floor((updatedAt.getTime() - createdAt.getTime()) / 1000))

/**
 * Stockholm's time zone as a VTIMEZONE (CET, and CEST from the last Sunday of March to the last
 * Sunday of October, as the EU has had it since 1996). RFC 5545 §3.2.19 wants one for each TZID a
 * file names: without it a parser (ical.js, Apple Calendar) may read the times as floating, 18:00
 * of whatever clock it runs on. Times before 1996 are not written on this zone: a series starts
 * when it is made.
 */
const STOCKHOLM_VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  `TZID:${DISPLAY_TIME_ZONE}`,
  `X-LIC-LOCATION:${DISPLAY_TIME_ZONE}`,
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'TZNAME:CEST',
  'DTSTART:19700329T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'TZNAME:CET',
  'DTSTART:19701025T030000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
].join('\r\n')

export function newCalendar(name?: string): ICalCalendar {
  return ical({
    prodId: { company: 'Buble', product: 'Buble', language: 'EN' },
    scale: 'gregorian',
    name,
    // No zone of the calendar's own (events that do not repeat stay in UTC): the generator only
    // writes a VTIMEZONE for each zone its events name, which is Stockholm's alone.
    timezone: { name: null, generator: (zone) => (zone === DISPLAY_TIME_ZONE ? STOCKHOLM_VTIMEZONE : null) },
  })
}

export function addCalendarEvent(calendar: ICalCalendar, event: CalendarEventInput): void {
  calendar.createEvent({
    ...timesOf(event),
    sequence: sequenceOf(event.createdAt, event.updatedAt),
    stamp: event.stamp,
    created: event.createdAt,
    lastModified: event.updatedAt,
    summary: event.title,
    description: event.description ? `${event.bubleName}: ${event.description}` : event.bubleName,
    location: event.location,
    url: event.url,
  })
}

/** The calendar's text. RFC 5545: every content line ends with CRLF, the last one too. */
export const calendarText = (calendar: ICalCalendar): string => `${calendar.toString()}\r\n`
