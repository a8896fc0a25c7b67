/** What the finder asks the API for (spec part 2 §7, §9), and what it shows when it cannot ask. */

import {
  ALL_CITIES,
  type DateRange,
  dateRangeEnd,
  EXTERNAL_SEARCH_SIZE,
  type ExternalEvent,
  ticketmasterDateTime,
} from '@buble/shared/providers'

/** The "where" choice beside the cities: the device's own position. */
export const NEAR_ME = 'near-me'
/** The "where" choice of a city typed by the member (in `city`). */
export const OTHER_CITY = 'other-city'

export interface Point {
  lat: number
  lng: number
}

export interface FinderFilters {
  /** The country searched (ISO code): a city's, or the whole of it. */
  country: string
  /** A city of the country's list, ALL_CITIES, NEAR_ME, or OTHER_CITY. */
  place: string
  /** The city typed, for OTHER_CITY. */
  city: string
  /** '' for every category. */
  category: string
  range: DateRange
  radiusKm: number
}

/**
 * The search's query string; null for Near me until the device has said where it is, and for another city
 * until one is typed. A city is searched within its country, so a Paris is the one in France.
 */
export function finderQuery(filters: FinderFilters, now: Date, point: Point | null): string | null {
  const query = new URLSearchParams({
    startDateTime: ticketmasterDateTime(now),
    endDateTime: ticketmasterDateTime(dateRangeEnd(filters.range, now)),
    size: String(EXTERNAL_SEARCH_SIZE),
  })
  if (filters.place === NEAR_ME) {
    if (!point) return null
    query.set('lat', String(point.lat))
    query.set('lng', String(point.lng))
    query.set('radius_km', String(filters.radiusKm))
  } else if (filters.place === ALL_CITIES) query.set('countryCode', filters.country)
  else {
    const city = filters.place === OTHER_CITY ? filters.city.trim() : filters.place
    if (!city) return null
    query.set('city', city)
    query.set('countryCode', filters.country)
  }
  if (filters.category) query.set('classificationName', filters.category)
  return query.toString()
}

/**
 * Spec part 2 §4, §8: shown, marked as a sample, when the search fails; it cannot become an event.
 * It is set a week ahead so it reads like a real listing.
 */
export function sampleEvent(now: Date): ExternalEvent {
  return {
    id: 'sample',
    title: 'Summer concert in the park',
    description: 'An open-air evening of music: an example of what the finder shows.',
    location: 'Sample venue, Stockholm',
    startDate: new Date(now.getTime() + 7 * 24 * 3600_000).toISOString(),
    endDate: null,
    price: '200–350 SEK',
    category: 'Music',
    source: 'ticketmaster',
    url: null,
    image: null,
  }
}

/** Only an image on our own origin may show: the CSP refuses images from elsewhere anyway. */
export function sameOriginImage(url: string | null): string | null {
  if (!url) return null
  try {
    return new URL(url, window.location.origin).origin === window.location.origin ? url : null
  } catch {
    return null
  }
}
