import { randomUUID } from 'node:crypto'
import { occurrences } from '@buble/shared/recurrence'
import ICAL from 'ical.js'
import { describe, expect, test } from 'vitest'
import { backends } from '../../testing/databases.ts'
import { mutation, pullAll, push } from '../../testing/sync.ts'
import { clubSuite, type Person } from '../../testing/test-club.ts'

/**
 * Recurring events (issue 23 §3, decision 97): a series stored as an RRULE, RSVPs per occurrence,
 * "this event" and "this and following events", cancelling one occurrence, the same writes as
 * sync mutations, and rules that are refused with a clear 400.
 */

// Tuesday 13 October 2026, 18:00 in Stockholm (summer time); the clocks go back on 25 October.
const START = '2026-10-13T16:00:00.000Z'
const WEEK2 = '2026-10-20T16:00:00.000Z'
const WEEK3 = '2026-10-27T17:00:00.000Z'
const WEEK4 = '2026-11-03T17:00:00.000Z'

interface Answer {
  user_id: string
  status: string
  occurrence: string | null
}
interface EventAnswer {
  id: string
  event_time: string
  recurrence: string | null
  exdates: string[]
  series_id: string | null
  recurrence_id: string | null
  title: string
  rsvps: Answer[]
}

describe.each(backends())('recurring events on %s', (backend) => {
  const { h, call, club, expectStatus } = clubSuite(backend)

  const createSeries = async (who: Person, bubleId: string, body: Record<string, unknown> = {}) =>
    (await expectStatus(
      await call(who, 'POST', `/api/bubles/${bubleId}/events`, {
        title: 'Book club',
        event_time: START,
        recurrence: 'FREQ=WEEKLY;COUNT=4',
        ...body,
      }),
      201,
    )) as EventAnswer
  const list = async (who: Person, bubleId: string) =>
    (await expectStatus(await call(who, 'GET', `/api/bubles/${bubleId}/events`), 200)) as EventAnswer[]
  const rsvp = (who: Person, id: string, body: Record<string, unknown>) =>
    call(who, 'POST', `/api/events/${id}/rsvp`, body)

  test('a weekly series is stored as its RRULE and answered with its occurrences’ data', async () => {
    const k = await club()
    const series = await createSeries(k.creator, k.bubleId, { recurrence: 'RRULE:COUNT=4;FREQ=WEEKLY' })
    expect(series).toMatchObject({
      event_time: START,
      recurrence: 'FREQ=WEEKLY;COUNT=4',
      exdates: [],
      series_id: null,
      recurrence_id: null,
    })
    // Stockholm's wall clock: 18:00 before and after the change of time.
    expect(occurrences(series)).toEqual([START, WEEK2, WEEK3, WEEK4])
    const monthly = await createSeries(k.creator, k.bubleId, {
      recurrence: 'FREQ=MONTHLY;BYDAY=2TU;UNTIL=20270131T225959Z',
    })
    expect(monthly.recurrence).toBe('FREQ=MONTHLY;BYDAY=+2TU;UNTIL=20270131T225959Z')
  })

  test.each([
    ['FREQ=DAILY;COUNT=3', 'An event can repeat weekly, every two weeks or monthly'],
    ['FREQ=WEEKLY;INTERVAL=3;COUNT=3', 'An event can repeat weekly, every two weeks or monthly'],
    ['FREQ=WEEKLY', 'Choose when the event stops repeating: a date or a number of times'],
    ['FREQ=WEEKLY;COUNT=500', 'An event can repeat 2 to 100 times'],
    ['FREQ=WEEKLY;COUNT=3;UNTIL=20270101T000000Z', 'Choose either an end date or a number of times, not both'],
    [
      'FREQ=MONTHLY;BYDAY=2TU,3TU;COUNT=3',
      'A monthly event repeats on one day of the month or on one weekday of the month',
    ],
    ['not a rule', 'recurrence must be an RRULE such as FREQ=WEEKLY;COUNT=10'],
    ['FREQ=WEEKLY;UNTIL=20300101T000000Z', 'An event can repeat for at most 2 years'],
    ['FREQ=WEEKLY;UNTIL=20261001T000000Z', 'The end date must come after the first event'],
    ['FREQ=MONTHLY;BYDAY=1WE;COUNT=3', "The event's date and time must be the first time it repeats"],
  ])('the rule %s is refused: %s', async (recurrence, message) => {
    const k = await club()
    const res = await call(k.creator, 'POST', `/api/bubles/${k.bubleId}/events`, {
      title: 'Bad',
      event_time: START,
      recurrence,
    })
    expect(await expectStatus(res, 400)).toMatchObject({ code: 'VALIDATION_ERROR', message })
    expect(await list(k.owner, k.bubleId)).toEqual([])
  })

  test('RSVPs are per occurrence: each counts apart, a new answer replaces only that occurrence’s', async () => {
    const k = await club()
    const series = await createSeries(k.creator, k.bubleId)
    await expectStatus(await rsvp(k.member, series.id, { status: 'going', occurrence: WEEK2 }), 200)
    await expectStatus(await rsvp(k.member, series.id, { status: 'cant_go', occurrence: WEEK3 }), 200)
    await expectStatus(
      await rsvp(k.owner, series.id, { status: 'maybe', occurrence: '2026-10-20T18:00:00+02:00' }),
      200,
    )
    const changed = (await expectStatus(
      await rsvp(k.member, series.id, { status: 'maybe', occurrence: WEEK2 }),
      200,
    )) as EventAnswer
    const mine = (occurrence: string) =>
      changed.rsvps
        .filter((r) => r.occurrence === occurrence)
        .map((r) => [r.user_id, r.status])
        .sort()
    expect(mine(WEEK2)).toEqual(
      [
        [k.member.id, 'maybe'],
        [k.owner.id, 'maybe'],
      ].sort(),
    )
    expect(mine(WEEK3)).toEqual([[k.member.id, 'cant_go']])
    expect(changed.rsvps).toHaveLength(3)

    const refusals: [Record<string, unknown>, string][] = [
      [{ status: 'going' }, 'occurrence is required for a repeating event: the start of the one meant'],
      [{ status: 'going', occurrence: '2026-10-21T16:00:00Z' }, 'The event does not take place at that time'],
      [{ status: 'going', occurrence: '2026-11-10T17:00:00Z' }, 'The event does not take place at that time'],
    ]
    for (const [body, message] of refusals)
      expect(await expectStatus(await rsvp(k.member, series.id, body), 400)).toMatchObject({ message })
    const single = await createSeries(k.creator, k.bubleId, { recurrence: null })
    expect(
      await expectStatus(await rsvp(k.member, single.id, { status: 'going', occurrence: START }), 400),
    ).toMatchObject({ message: 'occurrence is only for repeating events' })
  })

  test('“all events”: a series moved an hour keeps its answers and cancelled dates; a single event made to repeat keeps its answer', async () => {
    const k = await club()
    const series = await createSeries(k.creator, k.bubleId)
    await expectStatus(await rsvp(k.member, series.id, { status: 'going', occurrence: WEEK3 }), 200)
    expect((await call(k.creator, 'DELETE', `/api/events/${series.id}?occurrence=${WEEK2}`)).status).toBe(204)
    const later = (iso: string) => new Date(Date.parse(iso) + 3600_000).toISOString()
    const moved = (await expectStatus(
      await call(k.creator, 'PUT', `/api/events/${series.id}`, { event_time: later(START) }),
      200,
    )) as EventAnswer
    expect(moved).toMatchObject({ event_time: later(START), exdates: [later(WEEK2)] })
    expect(moved.rsvps.map((r) => [r.occurrence, r.status])).toEqual([[later(WEEK3), 'going']])

    const single = await createSeries(k.creator, k.bubleId, { recurrence: null })
    await expectStatus(await rsvp(k.member, single.id, { status: 'maybe' }), 200)
    const repeating = (await expectStatus(
      await call(k.creator, 'PUT', `/api/events/${single.id}`, { recurrence: 'FREQ=WEEKLY;COUNT=2' }),
      200,
    )) as EventAnswer
    expect(repeating.rsvps.map((r) => [r.occurrence, r.status])).toEqual([[START, 'maybe']])
    const bad = await call(k.creator, 'PUT', `/api/events/${single.id}`, { recurrence: 'FREQ=DAILY;COUNT=2' })
    expect(await expectStatus(bad, 400)).toMatchObject({
      message: 'An event can repeat weekly, every two weeks or monthly',
    })
  })

  test('“this event”: the occurrence becomes an event of its own with its answers; the series skips it', async () => {
    const k = await club()
    const series = await createSeries(k.creator, k.bubleId)
    await expectStatus(await rsvp(k.member, series.id, { status: 'going', occurrence: WEEK2 }), 200)
    await expectStatus(await rsvp(k.member, series.id, { status: 'maybe', occurrence: WEEK3 }), 200)
    const newId = randomUUID()
    const moved = '2026-10-21T16:00:00.000Z'
    const edited = (await expectStatus(
      await call(k.creator, 'PUT', `/api/events/${series.id}`, {
        scope: 'this',
        occurrence: WEEK2,
        new_id: newId,
        title: 'Book club (Wednesday)',
        event_time: moved,
      }),
      200,
    )) as EventAnswer
    expect(edited).toMatchObject({ id: series.id, title: 'Book club', exdates: [WEEK2] })
    expect(edited.rsvps.map((r) => r.occurrence)).toEqual([WEEK3])
    expect(occurrences(edited)).toEqual([START, WEEK3, WEEK4])
    const one = (await list(k.owner, k.bubleId)).find((e) => e.id === newId)
    expect(one).toMatchObject({
      title: 'Book club (Wednesday)',
      event_time: moved,
      recurrence: null,
      series_id: series.id,
      recurrence_id: WEEK2,
      rsvps: [{ user_id: k.member.id, status: 'going', occurrence: null }],
    })
    // The occurrence is no longer the series': answering it there is refused.
    expect((await rsvp(k.member, series.id, { status: 'going', occurrence: WEEK2 })).status).toBe(400)
    // Cancelling one occurrence takes it out with its answers; deleting the series takes its changed occurrence too.
    expect((await call(k.creator, 'DELETE', `/api/events/${series.id}?occurrence=${WEEK3}`)).status).toBe(204)
    const [after] = (await list(k.owner, k.bubleId)).filter((e) => e.id === series.id)
    expect(after).toMatchObject({ exdates: [WEEK2, WEEK3], rsvps: [] })
    expect((await call(k.member, 'DELETE', `/api/events/${series.id}?occurrence=${WEEK4}`)).status).toBe(403)
    expect((await call(k.creator, 'DELETE', `/api/events/${series.id}`)).status).toBe(204)
    expect(await list(k.owner, k.bubleId)).toEqual([])
  })

  test('“this and following events”: the series ends before the occurrence, a new one carries the rest', async () => {
    const k = await club()
    const series = await createSeries(k.creator, k.bubleId)
    await expectStatus(await rsvp(k.member, series.id, { status: 'going', occurrence: WEEK2 }), 200)
    await expectStatus(await rsvp(k.member, series.id, { status: 'maybe', occurrence: WEEK4 }), 200)
    const newId = randomUUID()
    const edited = (await expectStatus(
      await call(k.creator, 'PUT', `/api/events/${series.id}`, {
        scope: 'following',
        occurrence: WEEK3,
        new_id: newId,
        location: 'The library',
      }),
      200,
    )) as EventAnswer
    expect(edited.recurrence).toBe('FREQ=WEEKLY;UNTIL=20261027T165959Z')
    expect(occurrences(edited)).toEqual([START, WEEK2])
    expect(edited.rsvps.map((r) => [r.occurrence, r.status])).toEqual([[WEEK2, 'going']])
    const rest = (await list(k.owner, k.bubleId)).find((e) => e.id === newId)
    expect(rest).toMatchObject({ event_time: WEEK3, recurrence: 'FREQ=WEEKLY;COUNT=2', series_id: null })
    expect(rest && occurrences(rest)).toEqual([WEEK3, WEEK4])
    expect(rest?.rsvps).toEqual([{ user_id: k.member.id, status: 'maybe', occurrence: WEEK4, user: expect.anything() }])

    // From the first occurrence on, "following" is every occurrence: the series itself changes.
    const whole = (await expectStatus(
      await call(k.creator, 'PUT', `/api/events/${series.id}`, {
        scope: 'following',
        occurrence: START,
        new_id: randomUUID(),
        title: 'Reading circle',
      }),
      200,
    )) as EventAnswer
    expect(whole).toMatchObject({ title: 'Reading circle', recurrence: 'FREQ=WEEKLY;UNTIL=20261027T165959Z' })
    expect(await list(k.owner, k.bubleId)).toHaveLength(2)
    const bad = await call(k.creator, 'PUT', `/api/events/${series.id}`, { scope: 'this', title: 'x' })
    expect(await expectStatus(bad, 400)).toMatchObject({
      message: 'occurrence and new_id are required to change one event of a series or the ones after it',
    })
  })

  test('in sync: create, per-occurrence RSVP, “this event”, cancel one; others pull the series and its exception', async () => {
    const k = await club()
    const { cursor } = await pullAll(h(), k.member.token)
    const id = randomUUID()
    const newId = randomUUID()
    const results = await push(h(), k.creator.token, [
      mutation('event.create', {
        id,
        buble_id: k.bubleId,
        title: 'Run club',
        event_time: START,
        recurrence: 'FREQ=WEEKLY;INTERVAL=2;COUNT=3',
      }),
      mutation('event.rsvp', { event_id: id, status: 'going', occurrence: START }),
      mutation('event.update', {
        id,
        scope: 'this',
        occurrence: '2026-10-27T17:00:00Z',
        new_id: newId,
        location: 'Park',
      }),
      mutation('event.delete', { id, occurrence: '2026-11-10T17:00:00Z' }),
      mutation('event.rsvp', { event_id: id, status: 'going' }),
      mutation('event.create', {
        id: randomUUID(),
        buble_id: k.bubleId,
        title: 'x',
        event_time: START,
        recurrence: 'FREQ=YEARLY;COUNT=2',
      }),
    ])
    expect(results.map((r) => [r.status, r.code])).toEqual([
      ['applied', undefined],
      ['applied', undefined],
      ['applied', undefined],
      ['applied', undefined],
      ['rejected', 'VALIDATION_ERROR'],
      ['rejected', 'VALIDATION_ERROR'],
    ])
    // The same edit pushed again (a retry) changes nothing more.
    const replay = await push(h(), k.creator.token, [
      mutation('event.update', {
        id,
        scope: 'this',
        occurrence: '2026-10-27T17:00:00Z',
        new_id: newId,
        location: 'Park',
      }),
    ])
    expect(replay[0]?.status).toBe('applied')
    const pulled = await pullAll(h(), k.member.token, cursor)
    const last = (eventId: string) => pulled.changes.filter((x) => x.entity === 'event' && x.id === eventId).at(-1)
    expect(last(id)?.data).toMatchObject({
      recurrence: 'FREQ=WEEKLY;INTERVAL=2;COUNT=3',
      exdates: ['2026-10-27T17:00:00.000Z', '2026-11-10T17:00:00.000Z'],
      rsvps: [{ user_id: k.creator.id, status: 'going', occurrence: START }],
    })
    expect(last(newId)?.data).toMatchObject({
      series_id: id,
      recurrence_id: '2026-10-27T17:00:00.000Z',
      location: 'Park',
    })
    expect(await list(k.owner, k.bubleId)).toHaveLength(2)
    // The occurrence changed on its own is not new content: one new event on the tab, not two.
    const counters = (await (await call(k.member, 'GET', `/api/unread/buble/${k.bubleId}`)).json()) as {
      contentType: string
      unreadCount: number
    }[]
    expect(counters.find((x) => x.contentType === 'events')?.unreadCount).toBe(1)

    const [removed] = await push(h(), k.creator.token, [mutation('event.delete', { id })])
    expect(removed?.status).toBe('applied')
    const after = await pullAll(h(), k.member.token, pulled.cursor)
    const dels = after.changes.filter((x) => x.entity === 'event' && x.op === 'del').map((x) => x.id)
    expect(dels.sort()).toEqual([id, newId].sort())
  })

  test('“Add to calendar” of a series: RRULE and EXDATE on Stockholm’s clock, read back by ical.js', async () => {
    const k = await club()
    const series = await createSeries(k.creator, k.bubleId)
    expect((await call(k.creator, 'DELETE', `/api/events/${series.id}?occurrence=${WEEK2}`)).status).toBe(204)
    const res = await call(k.member, 'GET', `/api/events/${series.id}/calendar.ics`)
    expect(res.status).toBe(200)
    const text = await res.text()
    expect(text).toContain('DTSTART;TZID=Europe/Stockholm:20261013T180000\r\n')
    expect(text).toContain('RRULE:FREQ=WEEKLY;COUNT=4\r\n')
    expect(text).toContain('EXDATE;TZID=Europe/Stockholm:20261020T180000\r\n')
    const vevent = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent')
    const event = new ICAL.Event(vevent as ICAL.Component)
    expect(event.isRecurring()).toBe(true)
    const expand = event.iterator()
    const starts: string[] = []
    const instants: string[] = []
    for (let next = expand.next(); next; next = expand.next()) {
      starts.push(next.toString())
      instants.push(next.toJSDate().toISOString())
    }
    // Every occurrence at 18:00 on the wall clock, across the change of time, the cancelled one left out.
    expect(starts).toEqual(['2026-10-13T18:00:00', '2026-10-27T18:00:00', '2026-11-03T18:00:00'])
    // The file defines its TZID (a VTIMEZONE), so those are Stockholm's 18:00 wherever it is opened.
    expect(text).toContain('BEGIN:VTIMEZONE\r\nTZID:Europe/Stockholm\r\n')
    expect(instants).toEqual([START, WEEK3, WEEK4])
  })
})
