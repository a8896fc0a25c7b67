/**
 * Weather and the local events finder (spec part 2 §3, §7, §9; CONTRACT §3.3, §6): the answer
 * shapes, the WMO → icon table, the finder's constants and its query.
 */

import { z } from 'zod'

export const WEATHER_ICONS = [
  'clear',
  'partly-cloudy',
  'cloudy',
  'fog',
  'drizzle',
  'rain',
  'snow',
  'thunderstorm',
] as const
export type WeatherIcon = (typeof WEATHER_ICONS)[number]

/** CONTRACT §6: WMO weather interpretation codes to icons; an unknown code reads cloudy. */
export function weatherIcon(code: number): WeatherIcon {
  if (code === 0) return 'clear'
  if (code === 1 || code === 2) return 'partly-cloudy'
  if (code === 3) return 'cloudy'
  if (code === 45 || code === 48) return 'fog'
  if (code >= 51 && code <= 57) return 'drizzle'
  if ((code >= 61 && code <= 67) || (code >= 80 && code <= 82)) return 'rain'
  if ((code >= 71 && code <= 77) || code === 85 || code === 86) return 'snow'
  if (code >= 95 && code <= 99) return 'thunderstorm'
  return 'cloudy'
}

/** A condition in words, for each icon. */
export const WEATHER_CONDITIONS: Readonly<Record<WeatherIcon, string>> = {
  clear: 'Clear',
  'partly-cloudy': 'Partly cloudy',
  cloudy: 'Cloudy',
  fog: 'Fog',
  drizzle: 'Drizzle',
  rain: 'Rain',
  snow: 'Snow',
  thunderstorm: 'Thunderstorm',
}

/** Days in the forecast, starting today (Europe/Stockholm). */
export const FORECAST_DAYS = 5
/** Where the weather widget looks when nothing else is chosen. */
export const DEFAULT_WEATHER_LOCATION = 'Stockholm'

export interface WeatherCurrent {
  temperature: number
  condition: string
  humidity: number
  windSpeed: number
  visibility: number
  icon: WeatherIcon
}

export interface ForecastDay {
  /** YYYY-MM-DD. */
  date: string
  /** Short English weekday: Mon. */
  day: string
  high: number
  low: number
  condition: string
  icon: WeatherIcon
  precipitation: number
}

export interface Weather {
  location: string
  current: WeatherCurrent
  forecast: ForecastDay[]
}

/** Spec part 2 §3: feels-like is shown as the temperature plus 2. */
export const feelsLike = (temperature: number): number => Math.round((temperature + 2) * 10) / 10

export const WeatherQuery = z.object({
  location: z
    .string({ error: 'location is required' })
    .trim()
    .min(1, { error: 'location is required' })
    .max(100, { error: 'location must be at most 100 characters' }),
})

// ---- the local events finder ------------------------------------------------------------------

/** Spec part 2 §9. */
export const EXTERNAL_SEARCH_SIZE = 20
export const RADIUS_CHOICES_KM = [10, 25, 50, 100] as const
export const DEFAULT_RADIUS_KM = 25
export const DATE_RANGES = ['this-week', 'this-month', 'within-3-months'] as const
export type DateRange = (typeof DATE_RANGES)[number]
export const DATE_RANGE_LABELS: Readonly<Record<DateRange, string>> = {
  'this-week': 'This week',
  'this-month': 'This month',
  'within-3-months': 'Within 3 months',
}
export const DEFAULT_CITY = 'Stockholm'
export const FINDER_CITIES = [
  'Stockholm',
  'Göteborg',
  'Malmö',
  'Uppsala',
  'Västerås',
  'Örebro',
  'Linköping',
  'Helsingborg',
  'Norrköping',
  'Lund',
] as const
/** The finder's "all cities" choice searches the whole country. */
export const ALL_CITIES = 'all'
export const FINDER_COUNTRY_CODE = 'SE'

export interface FinderCountry {
  /** ISO 3166-1 alpha-2, as Ticketmaster's countryCode takes it. */
  code: string
  name: string
  /** A few cities to pick; any other may be typed. */
  cities: readonly string[]
}

/**
 * The countries the local events finder offers (Ticketmaster's larger markets; decision 83): Sweden first, as
 * the spec's finder was Swedish, then the rest by name. A city is picked from the list or typed.
 */
