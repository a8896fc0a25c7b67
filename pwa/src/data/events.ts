/** Events and polls as screens read them (live queries over the device's database), and their writes. */

import type { LocalRow } from '@buble/shared/device-rows'
import type { BubleEvent, RsvpStatus, UpdateEventBody } from '@buble/shared/events'
import type { Poll } from '@buble/shared/polls'
import { useLiveQuery } from 'dexie-react-hooks'
import { useMemo } from 'react'
import { v7 as uuidv7 } from 'uuid'
import { withCurrentMakers } from './authors.ts'
import { useDevice } from './data-context.tsx'
import { type CreateInput, queueCreate } from './device.ts'
import { type LiveRows, liveRows } from './live-rows.ts'

/** Rows as stored: `_pending` while what the user wrote has not reached the server. */
export type LocalEvent = BubleEvent & LocalRow
export type LocalPoll = Poll & LocalRow

/** A buble's rows of `table` in `order`, with their creators as the member list names them now. */
function useBubleRows<T extends LocalEvent | LocalPoll>(
  table: 'events' | 'polls',
  bubleId: string,
  order: (a: T, b: T) => number,
): LiveRows<T> {
  const { db } = useDevice()
  const rows = useLiveQuery(async () => {
    const rows = (await db.table(table).where('buble_id').equals(bubleId).toArray()) as T[]
    return withCurrentMakers(db, bubleId, rows.sort(order), 'creator')
  }, [db, bubleId])
  return liveRows(rows)
}

const soonestFirst = (a: LocalEvent, b: LocalEvent) =>
  a.event_time.localeCompare(b.event_time) || a.id.localeCompare(b.id)
const newestFirst = (a: LocalPoll, b: LocalPoll) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id)

/** A buble's events, soonest first (CONTRACT §6). */
export const useEvents = (bubleId: string) => useBubleRows('events', bubleId, soonestFirst)

/** A buble's polls, newest first (CONTRACT §3.3). */
export const usePolls = (bubleId: string) => useBubleRows('polls', bubleId, newestFirst)

/** What a new poll is made of: the poll.create mutation's input, without the id. */
export type NewPoll = CreateInput<'poll.create'>

/** What a new event is made of: the event.create mutation's input, without the id. */
export type NewEvent = CreateInput<'event.create'>

/**
 * The writes of events and polls: each shows on the device at once and waits in the outbox for
 * the server. Creates choose their id here, so the row made offline keeps it, and answer it.
 */
export function useEventActions() {
  const device = useDevice()
  return useMemo(
    () => ({
      createEvent: (event: NewEvent) => queueCreate(device, 'event.create', event),
      updateEvent: (id: string, changes: UpdateEventBody) => device.mutate('event.update', { id, ...changes }),
      /**
       * One occurrence of a repeating event ('this'), or it and the ones after it ('following'):
       * the new event's id is chosen here, so the edit made offline keeps it.
       */
      updateOccurrences: (id: string, scope: 'this' | 'following', occurrence: string, changes: UpdateEventBody) =>
        device.mutate('event.update', { id, ...changes, scope, occurrence, new_id: uuidv7() }),
      /** With `occurrence`, only that occurrence of a repeating event is cancelled. */
      deleteEvent: (id: string, occurrence?: string) =>
        device.mutate('event.delete', occurrence ? { id, occurrence } : { id }),
      /** Of a repeating event, the answer is to one occurrence. */
      rsvp: (eventId: string, status: RsvpStatus, occurrence?: string | null) =>
        device.mutate(
          'event.rsvp',
          occurrence ? { event_id: eventId, status, occurrence } : { event_id: eventId, status },
        ),
      createPoll: (poll: NewPoll) => queueCreate(device, 'poll.create', poll),
      updatePoll: (id: string, changes: { question?: string; options?: string[] }) =>
        device.mutate('poll.update', { id, ...changes }),
      deletePoll: (id: string) => device.mutate('poll.delete', { id }),
      /** One choice as `poll_option_id` (the contract's shape), several as the whole set in `poll_option_ids`. */
      vote: (pollId: string, optionIds: readonly string[]) =>
        device.mutate(
          'poll.vote',
          optionIds.length === 1
            ? { poll_id: pollId, poll_option_id: optionIds[0] }
            : { poll_id: pollId, poll_option_ids: [...optionIds] },
        ),
      unvote: (pollId: string) => device.mutate('poll.unvote', { poll_id: pollId }),
    }),
    [device],
  )
}

export type EventActions = ReturnType<typeof useEventActions>
