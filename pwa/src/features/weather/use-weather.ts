import type { Weather } from '@buble/shared/providers'
import { useEffect, useState } from 'react'
import { useOnline } from '../../data/sync-status.ts'
import { messageOf } from '../../session/api-client.ts'
import { useApi } from '../../session/session-context.tsx'
import { WEATHER_TEXTS } from './weather-texts.ts'

export type WeatherLoad =
  | { status: 'loading' }
  | { status: 'ready'; weather: Weather }
  | { status: 'failed'; message: string }

/** The weather at a place, straight from the API (online only); asked again when the device comes back online. */
export function useWeather(location: string): WeatherLoad {
  const api = useApi()
  const online = useOnline()
  const [load, setLoad] = useState<WeatherLoad>({ status: 'loading' })

  useEffect(() => {
    if (!online) {
      setLoad({ status: 'failed', message: WEATHER_TEXTS.offline })
      return
    }
    const controller = new AbortController()
    setLoad({ status: 'loading' })
    api
      .get<Weather>(`/weather?${new URLSearchParams({ location })}`, controller.signal)
      .then((weather) => setLoad({ status: 'ready', weather }))
      .catch((err: unknown) => {
        if (controller.signal.aborted) return
        // fetch rejects with a TypeError when no answer came at all.
        const message = err instanceof TypeError ? WEATHER_TEXTS.offline : messageOf(err, WEATHER_TEXTS.failed)
        setLoad({ status: 'failed', message })
      })
    return () => controller.abort()
  }, [api, location, online])

  return load
}
