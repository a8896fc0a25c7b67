/**
 * Local stand-ins for the outside services the server calls (CONTRACT §6), speaking their
 * documented JSON: Open-Meteo geocoding (`/v1/search`) and forecast (`/v1/forecast`), and the
 * Ticketmaster Discovery API (`/discovery/v2/events.json`). Every request is kept for the tests.
 */

import { createServer, type Server } from 'node:http'

/** The places the fake geocoder knows. */
const PLACES: Record<string, { name: string; country: string; latitude: number; longitude: number }> = {
  stockholm: { name: 'Stockholm', country: 'Sweden', latitude: 59.32938, longitude: 18.06871 },
  uppsala: { name: 'Uppsala', country: 'Sweden', latitude: 59.85882, longitude: 17.63889 },
}

/** Today and the next days in Stockholm, as Open-Meteo writes dates with timezone=Europe/Stockholm. */
function stockholmDays(count: number): string[] {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Stockholm' }).format(new Date())
  const start = Date.parse(`${today}T12:00:00Z`)
  return Array.from({ length: count }, (_, i) => new Date(start + i * 86_400_000).toISOString().slice(0, 10))
}

export const FAKE_EXTERNAL_EVENT = {
  id: 'G5vYZ9fake1',
  name: 'Midwinter Jazz at Fasching',
  info: 'An evening of Nordic jazz.',
  url: 'https://www.ticketmaster.se/event/G5vYZ9fake1',
  venue: 'Fasching',
  city: 'Stockholm',
}

function forecast(url: URL) {
  const days = stockholmDays(Number(url.searchParams.get('forecast_days') ?? 5))
  return {
    latitude: Number(url.searchParams.get('latitude')),
    longitude: Number(url.searchParams.get('longitude')),
    timezone: 'Europe/Stockholm',
    current_units: { temperature_2m: '°C', relative_humidity_2m: '%', wind_speed_10m: 'km/h', visibility: 'm' },
    current: {
      time: `${days[0]}T09:00`,
      interval: 900,
      temperature_2m: 3.44,
      relative_humidity_2m: 81,
      weather_code: 61,
      wind_speed_10m: 14.26,
      visibility: 24140,
    },
    daily_units: { temperature_2m_max: '°C', temperature_2m_min: '°C', precipitation_sum: 'mm' },
    daily: {
      time: days,
      weather_code: [61, 3, 0, 71, 95].slice(0, days.length),
      temperature_2m_max: [4.26, 5.1, 2.05, -0.44, 6].slice(0, days.length),
      temperature_2m_min: [0.5, 1.04, -3.25, -5, 2].slice(0, days.length),
      precipitation_sum: [2.37, 0, 0, 4.1, 12.05].slice(0, days.length),
    },
  }
}

function ticketmaster() {
  const start = new Date(Date.now() + 10 * 86_400_000)
  const localDate = start.toISOString().slice(0, 10)
  return {
    _embedded: {
      events: [
        {
          name: FAKE_EXTERNAL_EVENT.name,
          type: 'event',
          id: FAKE_EXTERNAL_EVENT.id,
          url: FAKE_EXTERNAL_EVENT.url,
          info: FAKE_EXTERNAL_EVENT.info,
          images: [
            { ratio: '3_2', url: 'https://s1.ticketm.net/small.jpg', width: 305, height: 203 },
            { ratio: '16_9', url: 'https://s1.ticketm.net/large.jpg', width: 2048, height: 1152 },
          ],
          dates: { start: { localDate, localTime: '19:30:00', dateTime: `${localDate}T18:30:00Z` } },
          classifications: [{ primary: true, segment: { id: 'KZFzniwnSyZfZ7v7nJ', name: 'Music' } }],
          priceRanges: [{ type: 'standard', currency: 'SEK', min: 250, max: 450 }],
          _embedded: { venues: [{ name: FAKE_EXTERNAL_EVENT.venue, city: { name: FAKE_EXTERNAL_EVENT.city } }] },
        },
      ],
    },
    page: { size: 20, totalElements: 1, totalPages: 1, number: 0 },
  }
}

export interface FakeProviders {
  requests: URL[]
  close(): Promise<void>
}

export async function startFakeProviders(port: number): Promise<FakeProviders> {
  const requests: URL[] = []
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`)
    requests.push(url)
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    if (url.pathname === '/v1/search') {
      const place = PLACES[(url.searchParams.get('name') ?? '').trim().toLowerCase()]
      return send(
        200,
        place ? { results: [{ id: 1, ...place, timezone: 'Europe/Stockholm' }] } : { generationtime_ms: 0.2 },
      )
    }
    if (url.pathname === '/v1/forecast') return send(200, forecast(url))
    if (url.pathname === '/discovery/v2/events.json') return send(200, ticketmaster())
    send(404, { error: true, reason: 'Not found' })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', resolve)
  })
  return { requests, close: () => new Promise((resolve) => server.close(() => resolve())) }
}
