/** The admin's add-buble, edit-event and edit-poll modals. */

import { BubleName } from '@buble/shared/bubles'
import { EVENT_MESSAGES, EventDescription, EventLocation, EventTitle } from '@buble/shared/events'
import { PollQuestion } from '@buble/shared/polls'
import { useEffect, useState } from 'react'
import { useSession } from '../../session/session-context.tsx'
import { Field } from '../../ui/field.tsx'
import { FormModal } from '../../ui/form-modal.tsx'
import { fromLocalInput, toLocalInput, viewerZoneHint } from '../../ui/format.ts'
import { SelectField } from '../../ui/select-field.tsx'
import type { AdminApi } from './admin-api.ts'
import { ADMIN_TEXTS, SEARCH_DEBOUNCE_MS } from './admin-texts.ts'
import type { AdminEvent, AdminPoll, AdminUser } from './admin-types.ts'
import { callOrProblem, problemOf } from './call-or-problem.ts'

interface ModalProps {
  admin: AdminApi
  onClose: () => void
  onSaved: (message: string) => void
}

/** Owner candidates matching a search: the first page of users, found as the admin types. */
function useOwnerCandidates(admin: AdminApi, search: string): AdminUser[] {
  const [users, setUsers] = useState<AdminUser[]>([])
  useEffect(() => {
    const controller = new AbortController()
    const timer = setTimeout(() => {
      admin.list('users', { page: 1, search: search.trim() }, controller.signal).then(
        (answer) => setUsers(answer.rows),
        (err: unknown) => {
          // The admin can still create the buble as its owner.
          if (!controller.signal.aborted) console.warn('Could not load owner candidates', err)
        },
      )
    }, SEARCH_DEBOUNCE_MS)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [admin, search])
  return users
}

export function CreateBubleModal({ admin, onClose, onSaved }: ModalProps) {
  const me = useSession((state) => state.user)
  const [name, setName] = useState('')
  const [ownerSearch, setOwnerSearch] = useState('')
  const [ownerId, setOwnerId] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const candidates = useOwnerCandidates(admin, ownerSearch).filter((user) => user.id !== me?.id)
  const options = [
    { value: '', label: `Me (${me?.name ?? 'you'})` },
    ...candidates.map((user) => ({ value: user.id, label: `${user.name} (${user.email})` })),
  ]

  async function submit(): Promise<boolean> {
    const found = problemOf(BubleName, name)
    setProblem(found)
    if (found) return false
    const body = { name: BubleName.parse(name), ...(ownerId ? { ownerId } : {}) }
    await callOrProblem(() => admin.createBuble(body), ADMIN_TEXTS.createBuble)
    onSaved('Buble created successfully')
    return true
  }

  return (
    <FormModal
      title="Add New Buble"
      submitLabel="Create Buble"
      busyLabel="Creating…"
      failure={ADMIN_TEXTS.createBuble}
      onSubmit={submit}
      onClose={onClose}
    >
      <Field label="Name" value={name} onValue={setName} error={problem} autoComplete="off" required />
      <Field
        label="Find owner"
        type="search"
        value={ownerSearch}
        onValue={setOwnerSearch}
        hint="Type a name or e-mail to list matching users."
        autoComplete="off"
      />
      <SelectField
        label="Owner"
        value={options.some((option) => option.value === ownerId) ? ownerId : ''}
        options={options}
        onValue={setOwnerId}
      />
    </FormModal>
  )
}

type EventProblems = Partial<Record<'title' | 'description' | 'location' | 'time', string | null>>

export function EditEventModal({ admin, event, onClose, onSaved }: ModalProps & { event: AdminEvent }) {
  const [title, setTitle] = useState(event.title)
  const [description, setDescription] = useState(event.description ?? '')
  const [location, setLocation] = useState(event.location ?? '')
  const [time, setTime] = useState(toLocalInput(event.event_time))
  const [problems, setProblems] = useState<EventProblems>({})

  async function submit(): Promise<boolean> {
    const eventTime = time.trim() ? fromLocalInput(time) : null
    const found: EventProblems = {
      title: problemOf(EventTitle, title),
      description: problemOf(EventDescription, description),
      location: problemOf(EventLocation, location),
      time: eventTime ? null : time.trim() ? EVENT_MESSAGES.timeInvalid : EVENT_MESSAGES.timeRequired,
    }
    setProblems(found)
    if (Object.values(found).some(Boolean) || !eventTime) return false
    const body = {
      title: title.trim(),
      description: description.trim(),
      location: location.trim(),
      event_time: eventTime,
    }
    await callOrProblem(() => admin.updateEvent(event.id, body), ADMIN_TEXTS.updateEvent)
    onSaved('Event updated successfully')
    return true
  }

  return (
    <FormModal
      title="Edit Event"
      submitLabel="Save Changes"
      busyLabel="Saving…"
      failure={ADMIN_TEXTS.updateEvent}
      onSubmit={submit}
      onClose={onClose}
    >
      <Field label="Title" value={title} onValue={setTitle} error={problems.title} autoComplete="off" required />
      <Field label="Description" value={description} onValue={setDescription} error={problems.description} rows={3} />
      <Field label="Location" value={location} onValue={setLocation} error={problems.location} autoComplete="off" />
      <Field
        label="Date and time"
        type="datetime-local"
        value={time}
        onValue={setTime}
        error={problems.time}
        hint={viewerZoneHint()}
        required
      />
    </FormModal>
  )
}

export function EditPollModal({ admin, poll, onClose, onSaved }: ModalProps & { poll: AdminPoll }) {
  const [question, setQuestion] = useState(poll.question)
  const [problem, setProblem] = useState<string | null>(null)

  async function submit(): Promise<boolean> {
    const found = problemOf(PollQuestion, question)
    setProblem(found)
    if (found) return false
    await callOrProblem(() => admin.updatePoll(poll.id, { question: question.trim() }), ADMIN_TEXTS.updatePoll)
    onSaved('Poll updated successfully')
    return true
  }

  return (
    <FormModal
      title="Edit Poll"
      submitLabel="Save Changes"
      busyLabel="Saving…"
      failure={ADMIN_TEXTS.updatePoll}
      onSubmit={submit}
      onClose={onClose}
    >
      <Field label="Question" value={question} onValue={setQuestion} error={problem} autoComplete="off" required />
    </FormModal>
  )
}
