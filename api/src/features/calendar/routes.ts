/** The calendar settings of the signed-in member, and the private feed (public: its secret is the credential). */

import { CalendarSettings, UpdateCalendarSettingsBody } from '@buble/shared/calendar'
import { Hono } from 'hono'
import { etag } from 'hono/etag'
import type { AppEnv } from '../../lib/auth.ts'
import { describe } from '../../lib/openapi.ts'
import { validate } from '../../lib/validate.ts'
import { type CalendarService, feedNotFound } from './service.ts'

const tag = 'calendar'

/** Under /api/users/calendar: the signed-in member's settings (beside /api/users/profile). */
export function calendarSettingsRoutes(calendar: CalendarService) {
  return new Hono<AppEnv>()
    .get(
      '/',
      describe({
        tag,
        summary: 'Your event reminder choice and private calendar feed address',
        response: CalendarSettings,
      }),
      async (c) => c.json(await calendar.settings(c.var.user)),
    )
    .put(
      '/',
      describe({ tag, summary: 'Choose when events remind you', response: CalendarSettings }),
      validate('json', UpdateCalendarSettingsBody),
      async (c) => c.json(await calendar.updateSettings(c.var.user, c.req.valid('json'))),
    )
    .post(
      '/reset-feed',
      describe({ tag, summary: 'A new feed address; the old one answers 404', response: CalendarSettings }),
      async (c) => c.json(await calendar.resetFeed(c.var.user)),
    )
}

/** Under /api/calendar, public: every path there is a feed, its secret the credential. */
export function calendarFeedRoutes(calendar: CalendarService) {
  return new Hono<AppEnv>().get(
    '/:file',
    describe({ tag, summary: 'Your events as an iCalendar feed (RFC 5545), by its secret address', auth: false }),
    // Calendar apps poll the feed: one that asks again with the ETag it has gets a bodiless 304 while
    // nothing changed (the feed's bytes follow its events alone: DTSTAMP is each event's last edit).
    etag(),
    async (c) => {
      const file = c.req.param('file')
      if (!file.endsWith('.ics')) throw feedNotFound()
      return c.body(await calendar.feed(file.slice(0, -'.ics'.length)), 200, {
        'content-type': 'text/calendar; charset=utf-8',
        // The address is a credential: no shared cache keeps the answer.
        'cache-control': 'private, no-cache',
      })
    },
  )
}
