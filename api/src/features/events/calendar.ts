/**
 * "Add to calendar": one event as an RFC 5545 calendar file. ical-generator writes the lines
 * (CRLF, folded at 75 octets without splitting a character, TEXT escaped); this module decides
 * what goes in them.
 */

import type { BubleEvent } from '@buble/shared/events'
import slugify from '@sindresorhus/slugify'
import ical from 'ical-generator'

/** Buble events have a start only; calendars get an hour (docs/decisions/). */
export const CALENDAR_EVENT_DURATION_MS = 60 * 60 * 1000

export interface CalendarInput {
  event: BubleEvent
  bubleName: string
  updatedAt: Date
  now: Date
}

/** The calendar file's text. */
export function eventCalendar({ event, bubleName, updatedAt, now }: CalendarInput): string {
  const calendar = ical({ prodId: { company: 'Buble', product: 'Buble', language: 'EN' }, scale: 'gregorian' })
  const start = new Date(event.event_time)
  calendar.createEvent({
    // Stable across downloads and edits, so a calendar updates its copy instead of adding another.
    id: `${event.id}@buble`,
    start,
    end: new Date(start.getTime() + CALENDAR_EVENT_DURATION_MS),
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
