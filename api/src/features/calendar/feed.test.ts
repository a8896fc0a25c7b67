import ICAL from 'ical.js'
import { describe, expect, test } from 'vitest'
import { backends } from '../../testing/databases.ts'
import { clubSuite, type Person } from '../../testing/test-club.ts'

/**
 * The private calendar feed (decision 96): GET /api/calendar/<secret>.ics without a token, read
 * back by an independent parser (ical.js); the settings calls that show and reset its address.
 */

const FEED_PATH = /^http:\/\/buble\.test(\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics)$/

describe.each(backends())('the calendar feed on %s', (backend) => {
  const { h, call, club, expectStatus } = clubSuite(backend)

  async function feedPath(who: Person): Promise<string> {
    const settings = await expectStatus(await call(who, 'GET', '/api/users/calendar'), 200)
    const path = FEED_PATH.exec(settings.feed_http_url)?.[1]
    expect(path, settings.feed_http_url).toBeDefined()
    expect(settings.feed_url).toBe(`webcal://buble.test${path}`)
    return path!
  }

  /** The feed's VEVENTs by UID, as the parser reads them. */
  async function feed(path: string) {
    const res = await h().call('GET', path)
    expect(res.status, await res.clone().text()).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8')
    const text = await res.text()
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true)
    const calendar = new ICAL.Component(ICAL.parse(text))
    const byUid = new Map<string, ICAL.Component>()
    for (const vevent of calendar.getAllSubcomponents('vevent'))
      byUid.set(String(vevent.getFirstPropertyValue('uid')), vevent)
    return byUid
  }

  const newEvent = async (who: Person, bubleId: string, title: string, event_time: string) =>
    expectStatus(await call(who, 'POST', `/api/bubles/${bubleId}/events`, { title, event_time }), 201)

  test("the feed holds every event of the member's bubles and no other, with stable UIDs; an edit bumps SEQUENCE", async () => {
    const k = await club()
    const elsewhere = await expectStatus(await call(k.outsider, 'POST', '/api/bubles', { name: 'Elsewhere' }), 201)
    const dinner = await newEvent(k.owner, k.bubleId, 'Book night', '2031-03-04T18:00:00Z')
    const fika = await newEvent(k.member, k.bubleId, 'Fika', '2030-01-02T09:00:00Z')
    const hidden = await newEvent(k.outsider, elsewhere.id, 'Not yours', '2031-03-05T18:00:00Z')

    const path = await feedPath(k.member)
    const first = await feed(path)
    expect([...first.keys()].sort()).toEqual([`${dinner.id}@buble`, `${fika.id}@buble`].sort())
    expect(first.has(`${hidden.id}@buble`)).toBe(false)
    const vevent = first.get(`${dinner.id}@buble`)!
    expect(vevent.getFirstPropertyValue('summary')).toBe('Book night')
    expect(vevent.getFirstPropertyValue('description')).toBe(k.bubleName)
    expect((vevent.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString()).toBe(
      '2031-03-04T18:00:00.000Z',
    )
    const sequence = Number(vevent.getFirstPropertyValue('sequence'))
    const modified = (vevent.getFirstPropertyValue('last-modified') as ICAL.Time).toJSDate().getTime()

    // The outsider's feed has their own buble's event only.
    expect([...(await feed(await feedPath(k.outsider))).keys()]).toEqual([`${hidden.id}@buble`])

    // An RSVP is no edit; moving the event is: same UID, a higher SEQUENCE, a later LAST-MODIFIED.
    h().clock.advance(5_000)
    await expectStatus(await call(k.member, 'POST', `/api/events/${dinner.id}/rsvp`, { status: 'going' }), 200)
    expect(Number((await feed(path)).get(`${dinner.id}@buble`)!.getFirstPropertyValue('sequence'))).toBe(sequence)
    h().clock.advance(5_000)
    await expectStatus(
      await call(k.owner, 'PUT', `/api/events/${dinner.id}`, {
        title: 'Book night, moved',
        event_time: '2031-03-05T19:00:00Z',
      }),
      200,
    )
    const edited = (await feed(path)).get(`${dinner.id}@buble`)!
    expect(edited.getFirstPropertyValue('summary')).toBe('Book night, moved')
    expect((edited.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString()).toBe(
      '2031-03-05T19:00:00.000Z',
    )
    expect(Number(edited.getFirstPropertyValue('sequence'))).toBeGreaterThan(sequence)
    expect((edited.getFirstPropertyValue('last-modified') as ICAL.Time).toJSDate().getTime()).toBeGreaterThan(modified)
  })

  test('a calendar app asking again with its ETag gets 304 until an event changes', async () => {
    const k = await club()
    const dinner = await newEvent(k.owner, k.bubleId, 'Book night', '2031-03-04T18:00:00Z')
    const path = await feedPath(k.member)
    const first = await h().call('GET', path)
    expect(first.status).toBe(200)
    const tag = first.headers.get('etag')
    expect(tag).toMatch(/^(W\/)?"[^"]+"$/)
    const text = await first.text()

    // Later, nothing changed: the same bytes, so a bodiless 304 for the ETag it has.
    h().clock.advance(60_000)
    const again = await h().call('GET', path, { headers: { 'if-none-match': tag! } })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    expect((await h().call('GET', path)).headers.get('etag')).toBe(tag)
    expect(await (await h().call('GET', path)).text()).toBe(text)

    // An edit makes a new feed: 200 with a new ETag for the same If-None-Match.
    await expectStatus(await call(k.owner, 'PUT', `/api/events/${dinner.id}`, { title: 'Book night, moved' }), 200)
    const edited = await h().call('GET', path, { headers: { 'if-none-match': tag! } })
    expect(edited.status).toBe(200)
    expect(edited.headers.get('etag')).not.toBe(tag)
    expect(await edited.text()).toContain('SUMMARY:Book night\\, moved')
  })

  test('a deleted event leaves the feed, and so do the events of a buble the member left', async () => {
    const k = await club()
    const gone = await newEvent(k.owner, k.bubleId, 'Called off', '2031-01-01T10:00:00Z')
    const kept = await newEvent(k.owner, k.bubleId, 'Still on', '2031-01-02T10:00:00Z')
    const path = await feedPath(k.member)
    expect((await feed(path)).size).toBe(2)
    await expectStatus(await call(k.owner, 'DELETE', `/api/events/${gone.id}`), 204)
    expect([...(await feed(path)).keys()]).toEqual([`${kept.id}@buble`])
    await expectStatus(await call(k.member, 'DELETE', `/api/bubles/${k.bubleId}/members/${k.member.id}`), 204)
    expect((await feed(path)).size).toBe(0)
  })

  test('a reset gives a new address and the old one answers 404; a wrong secret answers 404', async () => {
    const k = await club()
    await newEvent(k.owner, k.bubleId, 'Walk', '2031-05-01T08:00:00Z')
    const old = await feedPath(k.member)
    expect(await feedPath(k.member)).toBe(old)
    const reset = await expectStatus(await call(k.member, 'POST', '/api/users/calendar/reset-feed'), 200)
    const fresh = FEED_PATH.exec(reset.feed_http_url)![1]!
    expect(fresh).not.toBe(old)
    expect(await feedPath(k.member)).toBe(fresh)
    expect((await feed(fresh)).size).toBe(1)
    const refused = await h().call('GET', old)
    expect(refused.status).toBe(404)
    expect(await refused.json()).toEqual({ code: 'NOT_FOUND', message: 'Calendar not found' })
    const secret = fresh.slice('/api/calendar/'.length, -'.ics'.length)
    const wrong = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`
    for (const path of [`/api/calendar/${wrong}.ics`, '/api/calendar/short.ics', `/api/calendar/${secret}x.ics`])
      expect((await h().call('GET', path)).status, path).toBe(404)
    // Without a token the settings stay closed.
    expect((await h().call('GET', '/api/users/calendar')).status).toBe(401)
  })

  test('the reminder choice: 1 hour by default, saved, and only the three choices', async () => {
    const k = await club()
    expect((await expectStatus(await call(k.member, 'GET', '/api/users/calendar'), 200)).reminder).toBe('1h')
    const saved = await expectStatus(await call(k.member, 'PUT', '/api/users/calendar', { reminder: '1d' }), 200)
    expect(saved.reminder).toBe('1d')
    expect((await expectStatus(await call(k.member, 'GET', '/api/users/calendar'), 200)).reminder).toBe('1d')
    await expectStatus(await call(k.member, 'PUT', '/api/users/calendar', { reminder: 'none' }), 200)
    expect((await expectStatus(await call(k.member, 'GET', '/api/users/calendar'), 200)).reminder).toBe('none')
    for (const body of [{ reminder: '2h' }, {}, { reminder: '1h', feed_url: 'x' }])
      expect((await call(k.member, 'PUT', '/api/users/calendar', body)).status).toBe(400)
  })
})
