import type { ExternalEvent } from '@buble/shared/providers'
import { formatEventMoment } from '../../ui/format.ts'
import { Modal } from '../../ui/modal.tsx'

/**
 * A date alone ('2027-03-14', no time known) reads as the day; an instant as the time on the viewer's own
 * clock, its zone named, as Buble's events read (decision 80).
 */
export function formatExternalDate(date: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(date)) {
    return new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeZone: 'UTC' }).format(
      new Date(`${date}T00:00:00Z`),
    )
  }
  return formatEventMoment(date)
}

/** Everything the finder knows of one event, a link to its ticket page, and (if allowed) Create event. */
export function EventDetailModal({
  event,
  sample,
  onCreate,
  onClose,
}: {
  event: ExternalEvent
  sample: boolean
  /** Left out when the member may not create events, or the event is the sample. */
  onCreate?: () => void
  onClose: () => void
}) {
  const facts: [string, string | null][] = [
    ['Starts', formatExternalDate(event.startDate)],
    ['Ends', event.endDate ? formatExternalDate(event.endDate) : null],
    ['Where', event.location || null],
    ['Price', event.price],
    ['Category', event.category],
    ['Source', 'Ticketmaster'],
  ]
  return (
    <Modal
      title={event.title}
      size="medium"
      onClose={onClose}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Close
          </button>
          {onCreate && (
            <button type="button" className="btn btn-primary" onClick={onCreate}>
              Create event
            </button>
          )}
        </>
      }
    >
      {sample && <p className="badge badge-warning">Sample event</p>}
      {event.description && <p className="finder-description">{event.description}</p>}
      <dl className="facts finder-facts">
        {facts.map(([label, value]) =>
          value ? (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ) : null,
        )}
      </dl>
      {event.url && (
        <a href={event.url} target="_blank" rel="noopener noreferrer" className="btn btn-secondary btn-small">
          Tickets on Ticketmaster<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      )}
    </Modal>
  )
}
