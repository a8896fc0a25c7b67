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
import { isOccurrence, RECURRENCE_MESSAGES, seriesProblem, splitSeries } from '@buble/shared/recurrence'
import { and, eq, gte, ne, sql } from 'drizzle-orm'
import { v7 as uuidv7 } from 'uuid'
import { bubles, eventRsvps, events } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import type { UserRow } from '../../lib/accounts.ts'
import type { ContentAddedBus } from '../../lib/content-added.ts'
import { contentKit } from '../../lib/content-kit.ts'
import type { Created } from '../../lib/entity-ids.ts'
import { forbidden, notFound, validationError } from '../../lib/errors.ts'
import { memberActorOf, requireMembership, requireWriter } from '../../lib/memberships.ts'
import { NEXT_VERSION, type SyncWriter, syncWrite } from '../../lib/sync-writes.ts'
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

const refuse = (path: string, message: string) => validationError([{ path: [path], message }])

/** A row as the recurrence rules read it. */
const seriesOf = (row: EventRow) => ({
  event_time: row.eventTime.toISOString(),
  recurrence: row.recurrence,
  exdates: row.exdates.map((date) => date.toISOString()),
})

/** A rule that does not fit its first time (or ends too late) is refused. */
function checkSeries(eventTime: string, recurrence: string | null): void {
  const problem = seriesProblem(eventTime, recurrence)
  if (problem) throw refuse('recurrence', problem)
}

/** The RSVP key of an answer: the occurrence's start for a repeating event, '' otherwise (decision 97). */
function occurrenceKey(event: EventRow, occurrence: string | undefined): string {
  if (event.recurrence === null) {
    if (occurrence !== undefined) throw refuse('occurrence', RECURRENCE_MESSAGES.occurrenceNotAllowed)
    return ''
  }
  if (occurrence === undefined) throw refuse('occurrence', RECURRENCE_MESSAGES.occurrenceRequired)
  if (!isOccurrence(seriesOf(event), occurrence)) throw refuse('occurrence', RECURRENCE_MESSAGES.occurrenceNotFound)
  return new Date(occurrence).toISOString()
}

const shifted = (iso: string, by: number) => new Date(Date.parse(iso) + by).toISOString()

