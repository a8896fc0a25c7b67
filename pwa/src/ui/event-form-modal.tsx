/**
 * The event form (Create Event, Edit Event, and the local events finder's create-from-external):
 * title, description, location and a wall-clock time on the viewer's own clock, checked as the
 * server checks them, and refused when the time has already passed (decision 80).
 */

import { EVENT_MESSAGES, EventDescription, EventLocation, EventTitle, isPastEventTime } from '@buble/shared/events'
import { type ReactNode, useState } from 'react'
import { Field } from './field.tsx'
import { EditorFormModal, type EditorModalProps } from './form-modal.tsx'
import { fromLocalInput, toLocalInput, viewerZoneHint } from './format.ts'

/** The form's fields as typed; `time` is a `datetime-local` value in the viewer's own time zone. */
export interface EventDraft {
  title: string
  description: string
  location: string
  time: string
}

/** What a valid draft gives: the fields of CreateEventBody / UpdateEventBody. */
export interface EventValues {
  title: string
  description: string | null
  location: string | null
  event_time: string
}

export type EventDraftErrors = Partial<Record<keyof EventDraft, string>>

export const emptyEventDraft: EventDraft = { title: '', description: '', location: '', time: '' }

/** A stored event as a draft to edit. */
export const draftOf = (event: {
  title: string
  description: string | null
  location: string | null
  event_time: string
}): EventDraft => ({
  title: event.title,
  description: event.description ?? '',
  location: event.location ?? '',
  time: toLocalInput(event.event_time),
})

export interface EventCheckOptions {
  /** The clock the past is judged by; now unless a test says otherwise. */
  now?: number
  /** The event's stored time when editing: keeping it is allowed even once it has passed. */
  original?: string
}

/**
 * The draft's values, or the first problem of each field (spec part 2 §5). A time that has passed
 * is refused, unless an edit keeps the event's own time.
 */
export function checkEventDraft(
  draft: EventDraft,
  { now = Date.now(), original }: EventCheckOptions = {},
): { values: EventValues } | { errors: EventDraftErrors } {
  const errors: EventDraftErrors = {}
  const title = EventTitle.safeParse(draft.title)
  const description = EventDescription.safeParse(draft.description)
  const location = EventLocation.safeParse(draft.location)
  const eventTime = draft.time.trim() ? fromLocalInput(draft.time) : null
  const past = !!eventTime && eventTime !== original && isPastEventTime(eventTime, now)
  if (!title.success) errors.title = title.error.issues[0]?.message
  if (!description.success) errors.description = description.error.issues[0]?.message
  if (!location.success) errors.location = location.error.issues[0]?.message
  if (!eventTime) errors.time = draft.time.trim() ? EVENT_MESSAGES.timeInvalid : EVENT_MESSAGES.timeRequired
  else if (past) errors.time = EVENT_MESSAGES.timeInPast
  if (!title.success || !description.success || !location.success || !eventTime || past) return { errors }
  return {
    values: { title: title.data, description: description.data, location: location.data, event_time: eventTime },
  }
}

/** The four fields, for a form of its own. */
export function EventFields({
  draft,
  errors,
  onChange,
  timeLabel = 'Date and time',
}: {
  draft: EventDraft
  errors: EventDraftErrors
  onChange: (draft: EventDraft) => void
  /** The finder's form names the time 'Event time'. */
  timeLabel?: string
}) {
  const set = (key: keyof EventDraft) => (value: string) => onChange({ ...draft, [key]: value })
  return (
    <>
      <Field
        label="Title"
        value={draft.title}
        onValue={set('title')}
        error={errors.title}
        autoComplete="off"
        required
      />
      <Field
        label="Description"
        value={draft.description}
        onValue={set('description')}
        error={errors.description}
        rows={3}
      />
      <Field
        label="Location"
        value={draft.location}
        onValue={set('location')}
        error={errors.location}
        autoComplete="off"
      />
      <Field
        label={timeLabel}
        type="datetime-local"
        value={draft.time}
        onValue={set('time')}
        error={errors.time}
        hint={viewerZoneHint()}
        required
      />
    </>
  )
}

type EventFormModalProps = EditorModalProps<EventValues, EventDraft> & {
  timeLabel?: string
  /** Editing: the event's stored time, which may be kept even once it has passed. */
  original?: string
  /** More fields below the event's own (the finder's poll options, say). */
  children?: ReactNode
}

/** A modal with the event form; it closes itself only through `onClose`, after `onSubmit` succeeds. */
export function EventFormModal({ initial, original, timeLabel, children, ...editor }: EventFormModalProps) {
  const [draft, setDraft] = useState(initial ?? emptyEventDraft)
  const [errors, setErrors] = useState<EventDraftErrors>({})

  function check(): EventValues | null {
    const checked = checkEventDraft(draft, { original })
    setErrors('errors' in checked ? checked.errors : {})
    return 'values' in checked ? checked.values : null
  }

  return (
    <EditorFormModal editor={editor} check={check}>
      <EventFields draft={draft} errors={errors} onChange={setDraft} timeLabel={timeLabel} />
      {children}
    </EditorFormModal>
  )
}
