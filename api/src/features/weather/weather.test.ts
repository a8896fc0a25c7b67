import { WEATHER_ICONS, weatherIcon } from '@buble/shared/providers'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { type FakeProvider, startFakeProvider } from '../../testing/fake-provider.ts'
import { createHarness, type Harness } from '../../testing/harness.ts'
import { toWeather } from './service.ts'

/**
 * GET /api/weather (spec part 2 §3, CONTRACT §6): the two Open-Meteo requests exactly as sent, the
 * mapping field by field, the 10-minute cache per place, 404 for an unknown place, 502 for a
 * provider that fails, babbles or hangs. The database plays no part, so PGlite alone.
 */

const GEOCODE = '/geo/v1/search'
const FORECAST = '/om/v1/forecast'

const stockholm = {
  results: [
    {
      id: 2673730,
      name: 'Stockholm',
      latitude: 59.32938,
      longitude: 18.06871,
      elevation: 17,
      feature_code: 'PPLC',
      country_code: 'SE',
      timezone: 'Europe/Stockholm',
      population: 1515017,
      country: 'Sweden',
      admin1: 'Stockholm',
    },
  ],
  generationtime_ms: 0.61,
}

/** Open-Meteo's answer; its first day is yesterday in Stockholm, as it is just after midnight there. */
const forecast = {
  latitude: 59.33,
  longitude: 18.07,
  generationtime_ms: 0.2,
  utc_offset_seconds: 3600,
  timezone: 'Europe/Stockholm',
  timezone_abbreviation: 'GMT+1',
  elevation: 17,
  current_units: { time: 'iso8601', interval: 'seconds', temperature_2m: '°C', relative_humidity_2m: '%' },
  current: {
    time: '2026-12-24T00:30',
    interval: 900,
    temperature_2m: -3.25,
    relative_humidity_2m: 87,
    weather_code: 71,
    wind_speed_10m: 12.34,
    visibility: 24140,
  },
  daily_units: { time: 'iso8601', weather_code: 'wmo code', temperature_2m_max: '°C', precipitation_sum: 'mm' },
  daily: {
    time: ['2026-12-23', '2026-12-24', '2026-12-25', '2026-12-26', '2026-12-27', '2026-12-28'],
    weather_code: [3, 0, 2, 45, 61, 95],
    temperature_2m_max: [1, 0.04, -1.15, 2.46, 3, 4.99],
    temperature_2m_min: [-1, -5.55, -7.01, -2, -0.04, 1],
    precipitation_sum: [0, 0, 0.26, 1.04, 12.35, 3],
  },
}

