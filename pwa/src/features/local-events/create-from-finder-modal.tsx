import { CreateEventBody } from '@buble/shared/events'
import { CreatePollBody, POLL_MIN_OPTIONS } from '@buble/shared/polls'
import { DEFAULT_EVENT_POLL_OPTIONS, type ExternalEvent } from '@buble/shared/providers'
import { isoToStockholmLocal, stockholmLocalToIso } from '@buble/shared/time'
import { type FormEvent, useState } from 'react'
import { useEventActions } from '../../data/events.ts'
import { Alert } from '../../ui/alert.tsx'
import { ERROR_TEXTS } from '../../ui/error-texts.ts'
import { Field } from '../../ui/field.tsx'
import { Modal } from '../../ui/modal.tsx'
import { PollOptionsFields } from './poll-options-fields.tsx'

const FORM_ID = 'create-from-finder-form'
export const pollQuestionFor = (title: string) => `Are you coming to ${title.trim()}?`

/** A date alone has no time: the evening of that day is a guess the member sees and can change. */
const startLocal = (startDate: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(startDate) ? `${startDate}T19:00` : isoToStockholmLocal(startDate)

/**
 * Turns a finder event into a buble event (spec part 2 §4), prefilled and editable, optionally with
 * a poll. Both are queued writes, so this works offline too and shows at once.
 */
export function CreateFromFinderModal({
  event,
  bubleId,
  canPoll,
  onClose,
  onCreated,
}: {
  event: ExternalEvent
  bubleId: string
  canPoll: boolean
  onClose: () => void
  onCreated: (withPoll: boolean) => void
}) {
  const actions = useEventActions()
  const [title, setTitle] = useState(event.title)
  const [description, setDescription] = useState(event.description ?? '')
  const [location, setLocation] = useState(event.location)
  const [time, setTime] = useState(startLocal(event.startDate))
  const [withPoll, setWithPoll] = useState(canPoll)
  const [question, setQuestion] = useState(pollQuestionFor(event.title))
  const [options, setOptions] = useState<string[]>([...DEFAULT_EVENT_POLL_OPTIONS])
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function save(submit: FormEvent) {
    submit.preventDefault()
    const body = CreateEventBody.safeParse({
      title,
      description,
      location,
      event_time: stockholmLocalToIso(time) ?? undefined,
      external_url: event.url,
      external_source: 'ticketmaster',
    })
    if (!body.success) return setError(body.error.issues[0]?.message ?? ERROR_TEXTS.createEvent)
    // Spec part 2 §5: fewer than two options left after trimming means the event comes without a poll.
    const filled = options.map((option) => option.trim()).filter(Boolean)
    const poll = withPoll && filled.length >= POLL_MIN_OPTIONS
    const pollBody = CreatePollBody.safeParse({ question: question.trim() || pollQuestionFor(title), options: filled })
    if (poll && !pollBody.success) return setError(pollBody.error.issues[0]?.message ?? ERROR_TEXTS.createPoll)
    setError(null)
    setBusy(true)
    try {
      await actions.createEvent({ buble_id: bubleId, ...body.data })
    } catch {
      setBusy(false)
      return setError(ERROR_TEXTS.createEvent)
    }
    if (poll && pollBody.success) {
      try {
        await actions.createPoll({ buble_id: bubleId, ...pollBody.data })
      } catch {
        setBusy(false)
        return setError(ERROR_TEXTS.createPoll)
      }
    }
    onCreated(poll)
  }

  return (
    <Modal
      title="Create Event"
      size="medium"
      onClose={busy ? undefined : onClose}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" form={FORM_ID} className="btn btn-primary" disabled={busy}>
            {busy ? 'Creating…' : 'Create event'}
          </button>
        </>
      }
    >
      <form id={FORM_ID} onSubmit={(submit) => void save(submit)} noValidate>
        {error && <Alert kind="error">{error}</Alert>}
        <Field label="Title" value={title} onValue={setTitle} maxLength={200} required />
        <Field label="Description" rows={3} value={description} onValue={setDescription} maxLength={5000} />
        <Field label="Location" value={location} onValue={setLocation} maxLength={200} />
        <Field label="Event time" type="datetime-local" value={time} onValue={setTime} required hint="Stockholm time" />
        {canPoll && (
          <div className="finder-poll">
            <label className="check">
              <input type="checkbox" checked={withPoll} onChange={(e) => setWithPoll(e.target.checked)} />
              Add a poll
            </label>
            {withPoll && (
              <>
                <Field label="Poll question" value={question} onValue={setQuestion} maxLength={300} />
                <PollOptionsFields options={options} onChange={setOptions} />
              </>
            )}
          </div>
        )}
      </form>
    </Modal>
  )
}
