import {
  ALL_CITIES,
  DATE_RANGE_LABELS,
  DATE_RANGES,
  type DateRange,
  FINDER_CATEGORIES,
  FINDER_COUNTRIES,
  finderCountry,
  RADIUS_CHOICES_KM,
} from '@buble/shared/providers'
import { type FormEvent, useState } from 'react'
import { Field } from '../../ui/field.tsx'
import { SelectField } from '../../ui/select-field.tsx'
import { type FinderFilters, NEAR_ME, OTHER_CITY } from './finder-query.ts'

const COUNTRIES = FINDER_COUNTRIES.map((country) => ({ value: country.code, label: country.name }))
const CATEGORIES = [{ value: '', label: 'All categories' }, ...FINDER_CATEGORIES.map((c) => ({ value: c, label: c }))]
const RANGES = DATE_RANGES.map((range) => ({ value: range, label: DATE_RANGE_LABELS[range] }))
const RADII = RADIUS_CHOICES_KM.map((km) => ({ value: String(km), label: `${km} km` }))

/** The places of a country: its listed cities, another city to type, the whole country, or Near me. */
const placesOf = (code: string) => {
  const country = finderCountry(code)
  return [
    ...country.cities.map((city) => ({ value: city, label: city })),
    { value: OTHER_CITY, label: 'Another city…' },
    { value: ALL_CITIES, label: `All of ${country.name}` },
    { value: NEAR_ME, label: 'Near me' },
  ]
}

/** Country, then city (listed, typed, the whole country, or Near me), category, date range, and the radius. */
export function FinderFilterFields({
  filters,
  onChange,
}: {
  filters: FinderFilters
  onChange: (changes: Partial<FinderFilters>) => void
}) {
  return (
    <div className="finder-filters">
      <SelectField
        label="Country"
        value={filters.country}
        options={COUNTRIES}
        // A new country starts at its first city.
        onValue={(country) => onChange({ country, place: finderCountry(country).cities[0] ?? ALL_CITIES, city: '' })}
      />
      <SelectField
        label="Where"
        value={filters.place}
        options={placesOf(filters.country)}
        onValue={(place) => onChange({ place })}
      />
      {filters.place === OTHER_CITY && <CityField city={filters.city} onCity={(city) => onChange({ city })} />}
      {filters.place === NEAR_ME && (
        <SelectField
          label="Radius"
          value={String(filters.radiusKm)}
          options={RADII}
          onValue={(km) => onChange({ radiusKm: Number(km) })}
        />
      )}
      <SelectField
        label="Category"
        value={filters.category}
        options={CATEGORIES}
        onValue={(category) => onChange({ category })}
      />
      <SelectField
        label="When"
        value={filters.range}
        options={RANGES}
        onValue={(range) => onChange({ range: range as DateRange })}
      />
    </div>
  )
}

/** A typed city, searched when the member presses Enter or Search (not at every letter). */
function CityField({ city, onCity }: { city: string; onCity: (city: string) => void }) {
  const [typed, setTyped] = useState(city)
  function submit(event: FormEvent) {
    event.preventDefault()
    onCity(typed.trim())
  }
  return (
    <form className="finder-city" onSubmit={submit} aria-label="Another city">
      <Field label="City" value={typed} onValue={setTyped} autoComplete="address-level2" maxLength={200} />
      <button type="submit" className="btn btn-secondary btn-small">
        Search
      </button>
    </form>
  )
}
