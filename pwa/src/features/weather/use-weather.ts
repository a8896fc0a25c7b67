import type { Weather } from '@buble/shared/providers'
import { useOnlineQuery } from '../../data/online.ts'
import { useApi } from '../../session/session-context.tsx'
import { WEATHER_TEXTS } from './weather-texts.ts'

/** The weather at a place, straight from the API (online only); asked again when the device comes back online. */
export function useWeather(location: string) {
  const api = useApi()
  return useOnlineQuery(
    location,
    (signal) => api.get<Weather>(`/weather?${new URLSearchParams({ location })}`, signal),
    { failure: WEATHER_TEXTS.failed, offline: WEATHER_TEXTS.offline },
  )
}
