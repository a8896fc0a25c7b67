/**
 * "Add to calendar": one event as an RFC 5545 calendar file. ical-generator writes the lines
 * (CRLF, folded at 75 octets without splitting a character, TEXT escaped); this module decides
 * what goes in them.
 */

import type { BubleEvent } from '@buble/shared/events'
import { DISPLAY_TIME_ZONE, isoToStockholmLocal } from '@buble/shared/time'
import slugify from '@sindresorhus/slugify'
import ical, { type ICalEventData } from 'ical-generator'

/** Buble events have a start only; calendars get an hour (docs/decisions/). */
export const CALENDAR_EVENT_DURATION_MS = 60 * 60 * 1000

// A repeating event's times go on Stockholm's clock (TZID), so a calendar keeps 18:00 across summer
// time; ical-generator writes a Date's UTC fields after the TZID, so it is handed the wall time.
const wallDate = (ms: number) => new Date(`${isoToStockholmLocal(new Date(ms).toISOString())}:00Z`)
const wallText = (iso: string) => `${isoToStockholmLocal(iso).replace(/[-:]/g, '')}00`

/**
 * The start, end and repetition of an event (decision 97): an event that does not repeat in UTC;
 * a series on Stockholm's clock with its RRULE and an EXDATE for each occurrence taken out; an
 * occurrence changed on its own (`series_id`) on that clock too, with its RECURRENCE-ID, to go under
 * its series' UID where a feed lists both.
 */
export function eventTimes(
  event: Pick<BubleEvent, 'event_time' | 'recurrence' | 'exdates' | 'series_id' | 'recurrence_id'>,
): Pick<ICalEventData, 'start' | 'end' | 'timezone' | 'repeating' | 'recurrenceId'> {
  const start = Date.parse(event.event_time)
  const end = start + CALENDAR_EVENT_DURATION_MS
  if (!event.recurrence && !event.recurrence_id) return { start: new Date(start), end: new Date(end) }
  const lines = event.recurrence
    ? [
        `RRULE:${event.recurrence}`,
        ...(event.exdates ?? []).map((date) => `EXDATE;TZID=${DISPLAY_TIME_ZONE}:${wallText(date)}`),
      ]
    : []
  return {
    timezone: DISPLAY_TIME_ZONE,
    start: wallDate(start),
    end: wallDate(end),
    ...(lines.length > 0 && { repeating: lines.join('\n') }),
    ...(event.recurrence_id && { recurrenceId: wallDate(Date.parse(event.recurrence_id)) }),
  }
}

export interface CalendarInput {
  event: BubleEvent
  bubleName: string
  updatedAt: Date
  now: Date
}

/** The calendar file's text. */
export function eventCalendar({ event, bubleName, updatedAt, now }: CalendarInput): string {
  const calendar = ical({ prodId: { company: 'Buble', product: 'Buble', language: 'EN' }, scale: 'gregorian' })
  // A changed occurrence alone is an event of its own here: its RECURRENCE-ID needs its series beside it.
  const { recurrenceId: _alone, ...times } = eventTimes(event)
  calendar.createEvent({
    // Stable across downloads and edits, so a calendar updates its copy instead of adding another.
    id: `${event.id}@buble`,
    ...times,
    stamp: now,
    lastModified: updatedAt,
    summary: event.title,
    description: event.description ? `${bubleName}: ${event.description}` : bubleName,
    location: event.location,
    url: event.external_url,
  })
  // RFC 5545: every content line ends with CRLF, the last one too.
  return `${calendar.toString()}\r\n`
}

/**
 * `Content-Disposition` for the file: an ASCII name from the title (Swedish letters spelled out)
 * for every client, and the title itself for those that read RFC 6266's `filename*`.
 */
export function calendarDisposition(title: string): string {
  const ascii = slugify(title, { locale: 'sv', lowercase: false }).slice(0, 60).replace(/-+$/, '') || 'event'
  const exact = title.replace(/[\p{Cc}/\\]/gu, ' ').trim() || 'event'
  return `attachment; filename="${ascii}.ics"; filename*=UTF-8''${encodeURIComponent(`${exact}.ics`)}`
}
