/** Events and polls as screens read them (live queries over the device's database), and their writes. */

import type { BubleEvent, CreateEventBody, RsvpStatus, UpdateEventBody } from '@buble/shared/events'
import type { Poll } from '@buble/shared/polls'
import type { LocalRow } from '@buble/sync/client/local-db'
import { useLiveQuery } from 'dexie-react-hooks'
import { useMemo } from 'react'
import { v7 as uuidv7 } from 'uuid'
import { withCurrentCreators } from './authors.ts'
import { useDevice } from './data-context.tsx'

/** Rows as stored: `_pending` while what the user wrote has not reached the server. */
export type LocalEvent = BubleEvent & LocalRow
export type LocalPoll = Poll & LocalRow

/** A buble's events, soonest first (CONTRACT §6); undefined while loading. */
export function useEvents(bubleId: string): LocalEvent[] | undefined {
  const { db } = useDevice()
  return useLiveQuery(async () => {
    const rows = (await db.events.where('buble_id').equals(bubleId).toArray()) as LocalEvent[]
    rows.sort((a, b) => a.event_time.localeCompare(b.event_time) || a.id.localeCompare(b.id))
    return withCurrentCreators(db, bubleId, rows)
  }, [db, bubleId])
}

/** A buble's polls, newest first (CONTRACT §3.3); undefined while loading. */
export function usePolls(bubleId: string): LocalPoll[] | undefined {
  const { db } = useDevice()
  return useLiveQuery(async () => {
    const rows = (await db.polls.where('buble_id').equals(bubleId).toArray()) as LocalPoll[]
    rows.sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id))
    return withCurrentCreators(db, bubleId, rows)
  }, [db, bubleId])
}

/** What a new event is made of: CreateEventBody as a form gives it, without the id. */
export type NewEvent = { buble_id: string } & Omit<CreateEventBody, 'id' | 'description' | 'location' | 'external_url' | 'external_source'> & {
    description?: string | null
    location?: string | null
    external_url?: string | null
    external_source?: string | null
  }

/**
 * The writes of events and polls: each shows on the device at once and waits in the outbox for
 * the server. Creates choose their id here, so the row made offline keeps it, and answer it.
 */
export function useEventActions() {
  const device = useDevice()
  return useMemo(
    () => ({
      async createEvent(event: NewEvent): Promise<string> {
        const id = uuidv7()
        await device.mutate('event.create', { id, ...event })
        return id
      },
      updateEvent: (id: string, changes: UpdateEventBody) => device.mutate('event.update', { id, ...changes }),
      deleteEvent: (id: string) => device.mutate('event.delete', { id }),
      rsvp: (eventId: string, status: RsvpStatus) => device.mutate('event.rsvp', { event_id: eventId, status }),
      async createPoll(poll: { buble_id: string; question: string; options: string[] }): Promise<string> {
        const id = uuidv7()
        await device.mutate('poll.create', { id, ...poll })
        return id
      },
      updatePoll: (id: string, changes: { question?: string; options?: string[] }) =>
        device.mutate('poll.update', { id, ...changes }),
      deletePoll: (id: string) => device.mutate('poll.delete', { id }),
      vote: (pollId: string, optionId: string) => device.mutate('poll.vote', { poll_id: pollId, poll_option_id: optionId }),
      unvote: (pollId: string) => device.mutate('poll.unvote', { poll_id: pollId }),
    }),
    [device],
  )
}

export type EventActions = ReturnType<typeof useEventActions>
