/**
 * The spec's confirmation before an RSVP (part 2 §2), inline in the card instead of a page-blocking
 * dialog (issue 21): "Answer “Going” to Picnic?  Yes  No". It takes the focus on Yes; No or Escape
 * changes nothing.
 */

import { RSVP_LABELS, type RsvpStatus } from '@buble/shared/events'
import { useEffect, useId, useRef } from 'react'
import { Alert } from '../../ui/alert.tsx'
import { EVENT_TEXTS } from './event-texts.ts'

interface RsvpConfirmProps {
  eventTitle: string
  status: RsvpStatus
  busy: boolean
  error: string | null
  onYes: () => void
  onNo: () => void
}

export function RsvpConfirm({ eventTitle, status, busy, error, onYes, onNo }: RsvpConfirmProps) {
  const yes = useRef<HTMLButtonElement>(null)
  const questionId = useId()
  // A new question (another answer pressed) takes the focus again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: refocus when the question changes
  useEffect(() => yes.current?.focus(), [status])

  return (
    <fieldset
      aria-describedby={questionId}
      className="plain-fieldset rsvp-confirm"
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || busy) return
        event.stopPropagation()
        onNo()
      }}
    >
      <legend className="visually-hidden">{EVENT_TEXTS.confirmRsvp}</legend>
      <p className="rsvp-confirm-question" id={questionId}>
        Answer “{RSVP_LABELS[status]}” to {eventTitle}?
      </p>
      <div className="rsvp-confirm-actions">
        <button
          ref={yes}
          type="button"
          className="btn btn-primary btn-small"
          aria-describedby={questionId}
          disabled={busy}
          onClick={onYes}
        >
          {busy ? EVENT_TEXTS.rsvpSaving : EVENT_TEXTS.yes}
        </button>
        <button type="button" className="btn btn-secondary btn-small" disabled={busy} onClick={onNo}>
          {EVENT_TEXTS.no}
        </button>
      </div>
      {error && <Alert kind="error">{error}</Alert>}
    </fieldset>
  )
}
