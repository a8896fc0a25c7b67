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
import { can, mayManageContent } from '@buble/shared/permissions'
import { eq, ne, sql } from 'drizzle-orm'
import { v7 as uuidv7 } from 'uuid'
import type { Executor } from '../../db/client.ts'
import { bubles, eventRsvps, events } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import type { UserRow } from '../../lib/accounts.ts'
import type { ContentAddedBus } from '../../lib/content-added.ts'
import { type Created, claimTableRowId } from '../../lib/entity-ids.ts'
import { forbidden, notFound } from '../../lib/errors.ts'
import { actorOf, type MembershipRow, requireMembership, requireMembershipOr } from '../../lib/memberships.ts'
import { NEXT_VERSION, type SyncWriter, syncWrite } from '../../lib/sync-writes.ts'
import { loadEvent } from './queries.ts'

type EventRow = typeof events.$inferSelect

export const eventNotFound = () => notFound(EVENT_MESSAGES.eventNotFound)

/** The event and the caller's member row in its buble; 404 alike for a missing event and an outsider. */
async function eventFor(
  tx: Executor,
  eventId: string,
  userId: string,
): Promise<{ event: EventRow; me: MembershipRow }> {
  const [event] = await tx.select().from(events).where(eq(events.id, eventId)).limit(1)
  if (!event) throw eventNotFound()
  return { event, me: await requireMembershipOr(tx, event.bubleId, userId, eventNotFound) }
}

/** The event's fields or RSVPs changed: a new version, so devices pull it again. */
async function touchEvent(w: SyncWriter, event: EventRow, set: Partial<EventRow> = {}): Promise<void> {
  await w.tx
    .update(events)
    .set({ ...set, version: NEXT_VERSION })
    .where(eq(events.id, event.id))
  w.changed(event.bubleId, 'event')
}

/** The RSVPs go with it; devices get a `del`. Members' and platform admins' deletes alike. */
async function removeEvent(w: SyncWriter, event: EventRow): Promise<void> {
  await w.tx.delete(events).where(eq(events.id, event.id))
  await w.deleted('event', event.bubleId, [event.id])
}

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

  async function requireManager(tx: Executor, eventId: string, userId: string): Promise<EventRow> {
    const { event, me } = await eventFor(tx, eventId, userId)
    if (!mayManageContent(actorOf(me), 'event', event.creatorId)) throw forbidden(EVENT_MESSAGES.notAllowedToManage)
    return event
  }

  return {
    /** A new event; the same client id again answers the event made with it. */
    async createEvent(user: UserRow, bubleId: string, body: CreateEventBody): Promise<Created<BubleEvent>> {
      return syncWrite(db, async (w) => {
        const me = await requireMembership(w.tx, bubleId, user.id)
        if (!can(actorOf(me), 'event.create')) throw forbidden(EVENT_MESSAGES.notAllowedToCreate)
        const id = body.id ?? uuidv7()
        // The event made with this id, only while it is in this buble (of which the caller is a member).
        if ((await claimTableRowId(w.tx, events, id, 'event', user.id, eq(events.bubleId, bubleId))) === 'existing')
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
        const event = await requireManager(w.tx, eventId, user.id)
        await touchEvent(w, event, changesOf(body))
        return loadEvent(w.tx, eventId)
      })
    },

    /** Creator, owner or manage_events; the RSVPs go with it, devices get a `del`. */
    async deleteEvent(user: UserRow, eventId: string): Promise<void> {
      await syncWrite(db, async (w) => {
        await removeEvent(w, await requireManager(w.tx, eventId, user.id))
      })
    },

    /** A platform admin's edit (CONTRACT §3.4): no membership needed, the same sync write; answers the stored row. */
    async adminUpdateEvent(eventId: string, body: UpdateEventBody): Promise<EventRow> {
      return syncWrite(db, async (w) => {
        const [event] = await w.tx.select().from(events).where(eq(events.id, eventId)).limit(1)
        if (!event) throw eventNotFound()
        await touchEvent(w, event, changesOf(body))
        return event
      })
    },

    /** A platform admin's delete: as `deleteEvent`, without the membership check; answers the deleted row. */
    async adminDeleteEvent(eventId: string): Promise<EventRow> {
      return syncWrite(db, async (w) => {
        const [event] = await w.tx.select().from(events).where(eq(events.id, eventId)).limit(1).for('update')
        if (!event) throw eventNotFound()
        await removeEvent(w, event)
        return event
      })
    },

    /** Any member answers; a new answer replaces the earlier one, the same answer again changes nothing. */
    async rsvp(user: UserRow, eventId: string, status: RsvpStatus): Promise<BubleEvent> {
      return syncWrite(db, async (w) => {
        const { event } = await eventFor(w.tx, eventId, user.id)
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
        if (changed.length > 0) await touchEvent(w, event)
        return loadEvent(w.tx, eventId)
      })
    },

    /** An event and its buble's name, for a member (the calendar file). */
    async forCalendar(
      user: UserRow,
      eventId: string,
    ): Promise<{ event: BubleEvent; bubleName: string; updatedAt: Date }> {
      const { event: row } = await eventFor(db, eventId, user.id)
      const [buble] = await db.select({ name: bubles.name }).from(bubles).where(eq(bubles.id, row.bubleId)).limit(1)
      return { event: await loadEvent(db, eventId), bubleName: buble?.name ?? '', updatedAt: row.updatedAt }
    },
  }
}
