import type { Buble } from '@buble/shared/bubles'
import type { Permission } from '@buble/shared/permissions'
import type { ExternalEvent } from '@buble/shared/providers'
import { screen, waitFor, within } from '@testing-library/react'
import { beforeEach, expect, test, vi } from 'vitest'
import { FINDER_WINDOW, midwinterJazz } from '../../test/event-fixtures.ts'
import { json, type Reply } from '../../test/fake-fetch.ts'
import { alice, bob, bubleChange, makeBuble, makeMember, memberChange, ownedBy } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'

const NOW = new Date('2026-12-20T10:00:00Z')
const SEARCH = '/api/ticketmaster/events'
const STOCKHOLM = `GET ${SEARCH}?${FINDER_WINDOW}&city=Stockholm&countryCode=SE`

const jazz = midwinterJazz
const market: ExternalEvent = { ...jazz, id: 'tm-2', title: 'Spring Market', startDate: '2027-03-14', endDate: null }

beforeEach(() => {
  // Only Date: the search window starts now, and the real timers keep the app's machinery running.
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(NOW)
})

function open(api: Record<string, Reply | Reply[]> = {}, bubleFields: Partial<Buble> = {}, permissions?: Permission[]) {
  const buble = makeBuble({ name: 'Gig Club', ...bubleFields })
  const me = makeMember(alice, bubleFields.my_role ?? 'owner')
  const app = renderApp({
    route: '/bubles/gig-club',
    user: alice,
    server: {
      seed: [
        bubleChange(buble),
        memberChange(buble.id, permissions ? { ...me, permissions } : me),
        memberChange(buble.id, makeMember(bob, bubleFields.owner_id === bob.id ? 'owner' : 'member')),
      ],
    },
    api: { 'GET /api/users/profile': json(200, alice), ...api },
  })
  return { ...app, buble }
}

const finder = () => screen.findByRole('article', { name: 'Local Events' })
const searches = (app: ReturnType<typeof open>) =>
  app.calls
    .filter((call) => call.url.startsWith(SEARCH))
    .map((call) => Object.fromEntries(new URL(call.url, 'http://x').searchParams))
const lastSearch = (app: ReturnType<typeof open>) => searches(app).at(-1)

test('searches Stockholm for the coming month and lists what it finds', async () => {
  open({ [STOCKHOLM]: json(200, { events: [jazz, market] }) })
  const results = await within(await finder()).findByRole('list', { name: 'Events found' })
  const items = within(results).getAllByRole('listitem')
  expect(items.map((item) => within(item).getByRole('button').textContent)).toEqual(['Midwinter Jazz', 'Spring Market'])
  expect(items[0]).toHaveTextContent('Thu 24 Dec, 19:00 CET')
  expect(items[0]).toHaveTextContent('Fasching, Stockholm')
  expect(items[0]).toHaveTextContent('350–895.5 SEK')
  expect(items[0]).toHaveTextContent('Music')
  expect(items[1]).toHaveTextContent('Sunday, 14 March 2027')
  // The image is on another origin: the CSP would refuse it, so none is shown.
  expect(within(results).queryByRole('img')).toBeNull()
  expect(within(results).queryByText('Sample')).toBeNull()
})

test('a city (within its country), a category and a date range go into the query; All of Sweden searches the country', async () => {
  const app = open({ [STOCKHOLM]: json(200, { events: [] }) })
  expect(await within(await finder()).findByText('No events found')).toBeInTheDocument()
  await app.user.selectOptions(screen.getByLabelText('Where'), 'Göteborg')
  await app.user.selectOptions(screen.getByLabelText('Category'), 'Arts & Theatre')
  await app.user.selectOptions(screen.getByLabelText('When'), 'This week')
  await waitFor(() =>
    expect(lastSearch(app)).toEqual({
      startDateTime: '2026-12-20T10:00:00Z',
      endDateTime: '2026-12-27T10:00:00Z',
      size: '20',
      city: 'Göteborg',
      countryCode: 'SE',
      classificationName: 'Arts & Theatre',
    }),
  )
  await app.user.selectOptions(screen.getByLabelText('When'), 'Within 3 months')
  await app.user.selectOptions(screen.getByLabelText('Where'), 'All of Sweden')
  await waitFor(() =>
    expect(lastSearch(app)).toEqual({
      startDateTime: '2026-12-20T10:00:00Z',
      endDateTime: '2027-03-20T10:00:00Z',
      size: '20',
      countryCode: 'SE',
      classificationName: 'Arts & Theatre',
    }),
  )
  expect(screen.queryByLabelText('Radius')).toBeNull()
})

