/**
 * When an event takes place: the one list of start times that the calendar feed and the reminder
 * job both read (decision 96). A repeating event (decision 97) answers each of its occurrences,
 * taken-out ones left out, expanded by the shared rules (@buble/shared/recurrence).
 */

import { occurrences } from '@buble/shared/recurrence'

/** What an event's occurrences are computed from (a row of `events`). */
export interface OccurrenceSource {
  eventTime: Date
  recurrence?: string | null
  exdates?: readonly Date[]
}

/** The starts of `event` in [from, to), earliest first. */
export function eventOccurrences(event: OccurrenceSource, from: Date, to: Date): Date[] {
  const starts = occurrences(
    {
      event_time: event.eventTime.toISOString(),
      recurrence: event.recurrence ?? null,
      exdates: (event.exdates ?? []).map((date) => date.toISOString()),
    },
    { from: from.getTime(), to: to.getTime() },
  )
  return starts.map((iso) => new Date(iso))
}