export const FINDER_COUNTRIES: readonly FinderCountry[] = [
  { code: FINDER_COUNTRY_CODE, name: 'Sweden', cities: FINDER_CITIES },
  { code: 'AU', name: 'Australia', cities: ['Sydney', 'Melbourne', 'Brisbane', 'Perth'] },
  { code: 'AT', name: 'Austria', cities: ['Vienna', 'Graz', 'Salzburg'] },
  { code: 'BE', name: 'Belgium', cities: ['Brussels', 'Antwerp', 'Ghent'] },
  { code: 'CA', name: 'Canada', cities: ['Toronto', 'Montreal', 'Vancouver', 'Calgary'] },
  { code: 'DK', name: 'Denmark', cities: ['Copenhagen', 'Aarhus', 'Odense', 'Aalborg'] },
  { code: 'FI', name: 'Finland', cities: ['Helsinki', 'Tampere', 'Turku'] },
  { code: 'FR', name: 'France', cities: ['Paris', 'Lyon', 'Marseille'] },
  { code: 'DE', name: 'Germany', cities: ['Berlin', 'Hamburg', 'Munich', 'Cologne', 'Frankfurt'] },
  { code: 'IE', name: 'Ireland', cities: ['Dublin', 'Cork', 'Galway'] },
  { code: 'IT', name: 'Italy', cities: ['Rome', 'Milan', 'Turin'] },
  { code: 'MX', name: 'Mexico', cities: ['Mexico City', 'Guadalajara', 'Monterrey'] },
  { code: 'NL', name: 'Netherlands', cities: ['Amsterdam', 'Rotterdam', 'Utrecht'] },
  { code: 'NZ', name: 'New Zealand', cities: ['Auckland', 'Wellington', 'Christchurch'] },
  { code: 'NO', name: 'Norway', cities: ['Oslo', 'Bergen', 'Trondheim', 'Stavanger'] },
  { code: 'PL', name: 'Poland', cities: ['Warsaw', 'Kraków', 'Gdańsk'] },
  { code: 'ES', name: 'Spain', cities: ['Madrid', 'Barcelona', 'Valencia', 'Seville'] },
  { code: 'CH', name: 'Switzerland', cities: ['Zürich', 'Geneva', 'Basel'] },
  { code: 'GB', name: 'United Kingdom', cities: ['London', 'Manchester', 'Birmingham', 'Glasgow'] },
  { code: 'US', name: 'United States', cities: ['New York', 'Los Angeles', 'Chicago', 'Austin'] },
]

/** A country of the finder by its code; Sweden for a code it does not offer. */
export const finderCountry = (code: string): FinderCountry =>
  FINDER_COUNTRIES.find((country) => country.code === code) ?? (FINDER_COUNTRIES[0] as FinderCountry)
export const FINDER_CATEGORIES = ['Music', 'Sports', 'Arts & Theatre', 'Film', 'Miscellaneous'] as const
export const GEOLOCATION_TIMEOUT_MS = 8000
export const GEOLOCATION_MAX_AGE_MS = 60_000
/** Spec part 2 §4: the poll a finder event may bring along. */
export const DEFAULT_EVENT_POLL_OPTIONS = ['Going', 'Maybe', 'Not Going'] as const

/** The end of a date range starting at `start` (spec part 2 §9: 7 days, one month, three months). */
export function dateRangeEnd(range: DateRange, start: Date): Date {
  const end = new Date(start.getTime())
  if (range === 'this-week') end.setUTCDate(end.getUTCDate() + 7)
  else end.setUTCMonth(end.getUTCMonth() + (range === 'this-month' ? 1 : 3))
  return end
}

/** Ticketmaster's date-time form: ISO 8601 in UTC without milliseconds. */
export const ticketmasterDateTime = (date: Date): string => `${date.toISOString().slice(0, 19)}Z`

export interface ExternalEvent {
  id: string
  title: string
  description: string | null
  location: string
  startDate: string
  endDate: string | null
  price: string | null
  category: string | null
  source: 'ticketmaster'
  url: string | null
  image: string | null
}

const QueryText = z.string().trim().min(1).max(200)
const Coordinate = (min: number, max: number) => z.coerce.number().min(min).max(max)

/** `GET /api/ticketmaster/events` (spec part 2 §7): the values pass through to the provider unchanged. */
export const TicketmasterQuery = z.object({
  startDateTime: QueryText.optional(),
  endDateTime: QueryText.optional(),
  size: z.coerce.number().int().min(1).max(200).optional(),
  lat: Coordinate(-90, 90).optional(),
  lng: Coordinate(-180, 180).optional(),
  radius_km: z.coerce.number().positive().max(20_000).optional(),
  countryCode: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, { error: 'countryCode must be two letters' })
    .optional(),
  city: QueryText.optional(),
  classificationName: QueryText.optional(),
})
export type TicketmasterQuery = z.infer<typeof TicketmasterQuery>