test('another country offers its own cities and the whole of it; another city is typed and searched on Enter', async () => {
  const app = open({ [STOCKHOLM]: json(200, { events: [] }) })
  expect(await within(await finder()).findByText('No events found')).toBeInTheDocument()
  await app.user.selectOptions(screen.getByLabelText('Country'), 'Norway')
  const where = screen.getByLabelText('Where')
  expect(where).toHaveValue('Oslo')
  expect(
    within(where)
      .getAllByRole('option')
      .map((option) => option.textContent),
  ).toEqual(['Oslo', 'Bergen', 'Trondheim', 'Stavanger', 'Another city…', 'All of Norway', 'Near me'])
  const window = { startDateTime: '2026-12-20T10:00:00Z', endDateTime: '2027-01-20T10:00:00Z', size: '20' }
  await waitFor(() => expect(lastSearch(app)).toEqual({ ...window, city: 'Oslo', countryCode: 'NO' }))
  await app.user.selectOptions(where, 'All of Norway')
  await waitFor(() => expect(lastSearch(app)).toEqual({ ...window, countryCode: 'NO' }))

  await app.user.selectOptions(where, 'Another city…')
  expect(await screen.findByText('Type a city and press Search.')).toBeInTheDocument()
  const asked = searches(app).length
  await app.user.type(screen.getByLabelText('City'), 'Tromsø')
  // Nothing is searched letter by letter.
  expect(searches(app)).toHaveLength(asked)
  await app.user.keyboard('{Enter}')
  await waitFor(() => expect(lastSearch(app)).toEqual({ ...window, city: 'Tromsø', countryCode: 'NO' }))
  expect(screen.queryByText('Type a city and press Search.')).toBeNull()
})

function placeDevice(outcome: 'found' | 'denied') {
  const getCurrentPosition = vi.fn(
    (found: PositionCallback, failed: PositionErrorCallback, _options?: PositionOptions) => {
      if (outcome === 'found') found({ coords: { latitude: 59.334591, longitude: 18.06324 } } as GeolocationPosition)
      else failed({ code: 1, message: 'User denied Geolocation' } as GeolocationPositionError)
    },
  )
  Object.defineProperty(navigator, 'geolocation', { value: { getCurrentPosition }, configurable: true })
  return getCurrentPosition
}

test('Near me asks the device where it is (8 s, a minute old at most) and searches around it', async () => {
  const getCurrentPosition = placeDevice('found')
  const app = open({ [STOCKHOLM]: json(200, { events: [] }) })
  await within(await finder()).findByText('No events found')
  await app.user.selectOptions(screen.getByLabelText('Where'), 'Near me')
  expect(getCurrentPosition.mock.calls[0]?.[2]).toEqual({ timeout: 8000, maximumAge: 60_000 })
  const around = { startDateTime: '2026-12-20T10:00:00Z', endDateTime: '2027-01-20T10:00:00Z', size: '20' }
  await waitFor(() => expect(lastSearch(app)).toEqual({ ...around, lat: '59.335', lng: '18.063', radius_km: '25' }))
  expect(screen.getByLabelText('Radius')).toHaveValue('25')
  await app.user.selectOptions(screen.getByLabelText('Radius'), '100 km')
  await waitFor(() => expect(lastSearch(app)).toEqual({ ...around, lat: '59.335', lng: '18.063', radius_km: '100' }))
})

