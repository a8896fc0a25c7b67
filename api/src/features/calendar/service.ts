/**
 * A member's calendar settings and private feed (issue 23 §3, decision 96). The feed's secret is
 * derived from the signing key, the member's id and a serial, so the profile can show it again while
 * the database holds only its SHA-256; a reset bumps the serial and the old address answers 404.
 */

import type { CalendarSettings, UpdateCalendarSettingsBody } from '@buble/shared/calendar'
import { asc, eq, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { bubles, events, memberships, users } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import type { UserRow } from '../../lib/accounts.ts'
import { notFound } from '../../lib/errors.ts'
import { eventOccurrences } from '../../lib/event-occurrences.ts'
import { addCalendarEvent, calendarText, newCalendar } from '../../lib/ical-events.ts'
import { hashOneTimeToken } from '../../lib/tokens.ts'

const FEED_PURPOSE = 'calendar-feed'
/** A feed secret: 32 bytes of HMAC, base64url. */
export const FEED_SECRET = /^[A-Za-z0-9_-]{43}$/
export const feedNotFound = () => notFound('Calendar not found')

/** Every start is in the feed, past and future; a repeating event is one VEVENT with its RRULE. */
const FEED_FROM = new Date(-8.64e15)
const FEED_TO = new Date(8.64e15)

export type CalendarService = ReturnType<typeof calendarService>

export function calendarService({ db, tokens, config }: Pick<Deps, 'db' | 'tokens' | 'config'>) {
  const secretOf = (userId: string, serial: number) => tokens.derive(FEED_PURPOSE, `${userId}:${serial}`)

  /** The settings answer; stores the secret's hash when it is not stored yet (or the signing key changed). */
  async function settingsOf(
    exec: Executor,
    user: Pick<UserRow, 'id' | 'eventReminder' | 'calendarFeedSerial' | 'calendarFeedHash'>,
  ): Promise<CalendarSettings> {
    const secret = secretOf(user.id, user.calendarFeedSerial)
    const hash = hashOneTimeToken(secret)
    if (user.calendarFeedHash !== hash)
      await exec.update(users).set({ calendarFeedHash: hash }).where(eq(users.id, user.id))
    const address = new URL(`/api/calendar/${secret}.ics`, `${config.publicUrl}/`)
    return {
      reminder: user.eventReminder,
      feed_url: `webcal://${address.host}${address.pathname}`,
      feed_http_url: address.toString(),
    }
  }

  async function current(exec: Executor, userId: string): Promise<UserRow> {
    const [row] = await exec.select().from(users).where(eq(users.id, userId)).limit(1)
    return row!
  }

  return {
    settings: async (user: UserRow): Promise<CalendarSettings> => settingsOf(db, await current(db, user.id)),

    async updateSettings(user: UserRow, body: UpdateCalendarSettingsBody): Promise<CalendarSettings> {
      const [row] = await db
        .update(users)
        .set({ eventReminder: body.reminder })
        .where(eq(users.id, user.id))
        .returning()
      return settingsOf(db, row!)
    },

    /** A new secret; the old address answers 404 from now on. */
    async resetFeed(user: UserRow): Promise<CalendarSettings> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(users)
          .set({ calendarFeedSerial: sql`${users.calendarFeedSerial} + 1`, calendarFeedHash: null })
          .where(eq(users.id, user.id))
          .returning()
        return settingsOf(tx, row!)
      })
    },

    /** The feed of the member whose secret this is: every event of every buble they belong to. */
    async feed(secret: string): Promise<string> {
      if (!FEED_SECRET.test(secret)) throw feedNotFound()
      const [owner] = await db
        .select({ id: users.id, serial: users.calendarFeedSerial })
        .from(users)
        .where(sql`${users.calendarFeedHash} = ${hashOneTimeToken(secret)} and ${users.status} = 'active'`)
        .limit(1)
      // The hash matched; the secret must also be the one of the member's current serial.
      if (!owner || secretOf(owner.id, owner.serial) !== secret) throw feedNotFound()
      const rows = await db
        .select({ event: events, bubleName: bubles.name })
        .from(memberships)
        .innerJoin(bubles, eq(bubles.id, memberships.bubleId))
        .innerJoin(events, eq(events.bubleId, memberships.bubleId))
        .where(eq(memberships.userId, owner.id))
        .orderBy(asc(events.eventTime), asc(events.id))
      const calendar = newCalendar('Buble')
      // Calendar apps that honour it look again hourly.
      calendar.ttl(60 * 60)
      // A series is one VEVENT with its RRULE (decision 97); an occurrence changed on its own goes
      // under the series' UID with its RECURRENCE-ID, in place of an EXDATE for that start.
      const overridden = new Set(
        rows.flatMap(({ event }) =>
          event.seriesId && event.recurrenceId ? [`${event.seriesId}:${event.recurrenceId.getTime()}`] : [],
        ),
      )
      for (const { event, bubleName } of rows) {
        const starts = event.recurrence ? [event.eventTime] : eventOccurrences(event, FEED_FROM, FEED_TO)
        for (const start of starts)
          addCalendarEvent(calendar, {
            id: event.id,
            title: event.title,
            description: event.description,
            location: event.location,
            url: event.externalUrl,
            bubleName,
            start,
            createdAt: event.createdAt,
            updatedAt: event.updatedAt,
            stamp: event.updatedAt,
            recurrence: event.recurrence,
            exdates: event.exdates.filter((date) => !overridden.has(`${event.id}:${date.getTime()}`)),
            seriesId: event.seriesId,
            recurrenceId: event.recurrenceId,
          })
      }
      return calendarText(calendar)
    },
  }
}
