import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { type FakeProvider, startFakeProvider } from '../../testing/fake-provider.ts'
import { createHarness, type Harness } from '../../testing/harness.ts'

/**
 * GET /api/ticketmaster/events (spec part 2 §7, CONTRACT §6): the Discovery request exactly as
 * sent, each event mapped field by field, an empty list, 503 without a key, 502 for a provider that
 * fails, babbles or hangs, 400 for a bad query. The database plays no part, so PGlite alone.
 */

const EVENTS = '/discovery/v2/events.json'
const KEY = 'test-key-123'

/** An event as the Discovery API sends it, with every field the mapping reads. */
const concert = {
  name: 'Midwinter Jazz',
  type: 'event',
  id: 'Z698xZb_Z17aJ4e',
  url: 'https://www.ticketmaster.se/event/midwinter-jazz',
  locale: 'en-us',
  images: [
    { ratio: '16_9', url: 'https://s1.ticketm.net/640.jpg', width: 640, height: 360, fallback: false },
    { ratio: '16_9', url: 'https://s1.ticketm.net/2048.jpg', width: 2048, height: 1152, fallback: false },
    { ratio: '3_2', url: 'https://s1.ticketm.net/1024.jpg', width: 1024, height: 683, fallback: false },
  ],
  dates: {
    start: { localDate: '2026-12-24', localTime: '19:00:00', dateTime: '2026-12-24T18:00:00Z' },
    end: { localDate: '2026-12-24', localTime: '23:00:00', dateTime: '2026-12-24T22:00:00Z' },
    timezone: 'Europe/Stockholm',
    status: { code: 'onsale' },
  },
  classifications: [
    { primary: true, segment: { id: 'KZFzniwnSyZfZ7v7nJ', name: 'Music' }, genre: { name: 'Jazz' } },
    { primary: false, segment: { id: 'x', name: 'Arts & Theatre' } },
  ],
  info: 'Bring warm clothes.',
  pleaseNote: 'No re-entry.',
  priceRanges: [
    { type: 'standard', currency: 'SEK', min: 350, max: 895.5 },
    { type: 'standard including fees', currency: 'SEK', min: 390, max: 950 },
  ],
  _embedded: {
    venues: [
      { name: 'Fasching', type: 'venue', id: 'KovZ', city: { name: 'Stockholm' }, country: { countryCode: 'SE' } },
    ],
  },
}

/** One with only a date, no price, no info, no classification, a venue without a city. */
const bare = {
  name: 'Spring Market',
  type: 'event',
  id: 'G5vYZ9',
  dates: { start: { localDate: '2027-03-14', dateTBD: false, noSpecificTime: true }, status: { code: 'onsale' } },
  pleaseNote: 'Cash only.',
  _embedded: { venues: [{ name: 'Stortorget' }] },
}

const page = (events: unknown[]) => ({
  _embedded: { events },
  _links: { self: { href: '/discovery/v2/events.json?page=0&size=20' } },
  page: { size: 20, totalElements: events.length, totalPages: 1, number: 0 },
})

