import { CreateEventBody } from '@buble/shared/events'
import { CreatePollBody, POLL_MIN_OPTIONS } from '@buble/shared/polls'
import { DEFAULT_EVENT_POLL_OPTIONS, type ExternalEvent } from '@buble/shared/providers'
import { useState } from 'react'
import { useEventActions } from '../../data/events.ts'
import { ERROR_TEXTS } from '../../ui/error-texts.ts'
import { EventFormModal, type EventValues, emptyEventDraft } from '../../ui/event-form-modal.tsx'
import { Field } from '../../ui/field.tsx'
import { FormProblem } from '../../ui/form-modal.tsx'
import { toLocalInput } from '../../ui/format.ts'
import { PollOptionsFields } from './poll-options-fields.tsx'

export const pollQuestionFor = (title: string) => `Are you coming to ${title.trim()}?`

/** A date alone has no time: the evening of that day is a guess the member sees and can change. */
const startLocal = (startDate: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(startDate) ? `${startDate}T19:00` : toLocalInput(startDate)

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
  const [withPoll, setWithPoll] = useState(canPoll)
  const [question, setQuestion] = useState(pollQuestionFor(event.title))
  const [options, setOptions] = useState<string[]>([...DEFAULT_EVENT_POLL_OPTIONS])

  async function save(values: EventValues) {
    const body = CreateEventBody.safeParse({ ...values, external_url: event.url, external_source: 'ticketmaster' })
    if (!body.success) throw new FormProblem(body.error.issues[0]?.message ?? ERROR_TEXTS.createEvent)
    // Spec part 2 §5: fewer than two options left after trimming means the event comes without a poll.
    const filled = options.map((option) => option.trim()).filter(Boolean)
    const poll = withPoll && filled.length >= POLL_MIN_OPTIONS
    const pollBody = CreatePollBody.safeParse({
      question: question.trim() || pollQuestionFor(values.title),
      options: filled,
    })
    if (poll && !pollBody.success) throw new FormProblem(pollBody.error.issues[0]?.message ?? ERROR_TEXTS.createPoll)
    await actions.createEvent({ buble_id: bubleId, ...body.data })
    if (poll && pollBody.success) {
      try {
        await actions.createPoll({ buble_id: bubleId, ...pollBody.data })
      } catch {
        throw new FormProblem(ERROR_TEXTS.createPoll)
      }
    }
    onCreated(poll)
  }

  return (
    <EventFormModal
      heading="Create Event"
      submitLabel="Create event"
      busyLabel="Creating…"
      initial={{
        ...emptyEventDraft,
        title: event.title,
        description: event.description ?? '',
        location: event.location,
        time: startLocal(event.startDate),
      }}
      timeLabel="Event time"
      failure={ERROR_TEXTS.createEvent}
      onSubmit={save}
      onClose={onClose}
    >
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
    </EventFormModal>
  )
}
