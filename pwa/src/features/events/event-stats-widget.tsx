import { type EventHeat, rankEvents } from '@buble/shared/events'
import { Link } from 'react-router-dom'
import { bublePath, type LocalBuble } from '../../data/bubles.ts'
import { useEvents } from '../../data/events.ts'
import { useNow } from '../../data/wall.ts'
import { Spinner } from '../../ui/spinner.tsx'
import { EVENT_TEXTS } from './event-texts.ts'
import { shownEvents } from './shown-events.ts'

const HEAT_CLASS: Record<EventHeat, string> = { Hot: 'heat-hot', Popular: 'badge-warning', Emerging: '' }

/** Event Stats (spec part 2 §9): the five events with the most interest, going counting 1 and maybe ½. */
export function EventStatsWidget({ buble }: { buble: LocalBuble }) {
  const events = useEvents(buble.id)
  const now = useNow()
  if (events.status !== 'ready') return <Spinner label="Loading events…" />
  // A repeating event counts the answers of the occurrence the list shows.
  const ranked = rankEvents(shownEvents(events.rows, now))
  return (
    <>
      {ranked.length === 0 ? (
        <p className="muted">{EVENT_TEXTS.statsEmpty}</p>
      ) : (
        <ol className="widget-list" aria-label="Most popular events">
          {ranked.map(({ event, going, maybe, heat }) => (
            <li key={event.id} className="widget-item">
              <span className="widget-item-title clamp-2" title={event.title}>
                {event.title}
              </span>
              <span className="widget-item-meta">
                {going} going · {maybe} maybe <span className={`badge ${HEAT_CLASS[heat]}`}>{heat}</span>
              </span>
            </li>
          ))}
        </ol>
      )}
      <Link to={bublePath(buble, 'events')} className="btn btn-secondary btn-small">
        View all events
      </Link>
    </>
  )
}
