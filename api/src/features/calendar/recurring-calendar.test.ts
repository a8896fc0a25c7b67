import { randomUUID } from 'node:crypto'
import { occurrences } from '@buble/shared/recurrence'
import ICAL from 'ical.js'
import { describe, expect, test } from 'vitest'
import { eventRsvps } from '../../db/schema.ts'
import type { ContentAdded } from '../../lib/content-added.ts'
import { createScheduler } from '../../lib/jobs.ts'
import { createLogger } from '../../lib/log.ts'
import { backends } from '../../testing/databases.ts'
import { mutation, push } from '../../testing/sync.ts'
import { clubSuite, type Person } from '../../testing/test-club.ts'

/**
 * Repeating events in the calendar feed and the reminders (decisions 96, 97): a series is one
 * VEVENT with its RRULE and EXDATEs on Stockholm's clock, an occurrence changed on its own goes
 * under the series' UID with a RECURRENCE-ID (read back and expanded by ical.js), and a member is
 * reminded of each occurrence they answered, and only those.
 */

// Tuesday 13 October 2026, 18:00 in Stockholm; the clocks go back on 25 October.
const START = '2026-10-13T16:00:00.000Z'
const WEEK2 = '2026-10-20T16:00:00.000Z'
const WEEK3 = '2026-10-27T17:00:00.000Z'
const WEEK4 = '2026-11-03T17:00:00.000Z'
const HOUR = 3_600_000