describe('GET /api/ticketmaster/events', () => {
  let fake: FakeProvider
  let h: Harness
  let unconfigured: Harness
  let token: string
  let unconfiguredToken: string
  const get = (query: string, harness = h) =>
    harness.call('GET', `/api/ticketmaster/events${query}`, { token: harness === h ? token : unconfiguredToken })

  beforeAll(async () => {
    fake = await startFakeProvider()
    const env = { BUBLE_RATE_LIMITS: 'off', TICKETMASTER_BASE_URL: `${fake.base}/discovery/v2` }
    const options = { allowLoopbackFetch: true, providerTimeoutMs: 300 }
    h = await createHarness('pglite', { ...env, TICKETMASTER_API_KEY: KEY }, options)
    unconfigured = await createHarness('pglite', env, options)
    token = (await h.register()).token
    unconfiguredToken = (await unconfigured.register()).token
  })
  afterEach(() => fake.reset())
  afterAll(async () => {
    await h?.close()
    await unconfigured?.close()
    await fake?.close()
  })

  const window = 'startDateTime=2026-12-20T00:00:00Z&endDateTime=2027-01-20T00:00:00Z&size=20'

  test.each([
    [
      'a city and a category',
      `?${window}&city=G%C3%B6teborg&classificationName=Arts%20%26%20Theatre`,
      { city: 'Göteborg', classificationName: 'Arts & Theatre' },
    ],
    ['the whole country', `?${window}&countryCode=SE`, { countryCode: 'SE' }],
    // Decision 83: a city in any country, searched within it.
    [
      'a typed city within its country',
      `?${window}&city=Troms%C3%B8&countryCode=NO`,
      { city: 'Tromsø', countryCode: 'NO' },
    ],
    [
      'a point and a radius',
      `?${window}&lat=59.3293&lng=18.0686&radius_km=25`,
      { latlong: '59.3293,18.0686', radius: '25', unit: 'km' },
    ],
  ])('%s: the query goes to events.json with the key, values unchanged', async (_what, query, expected) => {
    fake.answer(EVENTS, page([]))
    expect((await get(query)).status).toBe(200)
    expect(fake.requests).toEqual([
      {
        path: EVENTS,
        query: {
          apikey: KEY,
          startDateTime: '2026-12-20T00:00:00Z',
          endDateTime: '2027-01-20T00:00:00Z',
          size: '20',
          ...expected,
        },
      },
    ])
  })

  test('each event is mapped field by field', async () => {
    fake.answer(EVENTS, page([concert, bare]))
    const res = await get(`?${window}&city=Stockholm`)
    expect(await res.json()).toEqual({
      events: [
        {
          id: 'Z698xZb_Z17aJ4e',
          title: 'Midwinter Jazz',
          description: 'Bring warm clothes.',
          location: 'Fasching, Stockholm',
          startDate: '2026-12-24T18:00:00.000Z',
          endDate: '2026-12-24T22:00:00.000Z',
          price: '350–895.5 SEK',
          category: 'Music',
          source: 'ticketmaster',
          url: 'https://www.ticketmaster.se/event/midwinter-jazz',
          image: 'https://s1.ticketm.net/2048.jpg',
        },
        {
          id: 'G5vYZ9',
          title: 'Spring Market',
          description: 'Cash only.',
          location: 'Stortorget',
          startDate: '2027-03-14',
          endDate: null,
          price: null,
          category: null,
          source: 'ticketmaster',
          url: null,
          image: null,
        },
      ],
    })
  })

  test('an event without a start date or a name is left out; the rest still come', async () => {
    fake.answer(EVENTS, page([{ ...bare, dates: {} }, { ...bare, name: undefined }, concert]))
    const { events } = await (await get(`?${window}&city=Stockholm`)).json()
    expect(events.map((event: { id: string }) => event.id)).toEqual([concert.id])
  })

  test('nothing found is an empty list', async () => {
    // The Discovery API leaves `_embedded` out when nothing matches.
    fake.answer(EVENTS, {
      _links: { self: { href: '/x' } },
      page: { size: 20, totalElements: 0, totalPages: 0, number: 0 },
    })
    const res = await get(`?${window}&city=Lund`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ events: [] })
  })

  test('without a key it is 503 and Ticketmaster is not asked', async () => {
    const res = await get(`?${window}&city=Stockholm`, unconfigured)
    expect(res.status).toBe(503)
    expect(await res.json()).toEqual({
      message: 'The local events finder is not configured on this server',
      code: 'SERVICE_UNAVAILABLE',
    })
    expect(fake.requests).toHaveLength(0)
  })

  test.each([
    ['it answers 500', { status: 500, body: { fault: 'x' } }, /not available/],
    ['the key is refused (401)', { status: 401, body: { fault: 'Invalid ApiKey' } }, /not available/],
    ['it answers something that is not JSON', { raw: 'Service Unavailable' }, /could not be read/],
    ['its events are not a list', { _embedded: { events: 'none' } }, /could not be read/],
    ['it never answers', { hang: true }, /did not answer in time/],
  ])('502 when %s', async (_when, reply, message) => {
    fake.answer(EVENTS, reply)
    const res = await get(`?${window}&city=Stockholm`)
    expect(res.status).toBe(502)
    const body = await res.json()
    expect(body.code).toBe('BAD_GATEWAY')
    expect(body.message).toMatch(/^The event search /)
    expect(body.message).toMatch(message)
    expect(body.message).not.toContain(KEY)
  })

  test.each([
    ['lat without lng', '?lat=59.3'],
    ['a latitude past the pole', '?lat=95&lng=18'],
    ['a longitude that is not a number', '?lat=59&lng=east'],
    ['a three-letter country code', '?countryCode=SWE'],
    ['a size of 500', '?size=500'],
    ['a negative radius', '?lat=59&lng=18&radius_km=-5'],
  ])('400 for %s, and Ticketmaster is not asked', async (_what, query) => {
    const res = await get(query)
    expect(res.status).toBe(400)
    expect((await res.json()).code).toBe('VALIDATION_ERROR')
    expect(fake.requests).toHaveLength(0)
  })

  test('401 without a token', async () => {
    const res = await h.call('GET', `/api/ticketmaster/events?${window}&city=Stockholm`)
    expect(res.status).toBe(401)
    expect(fake.requests).toHaveLength(0)
  })
})
