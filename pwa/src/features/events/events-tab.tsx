import { isPastEventTime } from '@buble/shared/events'
import { can, type MemberActor } from '@buble/shared/permissions'
import type { AtOccurrence } from '@buble/shared/recurrence'
import { useState } from 'react'
import type { LocalBuble } from '../../data/bubles.ts'
import { useDevice } from '../../data/data-context.tsx'
import { type LocalEvent, useEventActions, useEvents } from '../../data/events.ts'
import { useOnline } from '../../data/sync-status.ts'
import { useNow } from '../../data/wall.ts'
import { ContentList } from '../../ui/content-list.tsx'
import { ERROR_TEXTS } from '../../ui/error-texts.ts'
import { draftOf, EventFormModal, type EventValues } from '../../ui/event-form-modal.tsx'
import { useMutedHere } from '../../ui/mention-members.tsx'
import { foundItemProps, useFoundItem } from '../../ui/use-found-item.ts'
import { EditScopeDialog } from './edit-scope-dialog.tsx'
import { EventCard } from './event-card.tsx'
import { EVENT_TEXTS } from './event-texts.ts'
import { shownEvents } from './shown-events.ts'

type ShownEvent = AtOccurrence<LocalEvent>
type Scope = 'all' | 'this' | 'following'

/** Only what an edit changes is sent, so it does not undo another member's edit of other fields. */
function changesOf(event: ShownEvent, values: EventValues): Partial<EventValues> {
  return Object.fromEntries(
    Object.entries(values).filter(([key, value]) => (event[key as keyof EventValues] ?? null) !== value),
  ) as Partial<EventValues>
}

/** Upcoming events soonest first; past ones after them, the latest first (decision 80). */
export function splitByTime<E extends { event_time: string }>(events: readonly E[], now: number) {
  const upcoming: E[] = []
  const past: E[] = []
  for (const event of events) (isPastEventTime(event.event_time, now) ? past : upcoming).push(event)
  past.reverse()
  return { upcoming, past }
}

/** The events tab: the buble's upcoming events soonest first, then the past ones; answers, create and edit. */
export function EventsTab({ buble, actor }: { buble: LocalBuble; actor: MemberActor }) {
  const { userId } = useDevice()
  const events = useEvents(buble.id)
  const actions = useEventActions()
  const online = useOnline()
  const now = useNow()
  const [modal, setModal] = useState<'create' | { event: ShownEvent; scope: Scope } | null>(null)
  // A repeating event's edit first asks which of its events it changes.
  const [askingScope, setAskingScope] = useState<ShownEvent | null>(null)
  // Muted (issue 24 §2): the banner says until when; nothing new is offered meanwhile.
  const muted = useMutedHere() !== null
  const mayCreate = can(actor, 'event.create') && !muted
  const close = () => setModal(null)
  const { upcoming, past } = splitByTime(shownEvents(events.rows ?? [], now), now)
  const found = useFoundItem(past)
  const edit = (event: ShownEvent) => (event.recurrence ? setAskingScope(event) : setModal({ event, scope: 'all' }))
  const chooseScope = (event: ShownEvent, scope: 'this' | 'following') => {
    setAskingScope(null)
    // From the first occurrence on, "this and following" is every occurrence.
    setModal({ event, scope: scope === 'following' && event.occurrence === event.series_time ? 'all' : scope })
  }
  const save = async ({ event, scope }: { event: ShownEvent; scope: Scope }, values: EventValues) => {
    const { recurrence, ...fields } = changesOf(event, values)
    const changes = scope === 'this' ? fields : { ...fields, ...(recurrence !== undefined && { recurrence }) }
    if (Object.keys(changes).length === 0) return
    if (scope === 'all' || !event.occurrence) await actions.updateEvent(event.id, changes)
    else await actions.updateOccurrences(event.id, scope, event.occurrence, changes)
  }
  const card = (event: ShownEvent, isPast: boolean) => (
    <EventCard
      event={event}
      actor={actor}
      userId={userId}
      online={online}
      actions={actions}
      past={isPast}
      onEdit={() => edit(event)}
    />
  )

  return (
    <>
      <ContentList
        title="Events"
        create={mayCreate ? { label: EVENT_TEXTS.create, onClick: () => setModal('create') } : undefined}
        items={events.rows === undefined ? undefined : upcoming}
        loadingLabel="Loading events…"
        empty={
          past.length > 0
            ? { title: EVENT_TEXTS.noUpcoming, text: EVENT_TEXTS.noUpcomingHint }
            : { title: EVENT_TEXTS.empty, text: mayCreate ? EVENT_TEXTS.emptyHint : EVENT_TEXTS.emptyHintReader }
        }
      >
        {(event) => card(event, false)}
      </ContentList>
      {past.length > 0 && (
        <section className="content-list events-past" aria-labelledby="past-events-title">
          <h2 className="section-title" id="past-events-title">
            {EVENT_TEXTS.pastHeading}
          </h2>
          <ol className="event-list" aria-label={EVENT_TEXTS.pastHeading}>
            {past.map((event) => (
              <li key={event.id} {...foundItemProps(event.id, found)}>
                {card(event, true)}
              </li>
            ))}
          </ol>
        </section>
      )}
      {modal === 'create' && (
        <EventFormModal
          heading={EVENT_TEXTS.create}
          submitLabel={EVENT_TEXTS.create}
          busyLabel="Creating…"
          failure={ERROR_TEXTS.createEvent}
          repeat
          onSubmit={(values) => actions.createEvent({ buble_id: buble.id, ...values })}
          onClose={close}
        />
      )}
      {askingScope && (
        <EditScopeDialog onChoose={(scope) => chooseScope(askingScope, scope)} onCancel={() => setAskingScope(null)} />
      )}
      {modal !== null && modal !== 'create' && (
        <EventFormModal
          heading={EVENT_TEXTS.edit}
          submitLabel="Save"
          busyLabel="Saving…"
          initial={draftOf(modal.scope === 'this' ? { ...modal.event, recurrence: null } : modal.event)}
          original={modal.event.event_time}
          failure={ERROR_TEXTS.updateEvent}
          repeat={modal.scope !== 'this'}
          onSubmit={(values) => save(modal, values)}
          onClose={close}
        />
      )}
    </>
  )
}