describe.each(backends())('repeating events in the calendar on %s', (backend) => {
  const { h, call, club, expectStatus } = clubSuite(backend)

  const series = async (who: Person, bubleId: string, title: string, eventTime: string, recurrence: string) =>
    expectStatus(
      await call(who, 'POST', `/api/bubles/${bubleId}/events`, { title, event_time: eventTime, recurrence }),
      201,
    )

  test('the feed: one VEVENT with RRULE and EXDATE, the moved occurrence under its UID with RECURRENCE-ID', async () => {
    const k = await club()
    const run = await series(k.owner, k.bubleId, 'Run', START, 'FREQ=WEEKLY;COUNT=4')
    const hillId = randomUUID()
    const moved = await call(k.owner, 'PUT', `/api/events/${run.id}`, {
      scope: 'this',
      occurrence: WEEK2,
      new_id: hillId,
      event_time: '2026-10-21T16:00:00.000Z',
      location: 'The hill',
    })
    expect(moved.status).toBe(200)
    expect((await call(k.owner, 'DELETE', `/api/events/${run.id}?occurrence=${WEEK4}`)).status).toBe(204)

    const settings = await expectStatus(await call(k.member, 'GET', '/api/users/calendar'), 200)
    const res = await h().call('GET', new URL(settings.feed_http_url).pathname)
    expect(res.status).toBe(200)
    const text = await res.text()
    expect(text).toContain('RRULE:FREQ=WEEKLY;COUNT=4\r\n')
    // The moved occurrence is overridden, not excluded; the cancelled one is excluded.
    expect(text).toContain('EXDATE;TZID=Europe/Stockholm:20261103T180000\r\n')
    expect(text).not.toContain('EXDATE;TZID=Europe/Stockholm:20261020T180000')

    const vevents = new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent')
    expect(vevents.map((v) => v.getFirstPropertyValue('uid'))).toEqual([`${run.id}@buble`, `${run.id}@buble`])
    const master = vevents.find((v) => !v.hasProperty('recurrence-id'))!
    const exception = vevents.find((v) => v.hasProperty('recurrence-id'))!
    const event = new ICAL.Event(master)
    event.relateException(exception)
    const expand = event.iterator()
    const seen: [string, string][] = []
    const instants: string[] = []
    for (let next = expand.next(); next; next = expand.next()) {
      const details = event.getOccurrenceDetails(next)
      seen.push([details.startDate.toString(), details.item.location ?? ''])
      expect(details.startDate.zone?.tzid).toBe('Europe/Stockholm')
      instants.push(details.startDate.toJSDate().toISOString())
    }
    // On Stockholm's clock across the change of time: the second moved to Wednesday, the fourth cancelled.
    expect(seen).toEqual([
      ['2026-10-13T18:00:00', ''],
      ['2026-10-21T18:00:00', 'The hill'],
      ['2026-10-27T18:00:00', ''],
    ])
    // The TZID is defined in the file (RFC 5545 §3.2.19: a VTIMEZONE for each TZID), so a calendar
    // anywhere places them at the right instants, not at 18:00 of its own clock.
    expect(text.match(/^BEGIN:VTIMEZONE\r$/gm)).toHaveLength(1)
    expect(text).toContain('BEGIN:VTIMEZONE\r\nTZID:Europe/Stockholm\r\n')
    expect(instants).toEqual([START, '2026-10-21T16:00:00.000Z', '2026-10-27T17:00:00.000Z'])

    // The changed occurrence deleted too: the series takes it out (EXDATE), and nothing replaces it.
    expect((await call(k.owner, 'DELETE', `/api/events/${hillId}`)).status).toBe(204)
    const after = await (await h().call('GET', new URL(settings.feed_http_url).pathname)).text()
    expect(after).toContain('EXDATE;TZID=Europe/Stockholm:20261020T180000\r\n')
    expect(after).not.toContain('RECURRENCE-ID')
    const left = new ICAL.Event(new ICAL.Component(ICAL.parse(after)).getFirstSubcomponent('vevent')!).iterator()
    const starts: string[] = []
    for (let next = left.next(); next; next = left.next()) starts.push(next.toJSDate().toISOString())
    expect(starts).toEqual([START, '2026-10-27T17:00:00.000Z'])
  })

  test('“all events” moving a series moves its changed occurrence with it; made single, the changed one is an event of its own', async () => {
    const k = await club()
    const run = await series(k.owner, k.bubleId, 'Run', START, 'FREQ=WEEKLY;COUNT=4')
    const hillId = randomUUID()
    await expectStatus(
      await call(k.owner, 'PUT', `/api/events/${run.id}`, {
        scope: 'this',
        occurrence: WEEK2,
        new_id: hillId,
        event_time: '2026-10-21T16:00:00.000Z',
        location: 'The hill',
      }),
      200,
    )
    const settings = await expectStatus(await call(k.member, 'GET', '/api/users/calendar'), 200)
    const feed = async () => {
      const res = await h().call('GET', new URL(settings.feed_http_url).pathname)
      expect(res.status).toBe(200)
      return new ICAL.Component(ICAL.parse(await res.text())).getAllSubcomponents('vevent')
    }
    const listed = async () =>
      (await expectStatus(await call(k.member, 'GET', `/api/bubles/${k.bubleId}/events`), 200)) as {
        id: string
        series_id: string | null
        recurrence_id: string | null
      }[]

    // Every occurrence an hour later (19:00): the changed one's start in the series moves with them.
    await expectStatus(
      await call(k.owner, 'PUT', `/api/events/${run.id}`, { event_time: '2026-10-13T17:00:00.000Z' }),
      200,
    )
    expect((await listed()).find((e) => e.id === hillId)).toMatchObject({
      series_id: run.id,
      recurrence_id: '2026-10-20T17:00:00.000Z',
    })
    const vevents = await feed()
    const master = vevents.find((v) => !v.hasProperty('recurrence-id'))!
    const event = new ICAL.Event(master)
    for (const exception of vevents.filter((v) => v.hasProperty('recurrence-id'))) event.relateException(exception)
    const seen: [string, string][] = []
    const expand = event.iterator()
    for (let next = expand.next(); next; next = expand.next()) {
      const details = event.getOccurrenceDetails(next)
      seen.push([details.startDate.toJSDate().toISOString(), details.item.location ?? ''])
    }
    expect(seen).toEqual([
      ['2026-10-13T17:00:00.000Z', ''],
      ['2026-10-21T16:00:00.000Z', 'The hill'],
      ['2026-10-27T18:00:00.000Z', ''],
      ['2026-11-03T18:00:00.000Z', ''],
    ])

    // No longer repeating: the changed occurrence stays, an event of its own under its own UID.
    await expectStatus(await call(k.owner, 'PUT', `/api/events/${run.id}`, { recurrence: null }), 200)
    expect((await listed()).find((e) => e.id === hillId)).toMatchObject({ series_id: null, recurrence_id: null })
    const single = await feed()
    expect(single.map((v) => [v.getFirstPropertyValue('uid'), v.hasProperty('recurrence-id')]).sort()).toEqual(
      [
        [`${run.id}@buble`, false],
        [`${hillId}@buble`, false],
      ].sort(),
    )
  })

  test('“this and following events” in the feed: the series ends before, a new UID carries the rest; each change is a new SEQUENCE', async () => {
    const k = await club()
    const run = await series(k.owner, k.bubleId, 'Run', START, 'FREQ=WEEKLY;COUNT=4')
    const settings = await expectStatus(await call(k.member, 'GET', '/api/users/calendar'), 200)
    /** Each UID's VEVENT: [its SEQUENCE, its occurrences' instants and locations], as ical.js expands them. */
    const feed = async () => {
      const res = await h().call('GET', new URL(settings.feed_http_url).pathname)
      expect(res.status).toBe(200)
      const byUid = new Map<string, [number, string[]]>()
      for (const vevent of new ICAL.Component(ICAL.parse(await res.text())).getAllSubcomponents('vevent')) {
        const event = new ICAL.Event(vevent)
        const seen: string[] = []
        const expand = event.iterator()
        for (let next = expand.next(); next; next = expand.next())
          seen.push(`${next.toJSDate().toISOString()} ${event.location ?? ''}`.trim())
        byUid.set(event.uid, [Number(vevent.getFirstPropertyValue('sequence')), seen])
      }
      return byUid
    }
    const [first] = (await feed()).get(`${run.id}@buble`)!

    h().clock.advance(5_000)
    const restId = randomUUID()
    await expectStatus(
      await call(k.owner, 'PUT', `/api/events/${run.id}`, {
        scope: 'following',
        occurrence: WEEK3,
        new_id: restId,
        location: 'The track',
      }),
      200,
    )
    const split = await feed()
    expect([...split.keys()].sort()).toEqual([`${run.id}@buble`, `${restId}@buble`].sort())
    const [afterSplit, before] = split.get(`${run.id}@buble`)!
    expect(before).toEqual([START, WEEK2])
    expect(afterSplit).toBeGreaterThan(first)
    expect(split.get(`${restId}@buble`)![1]).toEqual([`${WEEK3} The track`, `${WEEK4} The track`])

    // Cancelling one occurrence is an edit of its series too: a higher SEQUENCE, that start gone.
    h().clock.advance(5_000)
    expect((await call(k.owner, 'DELETE', `/api/events/${run.id}?occurrence=${WEEK2}`)).status).toBe(204)
    const [afterCancel, left] = (await feed()).get(`${run.id}@buble`)!
    expect(left).toEqual([START])
    expect(afterCancel).toBeGreaterThan(afterSplit)
  })

  test('reminders: each occurrence a member answered going or maybe, and no other', async () => {
    const k = await club()
    const heard: ContentAdded[] = []
    const stop = h().services.contentAdded.listen((added) => {
      if (added.recipients) heard.push(added)
    })
    try {
      const first = new Date(Math.ceil((h().clock.now.getTime() + 3 * HOUR) / 60_000) * 60_000).toISOString()
      const run = await series(k.owner, k.bubleId, 'Run', first, 'FREQ=WEEKLY;COUNT=3')
      const [, second, third] = occurrences(run)
      const answer = async (who: Person, status: string, occurrence: string) =>
        expectStatus(await call(who, 'POST', `/api/events/${run.id}/rsvp`, { status, occurrence }), 200)
      await answer(k.owner, 'going', first)
      await answer(k.member, 'maybe', second as string)
      await answer(k.admin, 'cant_go', second as string)
      // The third is cancelled: nobody is reminded of it.
      await answer(k.owner, 'going', third as string)
      expect((await call(k.owner, 'DELETE', `/api/events/${run.id}?occurrence=${third}`)).status).toBe(204)
      // An answer to it afterwards, online or queued offline, is refused.
      const refused = await call(k.member, 'POST', `/api/events/${run.id}/rsvp`, { status: 'going', occurrence: third })
      expect(refused.status).toBe(400)
      expect(await refused.json()).toMatchObject({ message: 'The event does not take place at that time' })
      const [queued] = await push(h(), k.member.token, [
        mutation('event.rsvp', { event_id: run.id, status: 'maybe', occurrence: third }),
      ])
      expect([queued?.status, queued?.code]).toEqual(['rejected', 'VALIDATION_ERROR'])
      // Even an answer the cancel left behind (written past the service) reminds nobody: the job
      // itself skips a cancelled occurrence.
      await h()
        .database.db.insert(eventRsvps)
        .values({ eventId: run.id, userId: k.admin.id, status: 'going', occurrence: third as string })

      const job = h().services.jobs.find((j) => j.name === 'event-reminders')!
      const runAt = async (at: string) => {
        const before = heard.length
        await createScheduler(h().database, [job], createLogger('silent')).runOnce(
          new Date(Date.parse(at) - HOUR + 30_000),
        )
        return heard.slice(before).map((n) => [n.title, n.recipients])
      }
      expect(await runAt(first)).toEqual([['Run starts in 1 hour', [k.owner.id]]])
      expect(await runAt(second as string)).toEqual([['Run starts in 1 hour', [k.member.id]]])
      expect(await runAt(third as string)).toEqual([])
    } finally {
      stop()
    }
  })
})
