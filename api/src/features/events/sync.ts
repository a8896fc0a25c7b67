/** Events in sync: their synced tables, what counts on their tabs, and their mutations. */

import type { EVENT_MUTATIONS } from '@buble/shared/mutations'
import type { MutationHandlersOf, SyncSource, UnreadSource } from '../../lib/sync-sources.ts'
import { scanTable } from '../../lib/sync-sources.ts'
import { loadEvents } from './queries.ts'
import type { EventsService } from './service.ts'

/** Events by others count on their tab, from the version they were added at. */
export const eventsUnreadSources: UnreadSource[] = [
  {
    contentType: 'events',
    entity: 'event',
    table: 'events',
    bubleColumn: 'buble_id',
    addedColumn: 'added_version',
    authorColumn: 'creator_id',
  },
]

export const eventsSyncSources: SyncSource[] = [
  { entity: 'event', scan: scanTable('event', 'events', 'buble_id'), load: (db, ids) => loadEvents(db, ids) },
]

export const eventsMutations = (events: EventsService): MutationHandlersOf<typeof EVENT_MUTATIONS> => ({
  'event.create': async (user, { buble_id, ...body }) => (await events.createEvent(user, buble_id, body)).value,
  'event.update': (user, { id, ...body }) => events.updateEvent(user, id, body),
  'event.delete': async (user, args) => {
    await events.deleteEvent(user, args.id, args.occurrence)
    return null
  },
  'event.rsvp': (user, args) => events.rsvp(user, args.event_id, args.status, args.occurrence),
})
