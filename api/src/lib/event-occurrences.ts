/**
 * When an event takes place: the one list of start times that the calendar feed and the reminder
 * job both read (decision 96). An event has one start today; a repeating event will answer each of
 * its occurrences here, and both readers follow.
 */

/** What an event's occurrences are computed from (a row of `events`). */
export interface OccurrenceSource {
  eventTime: Date
}

/** The starts of `event` in [from, to), earliest first. */
export function eventOccurrences(event: OccurrenceSource, from: Date, to: Date): Date[] {
  const start = event.eventTime
  return start >= from && start < to ? [start] : []
}
