/**
 * Events and RSVPs (CONTRACT §3.3). Every write is one sync write, called alike by the REST routes
 * and the push handler's mutations. An event's data carries its RSVPs, so an RSVP moves its version.
 */

import {
  type BubleEvent,
  type CreateEventBody,
  EVENT_MESSAGES,
  type RsvpStatus,
  type UpdateEventBody,
} from '@buble/shared/events'
import { can } from '@buble/shared/permissions'
import { eq, ne, sql } from 'drizzle-orm'
import { v7 as uuidv7 } from 'uuid'
import { bubles, eventRsvps, events } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import type { UserRow } from '../../lib/accounts.ts'
import type { ContentAddedBus } from '../../lib/content-added.ts'
import { contentKit } from '../../lib/content-kit.ts'
import type { Created } from '../../lib/entity-ids.ts'
import { forbidden, notFound } from '../../lib/errors.ts'
import { memberActorOf, requireMembership } from '../../lib/memberships.ts'
import { syncWrite } from '../../lib/sync-writes.ts'
import { loadEvent } from './queries.ts'

type EventRow = typeof events.$inferSelect

export const eventNotFound = () => notFound(EVENT_MESSAGES.eventNotFound)

const kit = contentKit({
  table: events,
  kind: 'event',
  notFound: eventNotFound,
  authorOf: (event) => event.creatorId,
  refusals: { 'content.edit': EVENT_MESSAGES.notAllowedToManage, 'content.delete': EVENT_MESSAGES.notAllowedToManage },
})

export type EventsService = ReturnType<typeof eventsService>

export function eventsService({ db, now }: Deps, contentAdded: ContentAddedBus) {
  /** What an edit body changes on the row (a member's edit and a platform admin's alike). */
  const changesOf = (body: UpdateEventBody): Partial<EventRow> => ({
    ...(body.title !== undefined && { title: body.title }),
    ...(body.description !== undefined && { description: body.description }),
    ...(body.location !== undefined && { location: body.location }),
    ...(body.event_time !== undefined && { eventTime: new Date(body.event_time) }),
    updatedAt: now(),
  })

  return {
    /** A new event; the same client id again answers the event made with it. */
    async createEvent(user: UserRow, bubleId: string, body: CreateEventBody): Promise<Created<BubleEvent>> {
      return syncWrite(db, async (w) => {
        const me = await requireMembership(w.tx, bubleId, user.id)
        if (!can(memberActorOf(me), 'event.create')) throw forbidden(EVENT_MESSAGES.notAllowedToCreate)
        const id = body.id ?? uuidv7()
        // The event made with this id, only while it is in this buble (of which the caller is a member).
        if ((await kit.claim(w.tx, id, user.id, eq(events.bubleId, bubleId))) === 'existing')
          return { value: await loadEvent(w.tx, id), created: false }
        const version = await w.takeVersion()
        const at = now()
        await w.tx.insert(events).values({
          id,
          bubleId,
          creatorId: user.id,
          title: body.title,
          description: body.description,
          location: body.location,
          eventTime: new Date(body.event_time),
          externalUrl: body.external_url,
          externalSource: body.external_source,
          createdAt: at,
          updatedAt: at,
          addedVersion: version,
          version,
        })
        w.changed(bubleId, 'event')
        contentAdded.announce(w, {
          bubleId,
          contentType: 'events',
          actorId: user.id,
          title: `New event: ${body.title}`,
          body: `Added by ${user.name}`,
        })
        return { value: await loadEvent(w.tx, id), created: true }
      })
    },

    /** The fields sent change, the rest stay; creator, owner or manage_events. */
    async updateEvent(user: UserRow, eventId: string, body: UpdateEventBody): Promise<BubleEvent> {
      return syncWrite(db, async (w) => {
        const event = await kit.forAction(w.tx, eventId, user.id, 'content.edit')
        await kit.touch(w, event, changesOf(body))
        return loadEvent(w.tx, eventId)
      })
    },

    /** Creator, owner or manage_events; the RSVPs go with it, devices get a `del`. */
    async deleteEvent(user: UserRow, eventId: string): Promise<void> {
      await syncWrite(db, async (w) => {
        await kit.remove(w, await kit.forAction(w.tx, eventId, user.id, 'content.delete'))
      })
    },

    /** A platform admin's edit (CONTRACT §3.4): no membership needed, the same sync write; answers the stored row. */
    async adminUpdateEvent(eventId: string, body: UpdateEventBody): Promise<EventRow> {
      return syncWrite(db, async (w) => {
        const event = await kit.find(w.tx, eventId)
        await kit.touch(w, event, changesOf(body))
        return event
      })
    },

    /** A platform admin's delete: as `deleteEvent`, without the membership check; answers the deleted row. */
    async adminDeleteEvent(eventId: string): Promise<EventRow> {
      return syncWrite(db, async (w) => {
        const event = await kit.find(w.tx, eventId, true)
        await kit.remove(w, event)
        return event
      })
    },

    /** Any member answers; a new answer replaces the earlier one, the same answer again changes nothing. */
    async rsvp(user: UserRow, eventId: string, status: RsvpStatus): Promise<BubleEvent> {
      return syncWrite(db, async (w) => {
        const { row: event } = await kit.forMember(w.tx, eventId, user.id)
        const at = now()
        const changed = await w.tx
          .insert(eventRsvps)
          .values({ eventId, userId: user.id, status, createdAt: at, updatedAt: at })
          .onConflictDoUpdate({
            target: [eventRsvps.eventId, eventRsvps.userId],
            set: { status, updatedAt: at },
            setWhere: ne(eventRsvps.status, sql`excluded.status`),
          })
          .returning({ status: eventRsvps.status })
        if (changed.length > 0) await kit.touch(w, event)
        return loadEvent(w.tx, eventId)
      })
    },

    /** An event and its buble's name, for a member (the calendar file). */
    async forCalendar(
      user: UserRow,
      eventId: string,
    ): Promise<{ event: BubleEvent; bubleName: string; updatedAt: Date }> {
      const { row } = await kit.forMember(db, eventId, user.id)
      const [buble] = await db.select({ name: bubles.name }).from(bubles).where(eq(bubles.id, row.bubleId)).limit(1)
      return { event: await loadEvent(db, eventId), bubleName: buble?.name ?? '', updatedAt: row.updatedAt }
    },
  }
}
