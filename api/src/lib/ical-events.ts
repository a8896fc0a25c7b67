/**
 * Buble events as iCalendar (RFC 5545) VEVENTs: one rule for the "Add to calendar" file and the
 * private feed (decision 96). ical-generator writes the lines (CRLF, folded at 75 octets without
 * splitting a character, TEXT escaped); this module decides what goes in them.
 */

import ical, { type ICalCalendar } from 'ical-generator'

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
  now: Date
}

/**
 * SEQUENCE: whole seconds from creation to the last edit. It grows with every edit (a second or
 * more apart) without a counter of its own, and an RSVP, which leaves `updated_at`, does not move it.
 */
export const sequenceOf = (createdAt: Date, updatedAt: Date): number =>
  Math.max(0, Math.floor((updatedAt.getTime() - createdAt.getTime()) / 1000))

export function newCalendar(name?: string): ICalCalendar {
  return ical({ prodId: { company: 'Buble', product: 'Buble', language: 'EN' }, scale: 'gregorian', name })
}

export function addCalendarEvent(calendar: ICalCalendar, event: CalendarEventInput): void {
  calendar.createEvent({
    id: eventUid(event.id),
    sequence: sequenceOf(event.createdAt, event.updatedAt),
    start: event.start,
    end: new Date(event.start.getTime() + CALENDAR_EVENT_DURATION_MS),
    stamp: event.now,
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
