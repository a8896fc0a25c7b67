/** The events' REST calls (CONTRACT §3.3) and "add to calendar": thin adapters over the services. */

import { CreateEventBody, EventTime, RsvpBody, UpdateEventBody } from '@buble/shared/events'
import { Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../lib/auth.ts'
import { sendJsonAnswer } from '../../lib/json-answers.ts'
import { describe } from '../../lib/openapi.ts'
import { bubleIdFromPath, idFromPath } from '../../lib/path-ids.ts'
import { validate } from '../../lib/validate.ts'
import { calendarDisposition, eventCalendar } from './calendar.ts'
import type { EventLists } from './lists.ts'
import { type EventsService, eventNotFound } from './service.ts'

const eventIdOf = (raw: string) => idFromPath(raw, eventNotFound)

/** `?occurrence=`: of a repeating event, the one occurrence a delete cancels. */
const DeleteEventQuery = z.object({ occurrence: EventTime.optional() })

export interface EventsRouteDeps {
  events: EventsService
  lists: EventLists
  now: () => Date
}

export function eventsRoutes({ events, lists, now }: EventsRouteDeps) {
  const tag = 'events'
  return new Hono<AppEnv>()
    .get('/bubles/:id/events', describe({ tag, summary: "A buble's events, soonest first" }), async (c) =>
      sendJsonAnswer(c, await lists.events(c.var.user.id, bubleIdFromPath(c.req.param('id')))),
    )
    .post(
      '/bubles/:id/events',
      describe({ tag, summary: 'Create an event (create_events; the same id again answers it)', status: 201 }),
      validate('json', CreateEventBody),
      async (c) => {
        const bubleId = bubleIdFromPath(c.req.param('id'))
        const { value, created } = await events.createEvent(c.var.user, bubleId, c.req.valid('json'))
        return c.json(value, created ? 201 : 200)
      },
    )
    .put(
      '/events/:id',
      describe({ tag, summary: 'Edit an event (creator, owner or manage_events)' }),
      validate('json', UpdateEventBody),
      async (c) => c.json(await events.updateEvent(c.var.user, eventIdOf(c.req.param('id')), c.req.valid('json'))),
    )
    .delete(
      '/events/:id',
      describe({
        tag,
        summary: 'Delete an event, or one occurrence of a repeating one (creator, owner or manage_events)',
        status: 204,
      }),
      validate('query', DeleteEventQuery),
      async (c) => {
        await events.deleteEvent(c.var.user, eventIdOf(c.req.param('id')), c.req.valid('query').occurrence)
        return c.body(null, 204)
      },
    )
    .post(
      '/events/:id/rsvp',
      describe({
        tag,
        summary: 'Answer an event, of a repeating one an occurrence (a new answer replaces the earlier one)',
      }),
      validate('json', RsvpBody),
      async (c) => {
        const { status, occurrence } = c.req.valid('json')
        return c.json(await events.rsvp(c.var.user, eventIdOf(c.req.param('id')), status, occurrence))
      },
    )
    .get(
      '/events/:id/calendar.ics',
      describe({ tag, summary: 'The event as an iCalendar file (RFC 5545), to add to a calendar' }),
      async (c) => {
        const found = await events.forCalendar(c.var.user, eventIdOf(c.req.param('id')))
        return c.body(eventCalendar({ ...found, now: now() }), 200, {
          'content-type': 'text/calendar; charset=utf-8',
          'content-disposition': calendarDisposition(found.event.title),
        })
      },
    )
}
