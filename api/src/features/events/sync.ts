/** Events and polls in sync: their synced tables, what counts on their tabs, and their mutations. */

import type { EVENT_MUTATIONS, POLL_MUTATIONS } from '@buble/shared/mutations'
import type { MutationHandlersOf, SyncSource, UnreadSource } from '../../lib/sync-sources.ts'
import { scanTable } from '../../lib/sync-sources.ts'
import type { EventsService } from './events-service.ts'
import type { PollsService } from './polls-service.ts'
import { loadEvents, loadPolls } from './queries.ts'

/** Events and polls by others count on their tabs, from the version they were added at. */
export const eventsUnreadSources: UnreadSource[] = [
  {
    contentType: 'events',
    entity: 'event',
    table: 'events',
    bubleColumn: 'buble_id',
    addedColumn: 'added_version',
    authorColumn: 'creator_id',
  },
  {
    contentType: 'polls',
    entity: 'poll',
    table: 'polls',
    bubleColumn: 'buble_id',
    addedColumn: 'added_version',
    authorColumn: 'creator_id',
  },
]

export const eventsSyncSources: SyncSource[] = [
  { entity: 'event', scan: scanTable('event', 'events', 'buble_id'), load: (db, ids) => loadEvents(db, ids) },
  // A poll's data carries the puller's own vote (CONTRACT §6: as the caller would get it).
  {
    entity: 'poll',
    scan: scanTable('poll', 'polls', 'buble_id'),
    load: (db, ids, userId) => loadPolls(db, ids, userId),
  },
]

export const eventsMutations = (
  events: EventsService,
  polls: PollsService,
): MutationHandlersOf<typeof EVENT_MUTATIONS & typeof POLL_MUTATIONS> => ({
  'event.create': async (user, { buble_id, ...body }) => (await events.createEvent(user, buble_id, body)).value,
  'event.update': (user, { id, ...body }) => events.updateEvent(user, id, body),
  'event.delete': async (user, args) => {
    await events.deleteEvent(user, args.id)
    return null
  },
  'event.rsvp': (user, args) => events.rsvp(user, args.event_id, args.status),
  'poll.create': async (user, { buble_id, ...body }) => (await polls.createPoll(user, buble_id, body)).value,
  'poll.update': (user, { id, ...body }) => polls.updatePoll(user, id, body),
  'poll.delete': async (user, args) => {
    await polls.deletePoll(user, args.id)
    return null
  },
  'poll.vote': (user, args) => polls.vote(user, args.poll_id, args.poll_option_id),
  'poll.unvote': (user, args) => polls.unvote(user, args.poll_id),
})
