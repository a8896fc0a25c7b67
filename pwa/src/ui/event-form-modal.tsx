/**
 * The event form (Create Event, Edit Event, and the local events finder's create-from-external):
 * title, description, location and a wall-clock time on the viewer's own clock, checked as the
 * server checks them, and refused when the time has already passed (decision 80).
 */

import { EVENT_MESSAGES, EventDescription, EventLocation, EventTitle, isPastEventTime } from '@buble/shared/events'
import {
  choiceOfRule,
  RECURRENCE_LIMITS,
  REPEAT_CHOICES,
  RecurrenceRule,
  type RepeatChoice,
  repeatChoiceLabel,
  ruleFromChoice,
  seriesProblem,
} from '@buble/shared/recurrence'
import { type ReactNode, useState } from 'react'
import { Field } from './field.tsx'
import { EditorFormModal, type EditorModalProps } from './form-modal.tsx'
import { fromLocalInput, toLocalInput, viewerZoneHint } from './format.ts'
import { SelectField } from './select-field.tsx'

/** The form's fields as typed; `time` is a `datetime-local` value in the viewer's own time zone. */
export interface EventDraft {
  title: string
  description: string
  location: string
  time: string
  /** How it repeats (decision 97), and until when: `ends` says which of `count` and `until` counts. */
  repeat: RepeatChoice
  ends: 'count' | 'until'
  count: string
  until: string
}

/** What a valid draft gives: the fields of CreateEventBody / UpdateEventBody. */
export interface EventValues {
  title: string
  description: string | null
  location: string | null
  event_time: string
  /** An RRULE, or null: the event does not repeat. */
  recurrence: string | null
}

export type EventDraftErrors = Partial<Record<keyof EventDraft, string>>

export const emptyEventDraft: EventDraft = {
  title: '',
  description: '',
  location: '',
  time: '',
  repeat: 'none',
  ends: 'count',
  count: '10',
  until: '',
}

/** A stored event as a draft to edit. */
export function draftOf(event: {
  title: string
  description: string | null
  location: string | null
  event_time: string
  recurrence?: string | null
}): EventDraft {
  const { choice, until, count } = choiceOfRule(event.recurrence ?? null)
  return {
    ...emptyEventDraft,
    title: event.title,
    description: event.description ?? '',
    location: event.location ?? '',
    time: toLocalInput(event.event_time),
    repeat: choice,
    ends: until ? 'until' : 'count',
    count: count === null ? emptyEventDraft.count : String(count),
    until: until ?? '',
  }
}

/** The draft's rule for an event at `eventTime`, or the problem with it. */
function recurrenceOf(draft: EventDraft, eventTime: string): { rule: string | null } | { error: string } {
  if (draft.repeat === 'none') return { rule: null }
  const end =
    draft.ends === 'until'
      ? /^\d{4}-\d{2}-\d{2}$/.test(draft.until)
        ? { until: draft.until }
        : null
      : /^\d+$/.test(draft.count.trim())
        ? { count: Number(draft.count) }
        : null
  if (end === null)
    return { error: draft.ends === 'until' ? 'Choose the date it stops repeating' : RECURRENCE_MESSAGES_COUNT }
  const parsed = RecurrenceRule.safeParse(ruleFromChoice(draft.repeat, eventTime, end))
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? RECURRENCE_MESSAGES_COUNT }
  const problem = seriesProblem(eventTime, parsed.data)
  return problem ? { error: problem } : { rule: parsed.data }
}

const RECURRENCE_MESSAGES_COUNT = `An event can repeat ${RECURRENCE_LIMITS.minCount} to ${RECURRENCE_LIMITS.maxCount} times`

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
  const recurrence = eventTime ? recurrenceOf(draft, eventTime) : { rule: null }
  if ('error' in recurrence) errors.repeat = recurrence.error
  if (!title.success || !description.success || !location.success || !eventTime || past || 'error' in recurrence)
    return { errors }
  return {
    values: {
      title: title.data,
      description: description.data,
      location: location.data,
      event_time: eventTime,
      recurrence: recurrence.rule,
    },
  }
}

/** The four fields, for a form of its own. */
export function EventFields({
  draft,
  errors,
  onChange,
  timeLabel = 'Date and time',
  repeat = false,
}: {
  draft: EventDraft
  errors: EventDraftErrors
  onChange: (draft: EventDraft) => void
  /** The finder's form names the time 'Event time'. */
  timeLabel?: string
  /** Whether the repeat fields show (Create Event, and an edit of every or the following events). */
  repeat?: boolean
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
      {repeat && <RepeatFields draft={draft} error={errors.repeat} onChange={onChange} />}
    </>
  )
}

/** Repeat: how often, and until a date or for a number of times. */
function RepeatFields({
  draft,
  error,
  onChange,
}: {
  draft: EventDraft
  error?: string
  onChange: (draft: EventDraft) => void
}) {
  const time = draft.time.trim() ? fromLocalInput(draft.time) : null
  const set = (key: keyof EventDraft) => (value: string) => onChange({ ...draft, [key]: value })
  return (
    <div className="repeat-fields">
      <SelectField
        label="Repeat"
        value={draft.repeat}
        onValue={set('repeat')}
        options={REPEAT_CHOICES.map((choice) => ({ value: choice, label: repeatChoiceLabel(choice, time) }))}
        aria-invalid={error ? true : undefined}
      />
      {draft.repeat !== 'none' && (
        <>
          <SelectField
            label="Ends"
            value={draft.ends}
            onValue={set('ends')}
            options={[
              { value: 'count', label: 'After a number of times' },
              { value: 'until', label: 'On a date' },
            ]}
          />
          {draft.ends === 'count' ? (
            <Field
              label="Number of times"
              type="number"
              inputMode="numeric"
              min={RECURRENCE_LIMITS.minCount}
              max={RECURRENCE_LIMITS.maxCount}
              value={draft.count}
              onValue={set('count')}
              error={error}
            />
          ) : (
            <Field label="Last date" type="date" value={draft.until} onValue={set('until')} error={error} />
          )}
        </>
      )}
    </div>
  )
}

type EventFormModalProps = EditorModalProps<EventValues, EventDraft> & {
  timeLabel?: string
  /** Show the repeat fields. */
  repeat?: boolean
  /** Editing: the event's stored time, which may be kept even once it has passed. */
  original?: string
  /** More fields below the event's own (the finder's poll options, say). */
  children?: ReactNode
}

/** A modal with the event form; it closes itself only through `onClose`, after `onSubmit` succeeds. */
export function EventFormModal({ initial, original, timeLabel, repeat, children, ...editor }: EventFormModalProps) {
  const [draft, setDraft] = useState(initial ?? emptyEventDraft)
  const [errors, setErrors] = useState<EventDraftErrors>({})

  function check(): EventValues | null {
    const checked = checkEventDraft(draft, { original })
    setErrors('errors' in checked ? checked.errors : {})
    return 'values' in checked ? checked.values : null
  }

  return (
    <EditorFormModal editor={editor} check={check}>
      <EventFields draft={draft} errors={errors} onChange={setDraft} timeLabel={timeLabel} repeat={repeat} />
      {children}
    </EditorFormModal>
  )
}
