import ICAL from 'ical.js'
import { describe, expect, test } from 'vitest'
import { backends } from '../../testing/databases.ts'
import { clubSuite } from '../../testing/test-club.ts'
import { calendarDisposition } from './calendar.ts'

/**
 * "Add to calendar": GET /api/events/:id/calendar.ics answers an RFC 5545 file, read back here by
 * an independent parser (ical.js) and checked line by line for what parsers forgive.
 */

const octets = (line: string) => Buffer.byteLength(line, 'utf8')

describe.each(backends())('the calendar file on %s', (backend) => {
  const { h, call, club, expectStatus } = clubSuite(backend)

  test('an external event: the fields, UTC times, an hour long, escaped text and lines folded at 75 octets', async () => {
    const k = await club()
    const description = `Bring: herring; snaps, and songs\nSecond line — ${'långt '.repeat(30)}`
    const event = await expectStatus(
      await call(k.member, 'POST', `/api/bubles/${k.bubleId}/events`, {
        title: 'Midsommar, på ön; "Utö"',
        description,
        location: 'Utö, Stockholm',
        event_time: '2026-06-19T18:30:00+02:00',
        external_url: 'https://tickets.example/e/42?a=1&b=2',
        external_source: 'ticketmaster',
      }),
      201,
    )
    h().clock.advance(60_000)
    await call(k.member, 'PUT', `/api/events/${event.id}`, { location: 'Utö, Stockholm' })
    const editedAt = h().clock.now
    h().clock.advance(60_000)
    const res = await call(k.owner, 'GET', `/api/events/${event.id}/calendar.ics`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8')
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="Midsommar-pa-on-Uto.ics"; filename*=UTF-8''${encodeURIComponent('Midsommar, på ön; "Utö".ics')}`,
    )
    const text = await res.text()

    // The raw lines: CRLF everywhere (the last line too), no line over 75 octets, times in UTC.
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true)
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/)
    const lines = text.split('\r\n').slice(0, -1)
    expect(Math.max(...lines.map(octets))).toBeLessThanOrEqual(75)
    expect(lines.filter((line) => line.startsWith(' ')).length).toBeGreaterThan(2)
    expect(lines).toEqual(
      expect.arrayContaining([
        'VERSION:2.0',
        'CALSCALE:GREGORIAN',
        'DTSTART:20260619T163000Z',
        'DTEND:20260619T173000Z',
      ]),
    )
    expect(lines.find((line) => line.startsWith('PRODID:'))).toBe('PRODID:-//Buble//Buble//EN')
    expect(lines.find((line) => line.startsWith('SUMMARY:'))).toBe('SUMMARY:Midsommar\\, på ön\\; "Utö"')

    // Read back by an independent parser.
    const calendar = new ICAL.Component(ICAL.parse(text))
    const vevents = calendar.getAllSubcomponents('vevent')
    expect(vevents).toHaveLength(1)
    const vevent = vevents[0]!
    const value = (name: string) => vevent.getFirstPropertyValue(name)
    const time = (name: string) => (value(name) as ICAL.Time).toJSDate().toISOString()
    expect(value('uid')).toBe(`${event.id}@buble`)
    expect(value('summary')).toBe('Midsommar, på ön; "Utö"')
    expect(value('description')).toBe(`${k.bubleName}: ${description.trim()}`)
    expect(value('location')).toBe('Utö, Stockholm')
    expect(value('url')).toBe('https://tickets.example/e/42?a=1&b=2')
    expect(time('dtstart')).toBe('2026-06-19T16:30:00.000Z')
    expect(time('dtend')).toBe('2026-06-19T17:30:00.000Z')
    expect((value('dtstart') as ICAL.Time).zone?.tzid).toBe('UTC')
    expect(time('dtstamp')).toBe(new Date(Math.floor(h().clock.now.getTime() / 1000) * 1000).toISOString())
    expect(time('last-modified')).toBe(new Date(Math.floor(editedAt.getTime() / 1000) * 1000).toISOString())

    // The UID stays when the event changes, so a calendar updates its copy.
    await call(k.member, 'PUT', `/api/events/${event.id}`, { title: 'Moved' })
    const again = await (await call(k.member, 'GET', `/api/events/${event.id}/calendar.ics`)).text()
    const moved = new ICAL.Component(ICAL.parse(again)).getFirstSubcomponent('vevent')!
    expect([moved.getFirstPropertyValue('uid'), moved.getFirstPropertyValue('summary')]).toEqual([
      `${event.id}@buble`,
      'Moved',
    ])
  })

  test('an event without description, location or link names its buble and nothing else', async () => {
    const k = await club()
    const event = await expectStatus(
      await call(k.owner, 'POST', `/api/bubles/${k.bubleId}/events`, {
        title: 'Fika',
        event_time: '2026-01-02T09:00:00Z',
      }),
      201,
    )
    const text = await (await call(k.revoked, 'GET', `/api/events/${event.id}/calendar.ics`)).text()
    const vevent = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent')!
    expect(vevent.getFirstPropertyValue('description')).toBe(k.bubleName)
    expect(vevent.hasProperty('location')).toBe(false)
    expect(vevent.hasProperty('url')).toBe(false)
  })

  test('outsiders and unknown events get 404', async () => {
    const k = await club()
    const event = await expectStatus(
      await call(k.owner, 'POST', `/api/bubles/${k.bubleId}/events`, {
        title: 'Secret',
        event_time: '2026-01-02T09:00:00Z',
      }),
      201,
    )
    const outsider = await call(k.outsider, 'GET', `/api/events/${event.id}/calendar.ics`)
    expect(await expectStatus(outsider, 404)).toEqual({ code: 'NOT_FOUND', message: 'Event not found' })
    await call(k.owner, 'DELETE', `/api/events/${event.id}`)
    expect((await call(k.owner, 'GET', `/api/events/${event.id}/calendar.ics`)).status).toBe(404)
  })

  test('file names: Swedish letters spelled out, unsafe characters gone, never empty', () => {
    expect(calendarDisposition('Kräftskiva / "Åre" \\ 2026')).toBe(
      `attachment; filename="Kraftskiva-Are-2026.ics"; filename*=UTF-8''${encodeURIComponent('Kräftskiva   "Åre"   2026.ics')}`,
    )
    expect(calendarDisposition('🎉🎉')).toMatch(/^attachment; filename="event\.ics"; /)
    expect(calendarDisposition('a\r\nb')).toContain(`filename*=UTF-8''a%20%20b.ics`)
  })
})
