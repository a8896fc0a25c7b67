import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { type FakeProvider, startFakeProvider } from './testing/fake-provider.ts'
import { createHarness, type Harness, PASSWORD, uniqueEmail } from './testing/harness.ts'
import { type ServerProcess, startServerProcess } from './testing/server-process.ts'

/**
 * CONTRACT §7: the providers' base URLs are the operator's configuration, so a mirror, a proxy or
 * a stub on 127.0.0.1 answers weather and the events finder, without the test-only loopback option
 * and through `npm start`'s own entry; what users supply (link previews, push endpoints) is still
 * refused there. The database plays no part, so PGlite alone.
 */

const KEY = 'operator-key'
const place = { results: [{ name: 'Stockholm', latitude: 59.33, longitude: 18.07, country: 'Sweden' }] }
const forecast = {
  current: { temperature_2m: -3, relative_humidity_2m: 87, weather_code: 71, wind_speed_10m: 12, visibility: 24140 },
  daily: {
    time: ['2026-12-24', '2026-12-25', '2026-12-26', '2026-12-27', '2026-12-28'],
    weather_code: [0, 2, 45, 61, 95],
    temperature_2m_max: [0, -1, 2, 3, 5],
    temperature_2m_min: [-5, -7, -2, 0, 1],
    precipitation_sum: [0, 0.3, 1, 12, 3],
  },
}
const events = {
  _embedded: {
    events: [
      { name: 'Midwinter Jazz', id: 'Z698', dates: { start: { localDate: '2026-12-24', localTime: '19:00:00' } } },
    ],
  },
}

/** The three base URLs on the fake provider (with path prefixes, as the real ones have), and a key. */
const providerEnv = (fake: FakeProvider) => ({
  WEATHER_BASE_URL: `${fake.base}/om`,
  GEOCODING_BASE_URL: `${fake.base}/geo`,
  TICKETMASTER_BASE_URL: `${fake.base}/discovery/v2`,
  TICKETMASTER_API_KEY: KEY,
})
const answerAll = (fake: FakeProvider) => {
  fake.answer('/geo/v1/search', place)
  fake.answer('/om/v1/forecast', forecast)
  fake.answer('/discovery/v2/events.json', events)
}
const WEATHER = '/api/weather?location=Stockholm'
const EVENTS = '/api/ticketmaster/events?countryCode=SE'

let fake: FakeProvider
beforeAll(async () => {
  fake = await startFakeProvider()
})
afterEach(() => fake.reset())
afterAll(() => fake?.close())

describe('the app without the test-only loopback option', () => {
  let h: Harness
  let token: string
  beforeAll(async () => {
    h = await createHarness('pglite', { BUBLE_RATE_LIMITS: 'off', ...providerEnv(fake) })
    token = (await h.register()).token
  })
  afterAll(() => h?.close())

  test('weather and the events finder reach providers configured on 127.0.0.1', async () => {
    answerAll(fake)
    const weather = await h.call('GET', WEATHER, { token })
    expect(weather.status).toBe(200)
    expect((await weather.json()).location).toBe('Stockholm, Sweden')
    const found = await h.call('GET', EVENTS, { token })
    expect(found.status).toBe(200)
    expect((await found.json()).events.map((e: { title: string }) => e.title)).toEqual(['Midwinter Jazz'])
    expect(fake.requests.map((r) => r.path)).toEqual(['/geo/v1/search', '/om/v1/forecast', '/discovery/v2/events.json'])
  })

  test('a provider redirecting to another address on this machine is refused: 502, and nothing is asked there', async () => {
    const other = await startFakeProvider()
    try {
      other.answer('/v1/search', place)
      // localhost is another origin than 127.0.0.1 (and another port): checked, and loopback.
      const elsewhere = `http://localhost:${new URL(other.base).port}/v1/search`
      fake.answer('/geo/v1/search', { status: 302, headers: { location: elsewhere }, raw: '' })
      const res = await h.call('GET', '/api/weather?location=Uppsala', { token })
      expect(res.status).toBe(502)
      expect((await res.json()).message).toBe('The weather service could not be reached. Try again later.')
      expect(fake.requestsTo('/geo/v1/search')).toHaveLength(1)
      expect(other.requests).toEqual([])
    } finally {
      await other.close()
    }
  })

  test('a link to the provider’s own address gets no preview, and no request reaches it', async () => {
    const created = await h.call('POST', '/api/bubles', { token, body: { name: 'Links' } })
    const { id: bubleId } = await created.json()
    fake.answer('/article', { raw: '<title>Inside</title>' })
    const posted = await h.call('POST', `/api/wall/${bubleId}/posts`, {
      token,
      body: { content: `look ${fake.base}/article` },
    })
    expect(posted.status).toBe(201)
    await h.services.previewer.idle()
    expect(fake.requests).toEqual([])
  })

  test.each([
    ['the provider’s own origin', () => `${fake.base}/push`, 'https'],
    ['https on 127.0.0.1', () => `https://127.0.0.1:${new URL(fake.base).port}/push`, 'refused address'],
  ])('a push endpoint at %s is still refused', async (_what, endpoint, why) => {
    const res = await h.call('POST', '/api/push/subscriptions', {
      token,
      body: {
        endpoint: endpoint(),
        keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) },
      },
    })
    expect(res.status).toBe(400)
    expect((await res.json()).message).toContain(why)
  })
})

describe('through the real entry that npm start runs', () => {
  let server: ServerProcess
  beforeAll(async () => {
    // scripts/start.mjs, as `npm start` runs it; the PWA build it would start first is skipped.
    server = await startServerProcess({
      entry: 'scripts/start.mjs',
      env: { BUBLE_SKIP_BUILD: '1', ...providerEnv(fake) },
    })
  }, 90_000)
  afterAll(() => server?.stop())

  test('a new user gets weather and events from providers configured on 127.0.0.1', async () => {
    answerAll(fake)
    const registered = await fetch(`${server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Operator Test', email: uniqueEmail('provider'), password: PASSWORD }),
    })
    expect(registered.status).toBe(201)
    const { access_token: token } = (await registered.json()) as { access_token: string }
    const get = (path: string) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } })

    const weather = await get(WEATHER)
    expect({ status: weather.status, stderr: server.stderr() }).toMatchObject({ status: 200 })
    expect(((await weather.json()) as { location: string }).location).toBe('Stockholm, Sweden')
    const found = await get(EVENTS)
    expect(found.status).toBe(200)
    expect(((await found.json()) as { events: { title: string }[] }).events.map((e) => e.title)).toEqual([
      'Midwinter Jazz',
    ])
    expect(fake.requestsTo('/discovery/v2/events.json')[0]?.query).toMatchObject({ apikey: KEY, countryCode: 'SE' })
  })
})
