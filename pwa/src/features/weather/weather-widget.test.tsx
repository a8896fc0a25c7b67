import type { Weather } from '@buble/shared/providers'
import { FIXED_TOOLS } from '@buble/shared/tools'
import { screen, within } from '@testing-library/react'
import { expect, test, vi } from 'vitest'
import { deferred } from '../../test/deferred.ts'
import { json, type Reply } from '../../test/fake-fetch.ts'
import { alice, bubleChange, makeBuble, makeMember, memberChange } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'

const buble = makeBuble({ name: 'Weather Club', tools: [...FIXED_TOOLS, 'weather'] })
const STOCKHOLM = 'GET /api/weather?location=Stockholm'

const stockholm: Weather = {
  location: 'Stockholm, Sweden',
  current: { temperature: -3.2, condition: 'Snow', humidity: 87, windSpeed: 12.3, visibility: 24.1, icon: 'snow' },
  forecast: [
    { date: '2026-12-24', day: 'Thu', high: 0, low: -5.5, condition: 'Clear', icon: 'clear', precipitation: 0 },
    { date: '2026-12-25', day: 'Fri', high: -1.1, low: -7, condition: 'Fog', icon: 'fog', precipitation: 0.3 },
    { date: '2026-12-26', day: 'Sat', high: 2.5, low: -2, condition: 'Rain', icon: 'rain', precipitation: 12.4 },
    { date: '2026-12-27', day: 'Sun', high: 3, low: 0, condition: 'Cloudy', icon: 'cloudy', precipitation: 1 },
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
}

function open(api: Record<string, Reply | Reply[]>) {
  return renderApp({
    route: '/bubles/weather-club',
    user: alice,
    server: { seed: [bubleChange(buble), memberChange(buble.id, makeMember(alice, 'owner'))] },
    api: { 'GET /api/users/profile': json(200, alice), ...api },
  })
}

const card = async () => screen.findByRole('article', { name: 'Weather' })
const facts = (region: HTMLElement) =>
  Object.fromEntries(
    within(region)
      .getAllByRole('term')
      .map((term) => [term.textContent, term.nextElementSibling?.textContent]),
  )
const days = (region: HTMLElement) =>
  within(within(region).getByRole('list', { name: '5-day forecast' }))
    .getAllByRole('listitem')
    .map((day) => [day.textContent, within(day).getByRole('img').getAttribute('aria-label')])

test('current conditions and the 5-day forecast from the API, with feels-like two degrees up', async () => {
  const answer = deferred<Response>()
  open({ [STOCKHOLM]: () => answer.promise })
  expect(await within(await card()).findByRole('status')).toHaveTextContent('Loading weather…')
  answer.resolve(json(200, stockholm))
  const report = await within(await card()).findByRole('region', { name: 'Weather in Stockholm, Sweden' })
  expect(report).toHaveTextContent('Stockholm, Sweden')
  expect(report).toHaveTextContent('-3.2°C')
  expect(within(report).getByRole('img', { name: 'Snow' })).toBeInTheDocument()
  expect(facts(report)).toEqual({ 'Feels like': '-1.2°C', Humidity: '87%', Wind: '12.3 km/h', Visibility: '24.1 km' })
  expect(days(report)).toEqual([
    ['Thu☀️High 0°C / Low -5.5°CPrecipitation 0 mm', 'Clear'],
    ['Fri🌫️High -1.1°C / Low -7°CPrecipitation 0.3 mm', 'Fog'],
    ['Sat🌧️High 2.5°C / Low -2°CPrecipitation 12.4 mm', 'Rain'],
    ['Sun☁️High 3°C / Low 0°CPrecipitation 1 mm', 'Cloudy'],
    ['Mon⛈️High 5°C / Low 1°CPrecipitation 3 mm', 'Thunderstorm'],
  ])
  expect(within(await card()).queryByRole('alert')).toBeNull()
})

test('another place is asked for, and this device remembers it for this buble', async () => {
  const app = open({
    [STOCKHOLM]: json(200, stockholm),
    'GET /api/weather?location=G%C3%B6teborg': json(200, { ...stockholm, location: 'Göteborg, Sweden' }),
  })
  const location = await within(await card()).findByLabelText('Location')
  expect(location).toHaveValue('Stockholm')
  await app.user.clear(location)
  await app.user.type(location, '  Göteborg {Enter}')
  expect(await screen.findByRole('region', { name: 'Weather in Göteborg, Sweden' })).toBeInTheDocument()
  expect(localStorage.getItem(`buble:weather-location:${buble.id}`)).toBe('Göteborg')
  app.unmount()

  const again = open({ 'GET /api/weather?location=G%C3%B6teborg': json(200, { ...stockholm, location: 'Göteborg' }) })
  expect(await screen.findByRole('region', { name: 'Weather in Göteborg' })).toBeInTheDocument()
  expect(again.callsTo(STOCKHOLM)).toHaveLength(0)
})

test('a blank place is not asked for', async () => {
  const app = open({ [STOCKHOLM]: json(200, stockholm) })
  const location = await within(await card()).findByLabelText('Location')
  await app.user.clear(location)
  await app.user.click(screen.getByRole('button', { name: 'Show weather' }))
  expect(await screen.findByText('Location is required')).toBeInTheDocument()
  expect(app.calls.filter((call) => call.url.startsWith('/api/weather'))).toHaveLength(1)
})

test.each([
  [
    "the server's message",
    json(502, { message: 'The weather service did not answer in time. Try again later.', code: 'BAD_GATEWAY' }),
    'The weather service did not answer in time. Try again later.',
  ],
  [
    'the fallback text when the server gave none',
    new Response('Bad gateway', { status: 502 }),
    'Failed to load weather data',
  ],
  [
    "'Unable to load weather data' when no answer came",
    new TypeError('Failed to fetch'),
    'Unable to load weather data',
  ],
])('a failure shows %s with the sample forecast, marked as such', async (_what, reply, message) => {
  open({ [STOCKHOLM]: reply })
  const weather = await card()
  expect(await within(weather).findByRole('alert')).toHaveTextContent(message)
  const sample = within(weather).getByRole('region', { name: 'Sample forecast, not real data' })
  expect(within(weather).getAllByText('Sample forecast, not real data')[0]).toBeVisible()
  expect(days(sample)).toHaveLength(5)
  expect(within(weather).queryByRole('region', { name: /^Weather in/ })).toBeNull()
})

test("offline, 'Unable to load weather data' with the sample, and nothing is asked for", async () => {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)
  const app = open({})
  const weather = await card()
  expect(await within(weather).findByRole('alert')).toHaveTextContent('Unable to load weather data')
  expect(within(weather).getByRole('region', { name: 'Sample forecast, not real data' })).toBeInTheDocument()
  expect(app.calls.filter((call) => call.url.startsWith('/api/weather'))).toHaveLength(0)
})
