import { RSVP_LABELS, RSVP_STATUSES, type Rsvp, type RsvpStatus } from '@buble/shared/events'
import { type MemberActor, mayOnContent } from '@buble/shared/permissions'
import { type AtOccurrence, recurrenceLabel } from '@buble/shared/recurrence'
import { useRef, useState } from 'react'
import type { EventActions, LocalEvent } from '../../data/events.ts'
import { Alert } from '../../ui/alert.tsx'
import { ERROR_TEXTS } from '../../ui/error-texts.ts'
import { formatEventMoment } from '../../ui/format.ts'
import { ItemHead } from '../../ui/item-head.tsx'
import { useConfirm } from '../../ui/use-confirm.tsx'
import { DeleteScopeDialog } from './edit-scope-dialog.tsx'
import { EVENT_TEXTS } from './event-texts.ts'
import { RsvpConfirm } from './rsvp-confirm.tsx'
import './events.css'
import { useCalendarDownload } from './use-calendar-download.ts'

interface EventCardProps {
  /** At the occurrence the list shows (a repeating event's next one), with that occurrence's answers. */
  event: AtOccurrence<LocalEvent>
  actor: MemberActor
  userId: string
  online: boolean
  actions: EventActions
  /** Its time has passed: marked Past. */
  past?: boolean
  onEdit: () => void
}

const namesOf = (rsvps: readonly Rsvp[], status: RsvpStatus) =>
  rsvps.filter((rsvp) => rsvp.status === status).map((rsvp) => rsvp.user.name)

/** One event: what, when, where, who is coming, the user's answer, and what they may do with it. */
export function EventCard({ event, actor, userId, online, actions, past = false, onEdit }: EventCardProps) {
  const { ask, dialog } = useConfirm()
  const calendar = useCalendarDownload()
  const rsvps = event.rsvps ?? []
  // Edit and Delete come together: their header shows both or neither.
  const target = { kind: 'event', authorId: event.creator_id } as const
  const mine = rsvps.find((rsvp) => rsvp.user_id === userId)?.status
  const going = namesOf(rsvps, 'going')
  const maybe = namesOf(rsvps, 'maybe')
  const cantGo = namesOf(rsvps, 'cant_go').length
  const calendarBlocked = event._pending ? EVENT_TEXTS.calendarPending : !online ? EVENT_TEXTS.calendarOffline : null
  const hintId = `calendar-hint-${event.id}`

  // The confirmation before an RSVP, inline: which answer is being asked about, and how it went.
  const [asking, setAsking] = useState<RsvpStatus | null>(null)
  const [saving, setSaving] = useState(false)
  const [rsvpError, setRsvpError] = useState<string | null>(null)
  const rsvpButtons = useRef<Partial<Record<RsvpStatus, HTMLButtonElement | null>>>({})
  const stopAsking = (status: RsvpStatus) => {
    setAsking(null)
    setRsvpError(null)
    rsvpButtons.current[status]?.focus()
  }
  const answer = async (status: RsvpStatus) => {
    setSaving(true)
    try {
      await actions.rsvp(event.id, status, event.occurrence)
      stopAsking(status)
    } catch (err) {
      console.error(ERROR_TEXTS.performAction, err)
      setRsvpError(ERROR_TEXTS.performAction)
    } finally {
      setSaving(false)
    }
  }

  // A repeating event asks whether only the occurrence shown goes, or the whole series.
  const [deletingSeries, setDeletingSeries] = useState(false)
  const remove = () =>
    event.recurrence && event.occurrence
      ? setDeletingSeries(true)
      : ask({
          title: 'Delete event?',
          body: <p>{event.title} and its answers are removed for everyone in this Buble.</p>,
          confirmLabel: 'Delete event',
          busyLabel: 'Deleting…',
          danger: true,
          run: () => actions.deleteEvent(event.id),
        })

  return (
    <article className={`card event-card${past ? ' is-past' : ''}`} aria-labelledby={`event-${event.id}`}>
      <ItemHead
        id={`event-${event.id}`}
        title={event.title}
        creatorName={event.creator?.name}
        pending={!!event._pending}
        kind="event"
        manage={
          mayOnContent(actor, 'content.edit', target) && mayOnContent(actor, 'content.delete', target)
            ? { onEdit, onDelete: remove }
            : undefined
        }
        report={
          event.creator_id !== actor.userId && !event._pending
            ? { bubleId: event.buble_id, targetType: 'event', targetId: event.id }
            : undefined
        }
      >
        <p className="event-meta">
          {past && <span className="badge badge-muted">{EVENT_TEXTS.past}</span>}
          <time dateTime={event.event_time}>{formatEventMoment(event.event_time)}</time>
          {event.location && <span>{event.location}</span>}
        </p>
        {event.recurrence && <p className="event-repeat">{recurrenceLabel(event.recurrence, event.series_time)}</p>}
      </ItemHead>

      {event.description && <p className="event-description">{event.description}</p>}
      {event.external_url && (
        <a className="event-link" href={event.external_url} target="_blank" rel="noopener noreferrer">
          Event page{event.external_source ? ` (${event.external_source})` : ''}
        </a>
      )}

      <dl className="event-attendance">
        <div>
          <dt>Going ({going.length})</dt>
          <dd>{going.join(', ') || 'No one yet'}</dd>
        </div>
        <div>
          <dt>Maybe ({maybe.length})</dt>
          <dd>{maybe.join(', ') || 'No one yet'}</dd>
        </div>
        <div>
          <dt>Can't Go ({cantGo})</dt>
        </div>
      </dl>

      <div className="event-foot">
        <fieldset className="plain-fieldset rsvp-buttons">
          <legend className="visually-hidden">Your answer to {event.title}</legend>
          {RSVP_STATUSES.map((status) => (
            <button
              key={status}
              type="button"
              className={`btn btn-small ${mine === status ? 'btn-primary' : 'btn-secondary'}`}
              aria-pressed={mine === status}
              aria-expanded={mine === status ? undefined : asking === status}
              ref={(button) => {
                rsvpButtons.current[status] = button
              }}
              // The current answer is already given: pressing it again would change nothing.
              onClick={() => {
                if (mine === status || saving) return
                setRsvpError(null)
                setAsking(status)
              }}
            >
              {RSVP_LABELS[status]}
            </button>
          ))}
        </fieldset>
        <button
          type="button"
          className="btn btn-secondary btn-small"
          disabled={calendarBlocked !== null || calendar.busy}
          aria-describedby={calendarBlocked ? hintId : undefined}
          onClick={() => void calendar.download(event)}
        >
          {EVENT_TEXTS.calendar}
        </button>
        {calendarBlocked && (
          <span className="field-hint" id={hintId}>
            {calendarBlocked}
          </span>
        )}
      </div>
      {asking && (
        <RsvpConfirm
          eventTitle={event.title}
          status={asking}
          busy={saving}
          error={rsvpError}
          onYes={() => void answer(asking)}
          onNo={() => stopAsking(asking)}
        />
      )}
      {calendar.error && <Alert kind="error">{calendar.error}</Alert>}
      {dialog}
      {deletingSeries && event.occurrence && (
        <DeleteScopeDialog
          title={event.title}
          onDelete={(scope) =>
            scope === 'this'
              ? actions.deleteEvent(event.id, event.occurrence ?? undefined)
              : actions.deleteEvent(event.id)
          }
          onCancel={() => setDeletingSeries(false)}
        />
      )}
    </article>
  )
}
