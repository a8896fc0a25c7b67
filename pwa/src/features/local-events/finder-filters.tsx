import {
  ALL_CITIES,
  DATE_RANGE_LABELS,
  DATE_RANGES,
  type DateRange,
  FINDER_CATEGORIES,
  FINDER_CITIES,
  RADIUS_CHOICES_KM,
} from '@buble/shared/providers'
import { SelectField } from '../../ui/select-field.tsx'
import { type FinderFilters, NEAR_ME } from './finder-query.ts'

const PLACES = [
  ...FINDER_CITIES.map((city) => ({ value: city, label: city })),
  { value: ALL_CITIES, label: 'All of Sweden' },
  { value: NEAR_ME, label: 'Near me' },
]
const CATEGORIES = [{ value: '', label: 'All categories' }, ...FINDER_CATEGORIES.map((c) => ({ value: c, label: c }))]
const RANGES = DATE_RANGES.map((range) => ({ value: range, label: DATE_RANGE_LABELS[range] }))
const RADII = RADIUS_CHOICES_KM.map((km) => ({ value: String(km), label: `${km} km` }))

/** City (or the whole country, or Near me), category, date range, and the radius around Near me. */
export function FinderFilterFields({
  filters,
  onChange,
}: {
  filters: FinderFilters
  onChange: (changes: Partial<FinderFilters>) => void
}) {
  return (
    <div className="finder-filters">
      <SelectField label="Where" value={filters.place} options={PLACES} onValue={(place) => onChange({ place })} />
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