export function eventsService({ db, now }: Deps, contentAdded: ContentAddedBus) {
  /** What an edit body changes on the row (a member's edit and a platform admin's alike). */
  const changesOf = (body: UpdateEventBody): Partial<EventRow> => ({
    ...(body.title !== undefined && { title: body.title }),
    ...(body.description !== undefined && { description: body.description }),
    ...(body.location !== undefined && { location: body.location }),
    ...(body.event_time !== undefined && { eventTime: new Date(body.event_time) }),
    ...(body.recurrence !== undefined && { recurrence: body.recurrence }),
    updatedAt: now(),
  })

  /** An edit of the whole event (every occurrence): its rule checked against its time as they will be. */
  async function editAll(w: SyncWriter, event: EventRow, body: UpdateEventBody): Promise<void> {
    if (body.recurrence != null && event.seriesId !== null)
      throw refuse('recurrence', RECURRENCE_MESSAGES.exceptionRepeats)
    const recurrence = body.recurrence !== undefined ? body.recurrence : event.recurrence
    if (body.recurrence !== undefined || body.event_time !== undefined)
      checkSeries(body.event_time ?? event.eventTime.toISOString(), recurrence)
    const oldTime = event.eventTime.toISOString()
    const newTime = body.event_time ?? oldTime
    const by = Date.parse(newTime) - Date.parse(oldTime)
    if (by === 0 && recurrence === event.recurrence) return kit.touch(w, event, changesOf(body))
    // Moved in time, or repeating otherwise: taken-out dates and answers move with it, where they
    // still fall on an occurrence (a single event's answer is its first occurrence's, and back).
    const exdates = event.exdates.map((date) => new Date(date.getTime() + by))
    const moved = { event_time: newTime, recurrence, exdates: exdates.map((d) => d.toISOString()) }
    const answers = await w.tx.delete(eventRsvps).where(eq(eventRsvps.eventId, event.id)).returning()
    const kept = answers.flatMap((rsvp) => {
      const at = shifted(rsvp.occurrence || oldTime, by)
      if (recurrence === null) return at === newTime ? [{ ...rsvp, occurrence: '' }] : []
      return isOccurrence(moved, at) ? [{ ...rsvp, occurrence: at }] : []
    })
    if (kept.length > 0) await w.tx.insert(eventRsvps).values(kept)
    // Occurrences changed on their own move too, so each still replaces its start in the series
    // (a calendar matches it by RECURRENCE-ID). One whose start is no longer the series' (or of a
    // series made single) stays as an event of its own.
    const changed = await w.tx.select().from(events).where(eq(events.seriesId, event.id))
    const rule = { ...moved, exdates: [] }
    for (const row of changed) {
      const at = row.recurrenceId === null ? null : shifted(row.recurrenceId.toISOString(), by)
      const still = at !== null && recurrence !== null && isOccurrence(rule, at)
      if (still && by === 0) continue
      await kit.touch(w, row, still ? { recurrenceId: new Date(at) } : { seriesId: null, recurrenceId: null })
    }
    await kit.touch(w, event, { ...changesOf(body), exdates: recurrence === null ? [] : exdates })
  }

  /** A new event row from a series' fields and an edit's (a changed occurrence, or the series after a split). */
  async function insertFrom(
    w: SyncWriter,
    series: EventRow,
    body: UpdateEventBody,
    row: {
      id: string
      eventTime: string
      recurrence: string | null
      exdates: Date[]
      seriesId: string | null
      recurrenceId: Date | null
    },
  ): Promise<void> {
    const version = await w.takeVersion()
    const at = now()
    await w.tx.insert(events).values({
      id: row.id,
      bubleId: series.bubleId,
      creatorId: series.creatorId,
      title: body.title ?? series.title,
      description: body.description !== undefined ? body.description : series.description,
      location: body.location !== undefined ? body.location : series.location,
      eventTime: new Date(row.eventTime),
      externalUrl: series.externalUrl,
      externalSource: series.externalSource,
      recurrence: row.recurrence,
      exdates: row.exdates,
      seriesId: row.seriesId,
      recurrenceId: row.recurrenceId,
      createdAt: at,
      updatedAt: at,
      // Not new content (a part of its series, which counted when it was added): never unread.
      addedVersion: 0,
      version,
    })
    w.changed(series.bubleId, 'event')
  }

  /** "This event": the occurrence becomes an event of its own (`newId`), taken out of the series with its answers. */
  async function editThis(w: SyncWriter, series: EventRow, occurrence: string, newId: string, body: UpdateEventBody) {
    await insertFrom(w, series, body, {
      id: newId,
      eventTime: body.event_time ?? occurrence,
      recurrence: null,
      exdates: [],
      seriesId: series.id,
      recurrenceId: new Date(occurrence),
    })
    await w.tx
      .update(eventRsvps)
      .set({ eventId: newId, occurrence: '' })
      .where(and(eq(eventRsvps.eventId, series.id), eq(eventRsvps.occurrence, occurrence)))
    await kit.touch(w, series, { exdates: [...series.exdates, new Date(occurrence)], updatedAt: now() })
  }

  /**
   * "This and following events": the series ends the second before `occurrence`; a new series
   * (`newId`) starts there (or at the edit's time), with what is left of the count, the later
   * taken-out dates, changed occurrences and answers, moved as far as the start moved.
   */
  async function editFollowing(
    w: SyncWriter,
    series: EventRow & { recurrence: string },
    occurrence: string,
    newId: string,
    body: UpdateEventBody,
  ) {
    const start = body.event_time ?? occurrence
    const by = Date.parse(start) - Date.parse(occurrence)
    const { before, after } = splitSeries(
      seriesOf(series) as ReturnType<typeof seriesOf> & { recurrence: string },
      occurrence,
      start,
      body.recurrence,
    )
    checkSeries(start, after)
    const from = Date.parse(occurrence)
    const later = series.exdates.filter((date) => date.getTime() >= from)
    const next = { event_time: start, recurrence: after, exdates: later.map((date) => shifted(date.toISOString(), by)) }
    await insertFrom(w, series, body, {
      id: newId,
      eventTime: start,
      recurrence: after,
      exdates: after === null ? [] : next.exdates.map((date) => new Date(date)),
      seriesId: null,
      recurrenceId: null,
    })
    // Answers of the occurrences from `occurrence` on follow them to the new series, where they still fall on one.
    const moved = await w.tx
      .delete(eventRsvps)
      .where(and(eq(eventRsvps.eventId, series.id), gte(eventRsvps.occurrence, occurrence)))
      .returning()
    const keep = moved.flatMap((rsvp) => {
      const at = shifted(rsvp.occurrence, by)
      if (after === null) return at === start ? [{ ...rsvp, eventId: newId, occurrence: '' }] : []
      return isOccurrence(next, at) ? [{ ...rsvp, eventId: newId, occurrence: at }] : []
    })
    if (keep.length > 0) await w.tx.insert(eventRsvps).values(keep)
    // Occurrences changed on their own belong to the new series from now on.
    const detached = await w.tx
      .update(events)
      .set({
        seriesId: newId,
        recurrenceId: sql`${events.recurrenceId} + make_interval(secs => ${by / 1000})`,
        version: NEXT_VERSION,
      })
      .where(and(eq(events.seriesId, series.id), gte(events.recurrenceId, new Date(from))))
      .returning({ id: events.id })
    if (detached.length > 0) w.changed(series.bubleId, 'event')
    await kit.touch(w, series, {
      recurrence: before,
      exdates: series.exdates.filter((date) => date.getTime() < from),
      updatedAt: now(),
    })
  }

  /** A series goes with the occurrences changed on their own: devices get a `del` for each. */
  async function removeWithExceptions(w: SyncWriter, event: EventRow): Promise<void> {
    const detached = await w.tx.select().from(events).where(eq(events.seriesId, event.id))
    for (const row of detached) await kit.remove(w, row)
    await kit.remove(w, event)
  }

  return {
    /** A new event; the same client id again answers the event made with it. */
    async createEvent(user: UserRow, bubleId: string, body: CreateEventBody): Promise<Created<BubleEvent>> {
      return syncWrite(db, async (w) => {
        const me = await requireMembership(w.tx, bubleId, user.id)
        requireWriter(me, now())
        if (!can(memberActorOf(me), 'event.create')) throw forbidden(EVENT_MESSAGES.notAllowedToCreate)
        checkSeries(body.event_time, body.recurrence)
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
          recurrence: body.recurrence,
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

    /**
     * The fields sent change, the rest stay; creator, owner or manage_events. Of a repeating event,
     * `scope` says which occurrences: all, this one, or this and the following ones (decision 97).
     * Answers the edited event (the series, whose rule or exdates changed).
     */
    async updateEvent(user: UserRow, eventId: string, body: UpdateEventBody): Promise<BubleEvent> {
      const { scope = 'all', occurrence, new_id: newId, ...fields } = body
      return syncWrite(db, async (w) => {
        const event = await kit.forEdit(w.tx, eventId, user.id, now())
        if (scope === 'all') {
          await editAll(w, event, fields)
          return loadEvent(w.tx, eventId)
        }
        if (event.recurrence === null) throw refuse('scope', RECURRENCE_MESSAGES.scopeNotRecurring)
        if (occurrence === undefined || newId === undefined)
          throw refuse('occurrence', RECURRENCE_MESSAGES.scopeNeedsOccurrence)
        // From the first occurrence on is every occurrence: the series itself changes, no new event.
        if (scope === 'following' && occurrence === event.eventTime.toISOString()) {
          await editAll(w, event, fields)
          return loadEvent(w.tx, eventId)
        }
        // The same edit sent again (a retried push) finds its new event made: nothing more to do.
        if ((await kit.claim(w.tx, newId, user.id, eq(events.bubleId, event.bubleId))) === 'existing')
          return loadEvent(w.tx, eventId)
        if (!isOccurrence(seriesOf(event), occurrence))
          throw refuse('occurrence', RECURRENCE_MESSAGES.occurrenceNotFound)
        const series = { ...event, recurrence: event.recurrence }
        if (scope === 'this') await editThis(w, series, occurrence, newId, fields)
        else await editFollowing(w, series, occurrence, newId, fields)
        return loadEvent(w.tx, eventId)
      })
    },

    /**
     * Creator, owner or manage_events; the RSVPs go with it, devices get a `del` (a series' changed
     * occurrences too). With `occurrence`, only that occurrence of a repeating event is cancelled.
     */
    async deleteEvent(user: UserRow, eventId: string, occurrence?: string): Promise<void> {
      await syncWrite(db, async (w) => {
        const event = await kit.forAction(w.tx, eventId, user.id, 'content.delete')
        if (occurrence !== undefined) {
          const key = occurrenceKey(event, occurrence)
          await w.tx.delete(eventRsvps).where(and(eq(eventRsvps.eventId, eventId), eq(eventRsvps.occurrence, key)))
          await kit.touch(w, event, { exdates: [...event.exdates, new Date(key)], updatedAt: now() })
          return
        }
        await removeWithExceptions(w, event)
      })
    },

    /** A platform admin's edit (CONTRACT §3.4): no membership needed, the same sync write; answers the stored row. */
    async adminUpdateEvent(eventId: string, body: UpdateEventBody): Promise<EventRow> {
      return syncWrite(db, async (w) => {
        const event = await kit.find(w.tx, eventId)
        await editAll(w, event, body)
        return event
      })
    },

    /** A platform admin's delete: as `deleteEvent`, without the membership check; answers the deleted row. */
    async adminDeleteEvent(eventId: string): Promise<EventRow> {
      return syncWrite(db, async (w) => {
        const event = await kit.find(w.tx, eventId, true)
        await removeWithExceptions(w, event)
        return event
      })
    },

    /** Any member answers; a new answer replaces the earlier one, the same answer again changes nothing. */
    async rsvp(user: UserRow, eventId: string, status: RsvpStatus, occurrence?: string): Promise<BubleEvent> {
      return syncWrite(db, async (w) => {
        const { row: event } = await kit.forWriter(w.tx, eventId, user.id, now())
        const key = occurrenceKey(event, occurrence)
        const at = now()
        const changed = await w.tx
          .insert(eventRsvps)
          .values({ eventId, userId: user.id, status, occurrence: key, createdAt: at, updatedAt: at })
          .onConflictDoUpdate({
            target: [eventRsvps.eventId, eventRsvps.userId, eventRsvps.occurrence],
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
