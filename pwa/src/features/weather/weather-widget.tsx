import { DEFAULT_WEATHER_LOCATION, WeatherQuery } from '@buble/shared/providers'
import { type FormEvent, useState } from 'react'
import type { LocalBuble } from '../../data/bubles.ts'
import { Alert } from '../../ui/alert.tsx'
import { Field } from '../../ui/field.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { useWeather } from './use-weather.ts'
import { WeatherReport } from './weather-report.tsx'
import { SAMPLE_WEATHER, WEATHER_TEXTS } from './weather-texts.ts'

// Per buble and per device: each group has its own place, and nobody else's choice moves yours.
const storageKey = (bubleId: string) => `buble:weather-location:${bubleId}`

function storedLocation(bubleId: string): string {
  try {
    return localStorage.getItem(storageKey(bubleId)) || DEFAULT_WEATHER_LOCATION
  } catch {
    return DEFAULT_WEATHER_LOCATION
  }
}

function storeLocation(bubleId: string, location: string) {
  try {
    localStorage.setItem(storageKey(bubleId), location)
  } catch {
    // Storage refused (private mode, full): the place holds for this visit only.
  }
}

/** The overview's Weather tool: current conditions and a 5-day forecast for a place this device remembers. */
export function WeatherWidget({ buble }: { buble: LocalBuble }) {
  const [location, setLocation] = useState(() => storedLocation(buble.id))
  const [draft, setDraft] = useState(location)
  const [draftError, setDraftError] = useState<string | null>(null)
  const load = useWeather(location)

  function choose(event: FormEvent) {
    event.preventDefault()
    const parsed = WeatherQuery.shape.location.safeParse(draft)
    if (!parsed.success) return setDraftError('Location is required')
    setDraftError(null)
    setDraft(parsed.data)
    setLocation(parsed.data)
    storeLocation(buble.id, parsed.data)
  }

  return (
    <div className="weather">
      <form className="weather-place-form" onSubmit={choose} noValidate>
        <Field
          label="Location"
          value={draft}
          onValue={setDraft}
          error={draftError}
          autoComplete="address-level2"
          maxLength={100}
        />
        <button type="submit" className="btn btn-secondary btn-small">
          Show weather
        </button>
      </form>
      {load.status === 'loading' && <Spinner label={WEATHER_TEXTS.loading} />}
      {load.status === 'ready' && <WeatherReport weather={load.data} label={`Weather in ${load.data.location}`} />}
      {load.status === 'failed' && (
        <>
          <Alert kind="error">{load.message}</Alert>
          <p className="badge badge-warning">{WEATHER_TEXTS.sample}</p>
          <WeatherReport weather={SAMPLE_WEATHER} label={WEATHER_TEXTS.sample} />
        </>
      )}
    </div>
  )
}
