import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { eventRsvps, events } from '../../db/schema.ts'
import { backends } from '../../testing/databases.ts'
import { mutation, pullAll, push } from '../../testing/sync.ts'
import {
  type Club,
  CREATE_MATRIX,
  clubSuite,
  DELETE_MATRIX,
  EDIT_MATRIX,
  type Person,
} from '../../testing/test-club.ts'

/**
 * Events (CONTRACT §3.3, §5, §6): who may create, edit and delete, RSVPs that replace each other,
 * 404 for outsiders on every route, client-chosen ids, and the same writes as sync mutations.
 */

const EVENT_NOT_FOUND = { code: 'NOT_FOUND', message: 'Event not found' }
const BUBLE_NOT_FOUND = { code: 'NOT_FOUND', message: 'Buble not found' }

describe.each(backends())('events on %s', (backend) => {
  const { h, call, club, expectStatus, expectNotFound } = clubSuite(backend)

  const createEvent = async (who: Person, bubleId: string, body: Record<string, unknown> = {}) =>
    expectStatus(
      await call(who, 'POST', `/api/bubles/${bubleId}/events`, {
        title: 'Crayfish party',
        event_time: '2026-08-14T16:00:00.000Z',
        ...body,
      }),
      201,
    )
  const list = async (who: Person, bubleId: string) =>
    expectStatus(await call(who, 'GET', `/api/bubles/${bubleId}/events`), 200)
  const versionOf = async (id: string) =>
    (await h().database.db.select({ v: events.version }).from(events).where(eq(events.id, id)))[0]?.v

  // Shared across the matrices: one club, a fresh event by the creator per row.
  let c: Club
  beforeAll(async () => {
    c = await club()
  })

  test('an event answers the CONTRACT shape; the same id again answers it; another user or kind gets 409', async () => {
    const id = randomUUID().toUpperCase()
    const body = {
      id,
      title: '  Midsummer  ',
      description: ' ',
      location: 'Ön',
      event_time: '2026-06-19T18:00:00+02:00',
    }
    const created = await createEvent(c.creator, c.bubleId, body)
    expect(created).toEqual({
      id: id.toLowerCase(),
      buble_id: c.bubleId,
      title: 'Midsummer',
      description: null,
      location: 'Ön',
      event_time: '2026-06-19T16:00:00.000Z',
      creator_id: c.creator.id,
      creator: { id: c.creator.id, name: c.creator.name, avatar_url: null },
      created_at: h().clock.now.toISOString(),
      external_url: null,
      external_source: null,
      recurrence: null,
      exdates: [],
      series_id: null,
      recurrence_id: null,
      rsvps: [],
    })
    const again = await call(c.creator, 'POST', `/api/bubles/${c.bubleId}/events`, { ...body, title: 'Other' })
    expect(await expectStatus(again, 200)).toEqual(created)
    const theirs = await call(c.member, 'POST', `/api/bubles/${c.bubleId}/events`, body)
    expect(await expectStatus(theirs, 409)).toEqual({ code: 'CONFLICT', message: 'This id is already in use' })
    const asPoll = await call(c.creator, 'POST', `/api/bubles/${c.bubleId}/polls`, {
      id,
      question: 'q',
      options: ['a', 'b'],
    })
    expect(asPoll.status).toBe(409)
    const external = await createEvent(c.member, c.bubleId, {
      external_url: 'https://tickets.example/e/1',
      external_source: 'ticketmaster',
    })
    expect(external).toMatchObject({ external_url: 'https://tickets.example/e/1', external_source: 'ticketmaster' })
  })

  test('the list is soonest first, the same for every member', async () => {
    const k = await club()
    const late = await createEvent(k.member, k.bubleId, { title: 'Late', event_time: '2027-01-01T10:00:00Z' })
    const early = await createEvent(k.owner, k.bubleId, { title: 'Early', event_time: '2026-01-01T10:00:00Z' })
    const middle = await createEvent(k.admin, k.bubleId, { title: 'Middle', event_time: '2026-06-01T10:00:00Z' })
    for (const who of [k.owner, k.member, k.revoked]) {
      expect((await list(who, k.bubleId)).map((e: { id: string }) => e.id)).toEqual([early.id, middle.id, late.id])
    }
  })

  test.each(CREATE_MATRIX)('create by the %s → %i', async (who, status) => {
    const title = `Made by ${who} ${randomUUID()}`
    const res = await call(c[who], 'POST', `/api/bubles/${c.bubleId}/events`, {
      title,
      event_time: '2026-09-01T10:00:00Z',
    })
    const body = await expectStatus(res, status)
    if (status === 403)
      expect(body).toEqual({ code: 'FORBIDDEN', message: 'You are not allowed to create events in this Buble' })
    if (status === 404) expect(body).toEqual(BUBLE_NOT_FOUND)
    const titles = (await list(c.owner, c.bubleId)).map((e: { title: string }) => e.title)
    expect(titles.includes(title)).toBe(status === 201)
  })

  test.each(EDIT_MATRIX)('edit of the creator’s event by the %s → %i', async (who, status) => {
    const event = await createEvent(c.creator, c.bubleId, { title: 'Before' })
    const res = await call(c[who], 'PUT', `/api/events/${event.id}`, { title: 'After', location: 'Moved' })
    const body = await expectStatus(res, status)
    if (status === 200)
      expect(body).toMatchObject({ id: event.id, title: 'After', location: 'Moved', creator_id: c.creator.id })
    if (status === 403) expect(body.code).toBe('FORBIDDEN')
    if (status === 404) expect(body).toEqual(EVENT_NOT_FOUND)
    const stored = (await list(c.owner, c.bubleId)).find((e: { id: string }) => e.id === event.id)
    expect(stored).toMatchObject(
      status === 200 ? { title: 'After', location: 'Moved' } : { title: 'Before', location: null },
    )
  })

  test.each(DELETE_MATRIX)('delete of the creator’s event by the %s → %i', async (who, status) => {
    const event = await createEvent(c.creator, c.bubleId, { title: 'Doomed?' })
    await call(c.member, 'POST', `/api/events/${event.id}/rsvp`, { status: 'going' })
    const body = await expectStatus(await call(c[who], 'DELETE', `/api/events/${event.id}`), status)
    if (status === 404) expect(body).toEqual(EVENT_NOT_FOUND)
    const ids = (await list(c.owner, c.bubleId)).map((e: { id: string }) => e.id)
    expect(ids.includes(event.id)).toBe(status !== 204)
    const rsvps = await h().database.db.select().from(eventRsvps).where(eq(eventRsvps.eventId, event.id))
    expect(rsvps).toHaveLength(status === 204 ? 0 : 1)
  })

  test('any member answers; a new answer replaces the earlier one; the same answer changes nothing', async () => {
    const event = await createEvent(c.creator, c.bubleId)
    const first = await expectStatus(
      await call(c.revoked, 'POST', `/api/events/${event.id}/rsvp`, { status: 'maybe' }),
      200,
    )
    expect(first.rsvps).toEqual([
      { user_id: c.revoked.id, status: 'maybe', user: { name: c.revoked.name }, occurrence: null },
    ])
    h().clock.advance(1000)
    await call(c.owner, 'POST', `/api/events/${event.id}/rsvp`, { status: 'going' })
    h().clock.advance(1000)
    // Replaced, not re-added: the first answer keeps its place.
    const changed = await expectStatus(
      await call(c.revoked, 'POST', `/api/events/${event.id}/rsvp`, { status: 'cant_go' }),
      200,
    )
    expect(changed.rsvps).toEqual([
      { user_id: c.revoked.id, status: 'cant_go', user: { name: c.revoked.name }, occurrence: null },
      { user_id: c.owner.id, status: 'going', user: { name: c.owner.name }, occurrence: null },
    ])
    const version = await versionOf(event.id)
    await expectStatus(await call(c.revoked, 'POST', `/api/events/${event.id}/rsvp`, { status: 'cant_go' }), 200)
    expect(await versionOf(event.id)).toBe(version)
    const listed = (await list(c.member, c.bubleId)).find((e: { id: string }) => e.id === event.id)
    expect(listed.rsvps).toEqual(changed.rsvps)
  })

  test('bad input is a 400 naming the problem, with issues', async () => {
    const path = `/api/bubles/${c.bubleId}/events`
    const cases: [string, unknown, string, string][] = [
      ['POST', { event_time: '2026-01-01T10:00:00Z' }, 'title', 'Title is required'],
      ['POST', { title: '   ', event_time: '2026-01-01T10:00:00Z' }, 'title', 'Title is required'],
      [
        'POST',
        { title: 'x'.repeat(201), event_time: '2026-01-01T10:00:00Z' },
        'title',
        'Title must be at most 200 characters',
      ],
      ['POST', { title: 'x' }, 'event_time', 'Event time is required'],
      ['POST', { title: 'x', event_time: 'next friday' }, 'event_time', 'event_time must be a date and time'],
      ['POST', { title: 'x', event_time: '2026-01-01T10:00:00Z', id: 'nope' }, 'id', 'id must be a UUID'],
      [
        'POST',
        { title: 'x', event_time: '2026-01-01T10:00:00Z', external_url: 'javascript:alert(1)' },
        'external_url',
        'external_url must be an http or https address',
      ],
    ]
    for (const [method, body, field, message] of cases) {
      const answer = await expectStatus(await call(c.member, method, path, body), 400)
      expect(answer).toMatchObject({ code: 'VALIDATION_ERROR', message })
      expect(answer.issues).toContainEqual({ path: field, message })
    }
    const event = await createEvent(c.creator, c.bubleId)
    const rsvp = await expectStatus(
      await call(c.member, 'POST', `/api/events/${event.id}/rsvp`, { status: 'yes' }),
      400,
    )
    expect(rsvp.issues).toEqual([{ path: 'status', message: 'status must be going, maybe or cant_go' }])
    const edit = await expectStatus(
      await call(c.creator, 'PUT', `/api/events/${event.id}`, { description: 'd'.repeat(5001) }),
      400,
    )
    expect(edit.issues[0]).toEqual({ path: 'description', message: 'Description must be at most 5000 characters' })
    expect((await list(c.owner, c.bubleId)).find((e: { id: string }) => e.id === event.id).rsvps).toEqual([])
  })

  test('a non-member gets 404 on every route, and a path id that is no UUID names nothing', async () => {
    const event = await createEvent(c.creator, c.bubleId, { title: 'Members only' })
    await expectNotFound(c.outsider, [
      ['GET', `/api/bubles/${c.bubleId}/events`],
      ['POST', `/api/bubles/${c.bubleId}/events`, { title: 'x', event_time: '2026-01-01T10:00:00Z' }],
      ['PUT', `/api/events/${event.id}`, { title: 'x' }],
      ['DELETE', `/api/events/${event.id}`],
      ['POST', `/api/events/${event.id}/rsvp`, { status: 'going' }],
      ['GET', `/api/events/${event.id}/calendar.ics`],
    ])
    await expectNotFound(c.member, [
      ['GET', '/api/bubles/not-a-uuid/events'],
      ['PUT', '/api/events/123', { title: 'x' }],
      ['DELETE', '/api/events/123'],
      ['POST', '/api/events/123/rsvp', { status: 'going' }],
      ['GET', '/api/events/123/calendar.ics'],
    ])
    const stored = (await list(c.owner, c.bubleId)).find((e: { id: string }) => e.id === event.id)
    expect(stored).toMatchObject({ title: 'Members only', rsvps: [] })
    expect((await call(undefined, 'GET', `/api/bubles/${c.bubleId}/events`)).status).toBe(401)
  })

  test('a kept list follows a new event, an RSVP, an edit and a removal from the buble', async () => {
    const k = await club()
    const event = await createEvent(k.creator, k.bubleId)
    expect(await list(k.member, k.bubleId)).toHaveLength(1)
    await createEvent(k.owner, k.bubleId, { event_time: '2030-01-01T00:00:00Z' })
    await call(k.admin, 'POST', `/api/events/${event.id}/rsvp`, { status: 'going' })
    await call(k.creator, 'PUT', `/api/events/${event.id}`, { title: 'Renamed' })
    const seen = await list(k.member, k.bubleId)
    expect(seen).toHaveLength(2)
    expect(seen[0]).toMatchObject({ title: 'Renamed', rsvps: [{ user_id: k.admin.id, status: 'going' }] })
    await call(k.owner, 'DELETE', `/api/bubles/${k.bubleId}/members/remove`, { userId: k.member.id })
    expect(await expectStatus(await call(k.member, 'GET', `/api/bubles/${k.bubleId}/events`), 404)).toEqual(
      BUBLE_NOT_FOUND,
    )
  })

  test('the list carries an ETag: asked again with it, a bodiless 304 until something changes', async () => {
    const k = await club()
    const event = await createEvent(k.creator, k.bubleId)
    const first = await call(k.member, 'GET', `/api/bubles/${k.bubleId}/events`)
    const etag = first.headers.get('etag')
    expect(etag).toMatch(/^W\/"[\w-]+"$/)
    expect(first.headers.get('cache-control')).toBe('private, no-cache')
    const again = await h().call('GET', `/api/bubles/${k.bubleId}/events`, {
      token: k.member.token,
      headers: { 'if-none-match': etag! },
    })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    expect(again.headers.get('etag')).toBe(etag)
    await call(k.admin, 'POST', `/api/events/${event.id}/rsvp`, { status: 'maybe' })
    const changed = await h().call('GET', `/api/bubles/${k.bubleId}/events`, {
      token: k.member.token,
      headers: { 'if-none-match': etag! },
    })
    expect(changed.status).toBe(200)
    expect(changed.headers.get('etag')).not.toBe(etag)
    expect((await changed.json())[0].rsvps).toEqual([
      { user_id: k.admin.id, status: 'maybe', user: { name: k.admin.name }, occurrence: null },
    ])
    // An outsider learns nothing from a validator either.
    const outsider = await h().call('GET', `/api/bubles/${k.bubleId}/events`, {
      token: k.outsider.token,
      headers: { 'if-none-match': changed.headers.get('etag')! },
    })
    expect(outsider.status).toBe(404)
  })

  describe('in sync', () => {
    test('an RSVP pushed twice in one push and again in another is applied once', async () => {
      const k = await club()
      const event = await createEvent(k.creator, k.bubleId)
      const cursor = (await pullAll(h(), k.owner.token)).cursor
      const answer = mutation('event.rsvp', { event_id: event.id, status: 'maybe' })
      const first = await push(h(), k.member.token, [answer, answer])
      expect(first.map((r) => r.status)).toEqual(['applied', 'duplicate'])
      expect(first[0]!.data).toMatchObject({ rsvps: [{ user_id: k.member.id, status: 'maybe' }] })
      // The member changes their mind on the web meanwhile; the replay must not undo it.
      await call(k.member, 'POST', `/api/events/${event.id}/rsvp`, { status: 'going' })
      const replay = await push(h(), k.member.token, [answer])
      expect(replay[0]).toMatchObject({ status: 'duplicate', data: first[0]!.data })
      const rows = await h().database.db.select().from(eventRsvps).where(eq(eventRsvps.eventId, event.id))
      expect(rows.map((r) => r.status)).toEqual(['going'])
      const { changes } = await pullAll(h(), k.owner.token, cursor)
      const pulled = changes.filter((x) => x.entity === 'event' && x.id === event.id).at(-1)
      expect(pulled?.data).toMatchObject({ rsvps: [{ user_id: k.member.id, status: 'going' }] })
    })

    test('create, update and delete as mutations: others pull puts, then a del; unread counts others’ events only', async () => {
      const k = await club()
      const before = await pullAll(h(), k.member.token)
      const id = randomUUID()
      const results = await push(h(), k.creator.token, [
        mutation('event.create', {
          id,
          buble_id: k.bubleId,
          title: 'Offline plan',
          event_time: '2026-05-01T12:00:00Z',
        }),
        mutation('event.update', { id, location: 'The park' }),
        mutation('event.create', { id: randomUUID(), buble_id: k.bubleId, title: 'x', event_time: 'soon' }),
      ])
      expect(results.map((r) => [r.status, r.code])).toEqual([
        ['applied', undefined],
        ['applied', undefined],
        ['rejected', 'VALIDATION_ERROR'],
      ])
      const [denied] = await push(h(), k.revoked.token, [
        mutation('event.create', {
          id: randomUUID(),
          buble_id: k.bubleId,
          title: 'No',
          event_time: '2026-05-01T12:00:00Z',
        }),
      ])
      expect(denied).toMatchObject({ status: 'rejected', code: 'FORBIDDEN' })
      const pulled = await pullAll(h(), k.member.token, before.cursor)
      const put = pulled.changes.filter((x) => x.entity === 'event' && x.id === id).at(-1)
      expect(put).toMatchObject({
        op: 'put',
        buble_id: k.bubleId,
        data: { title: 'Offline plan', location: 'The park' },
      })
      const unread = (who: Person) => call(who, 'GET', `/api/unread/buble/${k.bubleId}`).then((r) => r.json())
      const count = (counters: { contentType: string; unreadCount: number }[]) =>
        counters.find((x) => x.contentType === 'events')?.unreadCount
      expect(count(await unread(k.member))).toBe(1)
      expect(count(await unread(k.creator))).toBe(0)
      const pulledCounter = pulled.changes.filter((x) => x.entity === 'unread' && x.id === `${k.bubleId}:events`).at(-1)
      expect(pulledCounter?.data).toEqual({ contentType: 'events', unreadCount: 1 })

      const [removed] = await push(h(), k.creator.token, [mutation('event.delete', { id })])
      expect(removed).toMatchObject({ status: 'applied', data: null })
      const after = await pullAll(h(), k.member.token, pulled.cursor)
      expect(after.changes).toContainEqual(expect.objectContaining({ entity: 'event', op: 'del', id }))
      expect(count(await unread(k.member))).toBe(0)
      const [late] = await push(h(), k.member.token, [mutation('event.rsvp', { event_id: id, status: 'going' })])
      expect(late).toMatchObject({ status: 'rejected', ...EVENT_NOT_FOUND })
    })
  })
})
