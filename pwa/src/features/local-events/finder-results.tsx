import type { ExternalEvent } from '@buble/shared/providers'
import { EmptyState } from '../../ui/empty-state.tsx'
import { formatExternalDate } from './event-detail-modal.tsx'
import { sameOriginImage } from './finder-query.ts'

/** The events found, each opening its details; the sample is marked as one. */
export function FinderResults({
  events,
  sample = false,
  onOpen,
}: {
  events: ExternalEvent[]
  sample?: boolean
  onOpen: (event: ExternalEvent) => void
}) {
  if (events.length === 0) {
    return (
      <EmptyState title="No events found">
        <p className="muted">Try another place, category or time.</p>
      </EmptyState>
    )
  }
  return (
    <ul className="finder-results" aria-label={sample ? 'Sample event' : 'Events found'}>
      {events.map((event) => {
        const image = sameOriginImage(event.image)
        return (
          <li key={event.id} className="finder-event">
            {image && <img src={image} alt="" className="finder-event-image" loading="lazy" />}
            <div className="finder-event-text">
              <button type="button" className="finder-event-title" aria-haspopup="dialog" onClick={() => onOpen(event)}>
                {event.title}
              </button>
              {sample && <span className="badge badge-warning">Sample</span>}
              <p className="finder-event-when">{formatExternalDate(event.startDate)}</p>
              {event.location && <p className="muted">{event.location}</p>}
              <p className="finder-event-tags">
                {event.price && <span>{event.price}</span>}
                {event.category && <span className="badge">{event.category}</span>}
              </p>
            </div>
          </li>
        )
      })}
    </ul>
  )
}
