import { can, type MemberActor } from '@buble/shared/permissions'
import { DEFAULT_CITY, DEFAULT_RADIUS_KM, type ExternalEvent, FINDER_COUNTRY_CODE } from '@buble/shared/providers'
import { useMemo, useRef, useState } from 'react'
import type { LocalBuble } from '../../data/bubles.ts'
import { Alert } from '../../ui/alert.tsx'
import { lazyPart } from '../../ui/lazy-part.ts'
import { Spinner } from '../../ui/spinner.tsx'
import { useFlash } from '../../ui/use-flash.ts'
import { useSeen } from '../../ui/use-seen.ts'
import { FinderFilterFields } from './finder-filters.tsx'
import { type FinderFilters, finderQuery, NEAR_ME, OTHER_CITY, type Point, sampleEvent } from './finder-query.ts'
import { FinderResults } from './finder-results.tsx'
import { locate, useEventSearch } from './use-event-search.ts'

const CreateFromFinderModal = lazyPart(() => import('./create-from-finder-modal.tsx'), 'CreateFromFinderModal', {
  fallback: null,
})

const EventDetailModal = lazyPart(() => import('./event-detail-modal.tsx'), 'EventDetailModal', { fallback: null })

const INITIAL: FinderFilters = {
  country: FINDER_COUNTRY_CODE,
  place: DEFAULT_CITY,
  city: '',
  category: '',
  range: 'this-month',
  radiusKm: DEFAULT_RADIUS_KM,
}
const NO_POSITION = 'Your location is not available. Choose a city instead.'
const TYPE_A_CITY = 'Type a city and press Search.'

/** The overview's Local Events tool: search Ticketmaster, read the details, make one a buble event. */
export function LocalEventsFinder({ buble, actor }: { buble: LocalBuble; actor: MemberActor }) {
  const [filters, setFilters] = useState(INITIAL)
  const [point, setPoint] = useState<Point | null>(null)
  const [positionError, setPositionError] = useState<string | null>(null)
  const [viewing, setViewing] = useState<{ event: ExternalEvent; sample: boolean } | null>(null)
  const [creating, setCreating] = useState<ExternalEvent | null>(null)
  const [flash, showFlash] = useFlash()
  // The window starts when the filters change, not on every render (that would search forever).
  const query = useMemo(() => finderQuery(filters, new Date(), point), [filters, point])
  // The first search waits until the tool is near the screen (it sits below the fold on a phone).
  const box = useRef<HTMLDivElement>(null)
  const seen = useSeen(box)
  const search = useEventSearch(seen ? query : null)
  const mayCreate = can(actor, 'event.create')

  function change(changes: Partial<FinderFilters>) {
    setPositionError(null)
    setFilters((current) => ({ ...current, ...changes }))
    if (changes.place !== NEAR_ME) return
    setPoint(null)
    locate().then(setPoint, () => {
      setPositionError(NO_POSITION)
      // Back to the default place, unless the member has already chosen another place meanwhile.
      setFilters((current) =>
        current.place === NEAR_ME ? { ...current, country: INITIAL.country, place: INITIAL.place } : current,
      )
    })
  }

  const sample = search.status === 'failed' ? sampleEvent(new Date()) : null
  // Another city, none typed yet: nothing is searched, and the finder says what it waits for.
  const awaitingCity = filters.place === OTHER_CITY && !filters.city.trim()
  return (
    <div className="finder" ref={box}>
      <FinderFilterFields filters={filters} onChange={change} />
      {positionError && <Alert kind="warning">{positionError}</Alert>}
      {flash && <Alert kind="success">{flash}</Alert>}
      {awaitingCity ? (
        <p className="muted">{TYPE_A_CITY}</p>
      ) : (
        search.status === 'loading' && <Spinner label="Looking for events…" />
      )}
      {search.status === 'ready' && (
        <FinderResults events={search.data} onOpen={(event) => setViewing({ event, sample: false })} />
      )}
      {sample && <FinderResults events={[sample]} sample onOpen={(event) => setViewing({ event, sample: true })} />}
      {viewing && (
        <EventDetailModal
          event={viewing.event}
          sample={viewing.sample}
          onClose={() => setViewing(null)}
          onCreate={
            mayCreate && !viewing.sample
              ? () => {
                  setCreating(viewing.event)
                  setViewing(null)
                }
              : undefined
          }
        />
      )}
      {creating && (
        <CreateFromFinderModal
          event={creating}
          bubleId={buble.id}
          canPoll={can(actor, 'poll.create')}
          onClose={() => setCreating(null)}
          onCreated={(withPoll) => {
            setCreating(null)
            showFlash(withPoll ? 'Event and poll created' : 'Event created')
          }}
        />
      )}
    </div>
  )
}
