import { type AtOccurrence, atShownOccurrence } from '@buble/shared/recurrence'
import type { LocalEvent } from '../../data/events.ts'

/**
 * Each event at the occurrence the list shows (a repeating one's next, with that occurrence's
 * answers; decision 97), soonest first; a series with no occurrence left is not shown.
 */
export function shownEvents(events: readonly LocalEvent[], now: number): AtOccurrence<LocalEvent>[] {
  return events
    .flatMap((event) => atShownOccurrence(event, now) ?? [])
    .sort((a, b) => a.event_time.localeCompare(b.event_time) || a.id.localeCompare(b.id))
}
