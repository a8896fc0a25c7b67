import { type ExternalEvent, GEOLOCATION_MAX_AGE_MS, GEOLOCATION_TIMEOUT_MS } from '@buble/shared/providers'
import { useOnlineQuery } from '../../data/online.ts'
import { useApi } from '../../session/session-context.tsx'
import type { Point } from './finder-query.ts'

// Never shown: whatever went wrong (no key, the provider down, offline), the sample shows instead (spec part 2 §8).
const SEARCH_FAILED = 'The search failed'

/**
 * The finder's search, straight from the API (online only); null waits (Near me before the position
 * is known). A failed search is the finder's cue to show the sample event.
 */
export function useEventSearch(query: string | null) {
  const api = useApi()
  return useOnlineQuery(
    query,
    async (signal) => (await api.get<{ events: ExternalEvent[] }>(`/ticketmaster/events?${query}`, signal)).events,
    { failure: () => SEARCH_FAILED, offline: SEARCH_FAILED },
  )
}

const round3 = (value: number) => Math.round(value * 1000) / 1000

/** Where the device is, as spec part 2 §9 allows asking: 8 s at most, a position up to a minute old. */
export function locate(): Promise<Point> {
  return new Promise((resolve, reject) => {
    if (!('geolocation' in navigator)) return reject(new Error('No geolocation'))
    navigator.geolocation.getCurrentPosition(
      // Three decimals (about 100 m) are plenty for a 10 km radius, and tell the server less.
      ({ coords }) => resolve({ lat: round3(coords.latitude), lng: round3(coords.longitude) }),
      reject,
      { timeout: GEOLOCATION_TIMEOUT_MS, maximumAge: GEOLOCATION_MAX_AGE_MS },
    )
  })
}
