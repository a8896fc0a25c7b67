import { type ExternalEvent, GEOLOCATION_MAX_AGE_MS, GEOLOCATION_TIMEOUT_MS } from '@buble/shared/providers'
import { useEffect, useState } from 'react'
import { useOnline } from '../../data/sync-status.ts'
import { useApi } from '../../session/session-context.tsx'
import type { Point } from './finder-query.ts'

/** `sample`: the search failed (no key, the provider down, offline), so the sample event shows (spec part 2 §8). */
export type EventSearch =
  | { status: 'waiting' }
  | { status: 'loading' }
  | { status: 'ready'; events: ExternalEvent[] }
  | { status: 'sample' }

/** The finder's search, straight from the API (online only); null waits (Near me before the position is known). */
export function useEventSearch(query: string | null): EventSearch {
  const api = useApi()
  const online = useOnline()
  const [search, setSearch] = useState<EventSearch>({ status: 'loading' })

  useEffect(() => {
    if (!online) return setSearch({ status: 'sample' })
    if (query === null) return setSearch({ status: 'waiting' })
    const controller = new AbortController()
    setSearch({ status: 'loading' })
    api
      .get<{ events: ExternalEvent[] }>(`/ticketmaster/events?${query}`, controller.signal)
      .then(({ events }) => setSearch({ status: 'ready', events }))
      .catch(() => {
        // Whatever went wrong, the sample shows and no message does.
        if (!controller.signal.aborted) setSearch({ status: 'sample' })
      })
    return () => controller.abort()
  }, [api, online, query])

  return search
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