test('when the device will not say where it is, the finder says so and stays with Stockholm', async () => {
  placeDevice('denied')
  const app = open({ [STOCKHOLM]: json(200, { events: [] }) })
  await within(await finder()).findByText('No events found')
  await app.user.selectOptions(screen.getByLabelText('Where'), 'Near me')
  expect(await screen.findByText('Your location is not available. Choose a city instead.')).toBeInTheDocument()
  expect(screen.getByLabelText('Where')).toHaveValue('Stockholm')
  expect(searches(app).every((query) => query.city === 'Stockholm')).toBe(true)
})

test('the details show every field and link to the tickets; Escape closes them', async () => {
  const app = open({ [STOCKHOLM]: json(200, { events: [jazz] }) })
  await app.user.click(await within(await finder()).findByRole('button', { name: 'Midwinter Jazz' }))
  const dialog = screen.getByRole('dialog', { name: 'Midwinter Jazz' })
  const facts = within(dialog)
    .getAllByRole('term')
    .map((term) => `${term.textContent}: ${term.nextElementSibling?.textContent}`)
  expect(facts).toEqual([
    'Starts: Thu 24 Dec, 19:00 CET',
    'Ends: Thu 24 Dec, 23:00 CET',
    'Where: Fasching, Stockholm',
    'Price: 350–895.5 SEK',
    'Category: Music',
    'Source: Ticketmaster',
  ])
  expect(dialog).toHaveTextContent('Bring warm clothes.')
  const tickets = within(dialog).getByRole('link', { name: /Tickets on Ticketmaster/ })
  expect(tickets).toHaveAttribute('href', jazz.url)
  expect(tickets).toHaveAttribute('rel', 'noopener noreferrer')
  expect(within(dialog).getByRole('button', { name: 'Create event' })).toBeInTheDocument()
  await app.user.keyboard('{Escape}')
  expect(screen.queryByRole('dialog')).toBeNull()
})

test('a member without create_events sees the details but no Create event', async () => {
  const app = open({ [STOCKHOLM]: json(200, { events: [jazz] }) }, { ...ownedBy(bob), my_permissions: [] }, [])
  await app.user.click(await within(await finder()).findByRole('button', { name: 'Midwinter Jazz' }))
  const dialog = screen.getByRole('dialog', { name: 'Midwinter Jazz' })
  expect(within(dialog).getByText('Source')).toBeInTheDocument()
  expect(within(dialog).queryByRole('button', { name: 'Create event' })).toBeNull()
})

test.each([
  [
    'answers 503 (no key)',
    json(503, { message: 'The local events finder is not configured', code: 'SERVICE_UNAVAILABLE' }),
  ],
  ['answers 502', json(502, { message: 'The event search did not answer in time.', code: 'BAD_GATEWAY' })],
  ['gives no answer', new TypeError('Failed to fetch')],
])('when the search %s, the sample event shows, marked, without a message and not creatable', async (_w, reply) => {
  const app = open({ [STOCKHOLM]: reply })
  const card = await finder()
  const sample = await within(card).findByRole('list', { name: 'Sample event' })
  expect(within(sample).getByText('Sample')).toBeInTheDocument()
  expect(within(card).queryByRole('alert')).toBeNull()
  expect(card).not.toHaveTextContent(/not configured|did not answer/)
  await app.user.click(within(sample).getByRole('button', { name: 'Summer concert in the park' }))
  const dialog = screen.getByRole('dialog', { name: 'Summer concert in the park' })
  expect(within(dialog).getByText('Sample event')).toBeInTheDocument()
  expect(within(dialog).queryByRole('button', { name: 'Create event' })).toBeNull()
})

test('offline the sample shows and nothing is asked for', async () => {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)
  const app = open()
  expect(await within(await finder()).findByRole('list', { name: 'Sample event' })).toBeInTheDocument()
  expect(searches(app)).toEqual([])
})