describe('GET /api/weather', () => {
  let fake: FakeProvider
  let h: Harness
  let token: string
  const get = (query: string, auth = token) => h.call('GET', `/api/weather${query}`, { token: auth })

  beforeAll(async () => {
    fake = await startFakeProvider()
    h = await createHarness(
      'pglite',
      { BUBLE_RATE_LIMITS: 'off', WEATHER_BASE_URL: `${fake.base}/om`, GEOCODING_BASE_URL: `${fake.base}/geo/` },
      { allowLoopbackFetch: true, providerTimeoutMs: 300 },
    )
    token = (await h.register()).token
    h.clock.now = new Date('2026-12-24T08:00:00Z')
  })
  beforeEach(() => {
    // Past the cache's 10 minutes each time, so no test meets another's answer; still the 24th in Stockholm.
    h.clock.advance(11 * 60_000)
  })
  afterEach(() => fake.reset())
  afterAll(async () => {
    await h?.close()
    await fake?.close()
  })

  const answerStockholm = () => {
    fake.answer(GEOCODE, stockholm)
    fake.answer(FORECAST, forecast)
  }

  test('asks the geocoder, then the forecast, exactly as documented, keeping the bases’ path prefixes', async () => {
    answerStockholm()
    expect((await get('?location=Stockholm')).status).toBe(200)
    expect(fake.requests).toEqual([
      { path: GEOCODE, query: { name: 'Stockholm', count: '1', language: 'en', format: 'json' } },
      {
        path: FORECAST,
        query: {
          latitude: '59.32938',
          longitude: '18.06871',
          current: 'temperature_2m,relative_humidity_2m,weather_code,wind_speed_10m,visibility',
          daily: 'weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum',
          timezone: 'Europe/Stockholm',
          forecast_days: '5',
          wind_speed_unit: 'kmh',
        },
      },
    ])
  })

  test('maps to metric, one decimal, km of visibility, five days from today in Stockholm', async () => {
    answerStockholm()
    // 23:30 UTC on the 23rd is already the 24th in Stockholm.
    h.clock.now = new Date('2026-12-23T23:30:00Z')
    const res = await get('?location=Stockholm')
    expect(await res.json()).toEqual({
      location: 'Stockholm, Sweden',
      current: { temperature: -3.2, condition: 'Snow', humidity: 87, windSpeed: 12.3, visibility: 24.1, icon: 'snow' },
      forecast: [
        { date: '2026-12-24', day: 'Thu', high: 0, low: -5.5, condition: 'Clear', icon: 'clear', precipitation: 0 },
        {
          date: '2026-12-25',
          day: 'Fri',
          high: -1.1,
          low: -7,
          condition: 'Partly cloudy',
          icon: 'partly-cloudy',
          precipitation: 0.3,
        },
        { date: '2026-12-26', day: 'Sat', high: 2.5, low: -2, condition: 'Fog', icon: 'fog', precipitation: 1 },
        { date: '2026-12-27', day: 'Sun', high: 3, low: 0, condition: 'Rain', icon: 'rain', precipitation: 12.4 },
        {
          date: '2026-12-28',
          day: 'Mon',
          high: 5,
          low: 1,
          condition: 'Thunderstorm',
          icon: 'thunderstorm',
          precipitation: 3,
        },
      ],
    })
  })

  test('a place is asked for once in 10 minutes, however it is typed; then again', async () => {
    answerStockholm()
    await get('?location=Stockholm')
    expect(fake.requests).toHaveLength(2)
    h.clock.advance(9 * 60_000 + 59_000)
    const again = await get(`?location=${encodeURIComponent('  STOCKHOLM ')}`)
    expect((await again.json()).location).toBe('Stockholm, Sweden')
    expect(fake.requests).toHaveLength(2)
    h.clock.advance(1000)
    expect((await get('?location=stockholm')).status).toBe(200)
    expect(fake.requests.map((r) => r.path)).toEqual([GEOCODE, FORECAST, GEOCODE, FORECAST])
  })

  test("a place the geocoder does not know is 404 'Location not found', and no forecast is asked for", async () => {
    fake.answer(GEOCODE, { generationtime_ms: 0.3 })
    const res = await get('?location=Atlantis')
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ message: 'Location not found', code: 'NOT_FOUND' })
    expect(fake.requestsTo(FORECAST)).toHaveLength(0)
  })

  test.each([
    ['the geocoder answers 500', { [GEOCODE]: { status: 500, body: { error: true } } }, /not available/],
    ['the forecast answers 400', { [FORECAST]: { status: 400, body: { error: true, reason: 'x' } } }, /not available/],
    ['the forecast is not JSON', { [FORECAST]: { raw: '<html>oops</html>' } }, /could not be read/],
    ['the forecast lacks its current block', { [FORECAST]: { daily: forecast.daily } }, /could not be read/],
    ['the geocoder answers a list', { [GEOCODE]: { results: 'Stockholm' } }, /could not be read/],
    ['the forecast never answers', { [FORECAST]: { hang: true } }, /did not answer in time/],
  ])('502 when %s, and the failure is not cached', async (_when, replies, message) => {
    answerStockholm()
    for (const [path, reply] of Object.entries(replies)) fake.answer(path, reply)
    const res = await get('?location=Stockholm')
    expect(res.status).toBe(502)
    const body = await res.json()
    expect(body.code).toBe('BAD_GATEWAY')
    expect(body.message).toMatch(/^The weather service /)
    expect(body.message).toMatch(message)
    answerStockholm()
    expect((await get('?location=Stockholm')).status).toBe(200)
  })

  test.each([
    ['no location', ''],
    ['a blank location', '?location=%20%20'],
    ['a location of 101 characters', `?location=${'a'.repeat(101)}`],
  ])('400 for %s, and no provider is asked', async (_what, query) => {
    const res = await get(query)
    expect(res.status).toBe(400)
    expect((await res.json()).code).toBe('VALIDATION_ERROR')
    expect(fake.requests).toHaveLength(0)
  })

  test('401 without a token', async () => {
    const res = await h.call('GET', '/api/weather?location=Stockholm')
    expect(res.status).toBe(401)
    expect(fake.requests).toHaveLength(0)
  })
})

describe('WMO codes to icons and conditions (CONTRACT §6)', () => {
  const cases: [number[], string, string][] = [
    [[0], 'clear', 'Clear'],
    [[1, 2], 'partly-cloudy', 'Partly cloudy'],
    [[3], 'cloudy', 'Cloudy'],
    [[45, 48], 'fog', 'Fog'],
    [[51, 53, 55, 56, 57], 'drizzle', 'Drizzle'],
    [[61, 63, 65, 66, 67, 80, 81, 82], 'rain', 'Rain'],
    [[71, 73, 75, 77, 85, 86], 'snow', 'Snow'],
    [[95, 96, 99], 'thunderstorm', 'Thunderstorm'],
    [[4, 50, 58, 70, 90], 'cloudy', 'Cloudy'],
  ]
  test.each(cases)('%j → %s', (codes, icon, condition) => {
    for (const code of codes) {
      const place = { name: 'Lund', latitude: 55.7, longitude: 13.2 }
      const daily = { ...forecast.daily, weather_code: forecast.daily.weather_code.map(() => code) }
      const weather = toWeather(place, { current: { ...forecast.current, weather_code: code }, daily }, '2026-12-24')
      expect(weather.location).toBe('Lund')
      expect(weather.current).toMatchObject({ icon, condition })
      expect(weather.forecast.map((day) => [day.icon, day.condition])).toEqual(Array(5).fill([icon, condition]))
    }
  })

  test('every icon is reached', () => {
    expect(new Set(cases.flatMap(([codes]) => codes.map(weatherIcon)))).toEqual(new Set(WEATHER_ICONS))
  })
})
