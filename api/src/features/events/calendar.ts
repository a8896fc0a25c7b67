/** "Add to calendar": one event as an RFC 5545 calendar file. */

import type { BubleEvent } from '@buble/shared/events'
import slugify from '@sindresorhus/slugify'
import { addCalendarEvent, calendarText, newCalendar } from '../../lib/ical-events.ts'

export interface CalendarInput {
  event: BubleEvent
  bubleName: string
  updatedAt: Date
  now: Date
}

/** The calendar file's text: the same VEVENT as the member's calendar feed (lib/ical-events.ts). */
export function eventCalendar({ event, bubleName, updatedAt, now }: CalendarInput): string {
  const calendar = newCalendar()
  addCalendarEvent(calendar, {
    id: event.id,
    title: event.title,
    description: event.description,
    location: event.location,
    url: event.external_url,
    bubleName,
    start: new Date(event.event_time),
    // A series with its RRULE and EXDATEs; a changed occurrence alone is an event of its own here
    // (its RECURRENCE-ID needs its series beside it, as in the feed).
    recurrence: event.recurrence,
    exdates: event.exdates.map((date) => new Date(date)),
    createdAt: new Date(event.created_at),
    updatedAt,
    stamp: now,
  })
  return calendarText(calendar)
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
