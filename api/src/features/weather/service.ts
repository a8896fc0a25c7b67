/**
 * The weather widget's data (spec part 2 §3, CONTRACT §6): Open-Meteo's geocoder finds the place,
 * its forecast API the weather, mapped to metric values rounded to one decimal. Answers are kept
 * 10 minutes per place so a buble full of open overviews asks the provider once.
 */

import { FORECAST_DAYS, WEATHER_CONDITIONS, type Weather, weatherIcon } from '@buble/shared/providers'
import { isoToStockholmLocal } from '@buble/shared/time'
import { z } from 'zod'
import { notFound } from '../../lib/errors.ts'
import { type ProviderJson, providerFailed, providerUrl } from '../../lib/provider-fetch.ts'

export const WEATHER_SERVICE = 'The weather service'
export const WEATHER_CACHE_MS = 10 * 60_000
/** Places kept at once; the oldest goes first, so memory stays bounded whatever people type. */
const CACHE_ENTRIES = 500

const Num = z.number().finite()
const GeocodingAnswer = z.object({
  results: z
    .array(z.object({ name: z.string().min(1), latitude: Num, longitude: Num, country: z.string().optional() }))
    .optional(),
})
const Days = z.array(Num)
const ForecastAnswer = z.object({
  current: z.object({
    temperature_2m: Num,
    relative_humidity_2m: Num,
    weather_code: Num,
    wind_speed_10m: Num,
    visibility: Num,
  }),
  daily: z.object({
    time: z.array(z.string().regex(/^\d{4}-\d{2}-\d{2}$/)),
    weather_code: Days,
    temperature_2m_max: Days,
    temperature_2m_min: Days,
    precipitation_sum: Days,
  }),
})
type Place = NonNullable<z.infer<typeof GeocodingAnswer>['results']>[number]
type Forecast = z.infer<typeof ForecastAnswer>

// `|| 0`: -0.04 rounds to -0, which no one wants to read.
const round = (value: number) => Math.round(value * 10) / 10 || 0
const WEEKDAY = new Intl.DateTimeFormat('en-US', { weekday: 'short', timeZone: 'UTC' })
/** The short English weekday of a calendar date ('2026-12-24' → 'Thu'). */
const weekday = (date: string) => WEEKDAY.format(new Date(`${date}T00:00:00Z`))
/** Today's date in Stockholm, YYYY-MM-DD. */
const stockholmToday = (now: Date) => isoToStockholmLocal(now.toISOString()).slice(0, 10)
/** One key per place however it was typed: 'stockholm', ' Stockholm ' and 'STOCKHOLM' are one place. */
const placeKey = (location: string) => location.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase()

export interface WeatherDeps {
  json: ProviderJson
  config: { baseUrl: string; geocodingUrl: string }
  now: () => Date
}

export function weatherService({ json, config, now }: WeatherDeps) {
  const cache = new Map<string, { at: number; weather: Weather }>()

  async function geocode(location: string): Promise<Place> {
    const query = { name: location, count: '1', language: 'en', format: 'json' }
    const answer = GeocodingAnswer.safeParse(await json(providerUrl(config.geocodingUrl, '/v1/search', query)))
    if (!answer.success) throw providerFailed(WEATHER_SERVICE)
    const place = answer.data.results?.[0]
    if (!place) throw notFound('Location not found')
    return place
  }

  async function forecast(place: Place): Promise<Forecast> {
    const query = {
      latitude: String(place.latitude),
      longitude: String(place.longitude),
      current: 'temperature_2m,relative_humidity_2m,weather_code,wind_speed_10m,visibility',
      daily: 'weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum',
      timezone: 'Europe/Stockholm',
      forecast_days: String(FORECAST_DAYS),
      wind_speed_unit: 'kmh',
    }
    const answer = ForecastAnswer.safeParse(await json(providerUrl(config.baseUrl, '/v1/forecast', query)))
    if (!answer.success) throw providerFailed(WEATHER_SERVICE)
    return answer.data
  }

  function remember(key: string, weather: Weather, at: number) {
    cache.delete(key)
    if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value as string)
    cache.set(key, { at, weather })
  }

  return {
    /** The weather at a place; 404 'Location not found' when the geocoder knows no such place, 502 when a provider fails. */
    async weather(location: string): Promise<Weather> {
      const at = now().getTime()
      const today = stockholmToday(now())
      // The date is part of the key: an answer from before midnight never passes for today's.
      const key = `${today} ${placeKey(location)}`
      const cached = cache.get(key)
      if (cached && at >= cached.at && at - cached.at < WEATHER_CACHE_MS) return cached.weather
      const place = await geocode(location)
      const weather = toWeather(place, await forecast(place), today)
      remember(key, weather, at)
      return weather
    },
  }
}
export type WeatherService = ReturnType<typeof weatherService>

export function toWeather(place: Place, { current, daily }: Forecast, today: string): Weather {
  const currentIcon = weatherIcon(current.weather_code)
  const forecast: Weather['forecast'] = []
  for (const [i, date] of daily.time.entries()) {
    // Open-Meteo starts at its own today; a day that is already over in Stockholm is left out.
    if (date < today || forecast.length === FORECAST_DAYS) continue
    const [code, high, low, precipitation] = [
      daily.weather_code[i],
      daily.temperature_2m_max[i],
      daily.temperature_2m_min[i],
      daily.precipitation_sum[i],
    ]
    if (code === undefined || high === undefined || low === undefined || precipitation === undefined) {
      throw providerFailed(WEATHER_SERVICE)
    }
    const icon = weatherIcon(code)
    forecast.push({
      date,
      day: weekday(date),
      high: round(high),
      low: round(low),
      condition: WEATHER_CONDITIONS[icon],
      icon,
      precipitation: round(precipitation),
    })
  }
  if (forecast.length === 0) throw providerFailed(WEATHER_SERVICE)
  return {
    location: place.country ? `${place.name}, ${place.country}` : place.name,
    current: {
      temperature: round(current.temperature_2m),
      condition: WEATHER_CONDITIONS[currentIcon],
      humidity: round(current.relative_humidity_2m),
      windSpeed: round(current.wind_speed_10m),
      visibility: round(current.visibility / 1000),
      icon: currentIcon,
    },
    forecast,
  }
}
