import type { RsvpStatus } from '@buble/shared/events'
import type { BubleRole, Permission } from '@buble/shared/permissions'
import type { Change } from '@buble/sync/protocol'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, expect, test, vi } from 'vitest'
import { refusing } from '../../test/buble-server.ts'
import {
  eventChange,
  makeEvent,
  makePoll,
  mutations,
  openBubleTab,
  pollChange,
  silent,
  type TabOptions,
} from '../../test/event-fixtures.ts'
import { json } from '../../test/fake-fetch.ts'
import { makeBuble, person } from '../../test/fixtures.ts'

const XMAS = '2026-12-24T17:00:00.000Z'
const openEvents = (rows: (bubleId: string) => Change[], options: TabOptions = {}) =>
  openBubleTab('events', rows, options)
const card = (title: string) => screen.findByRole('article', { name: title })

// Times show on the viewer's own clock; the test setup makes the viewer Stockholm's, unless a test says otherwise.
afterEach(() => vi.restoreAllMocks())

test('an event card shows what, when (the viewer’s zone, named), where, who made it, who is coming and its link', async () => {
  openEvents((id) => [
    eventChange(makeEvent(id, 'Bob Builder', 'Later', '2027-01-10T10:00:00.000Z')),
    eventChange(
      makeEvent(
        id,
        'Bob Builder',
        'Christmas dinner',
        XMAS,
        { 'Bob Builder': 'going', 'Carl Cook': 'going', 'Dana Dev': 'maybe', 'Eve East': 'cant_go' },
        {
          description: 'Bring a dish',
          location: 'Bob’s place',
          external_url: 'https://tickets.example.com/x',
          external_source: 'ticketmaster',
        },
      ),
    ),
  ])
  const dinner = await card('Christmas dinner')
  expect(
    within(screen.getByRole('list', { name: 'Events' }))
      .getAllByRole('heading')
      .map((h) => h.textContent),
  ).toEqual(['Christmas dinner', 'Later'])
  expect(within(dinner).getByText('Thu 24 Dec, 18:00 CET')).toHaveAttribute('dateTime', XMAS)
  expect(dinner).toHaveTextContent('Bob’s place')
  expect(dinner).toHaveTextContent('Bring a dish')
  expect(dinner).toHaveTextContent('Created by Bob Builder')
  expect(dinner).toHaveTextContent('Going (2)Bob Builder, Carl Cook')
  expect(dinner).toHaveTextContent('Maybe (1)Dana Dev')
  expect(dinner).toHaveTextContent("Can't Go (1)")
  const link = within(dinner).getByRole('link', { name: 'Event page (ticketmaster)' })
  expect(link).toHaveAttribute('href', 'https://tickets.example.com/x')
  expect(link).toHaveAttribute('rel', 'noopener noreferrer')
  expect(within(await card('Later')).queryByRole('link')).toBeNull()
})

test('an empty list says so; Create Event shows only to members who may create events', async () => {
  openEvents(() => [], { permissions: [] })
  expect(await screen.findByRole('heading', { name: 'No events yet' })).toBeInTheDocument()
  expect(screen.queryByRole('button', { name: 'Create Event' })).toBeNull()
})

test('Create Event checks the form, then shows the event at once as Sending… and queues event.create', async () => {
  const app = openEvents(() => [], { server: silent })
  await app.user.click(await screen.findByRole('button', { name: 'Create Event' }))
  const dialog = screen.getByRole('dialog', { name: 'Create Event' })
  await app.user.type(within(dialog).getByLabelText('Title'), '   ')
  await app.user.click(within(dialog).getByRole('button', { name: 'Create Event' }))
  expect(within(dialog).getByLabelText('Title')).toHaveAccessibleDescription('Title is required')
  expect(within(dialog).getByLabelText('Date and time')).toHaveAccessibleDescription(
    'Your time zone: CET (Europe/Stockholm) Event time is required',
  )
  expect(await app.device.current()!.db.outbox.count()).toBe(0)

  await app.user.type(within(dialog).getByLabelText('Title'), ' Christmas dinner ')
  await app.user.type(within(dialog).getByLabelText('Location'), 'Bob’s place')
  fireEvent.change(within(dialog).getByLabelText('Date and time'), { target: { value: '2026-12-24T18:00' } })
  await app.user.click(within(dialog).getByRole('button', { name: 'Create Event' }))
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  const mine = await card('Christmas dinner')
  expect(within(mine).getByText('Sending…')).toBeInTheDocument()
  expect(within(mine).getByText('Thu 24 Dec, 18:00 CET')).toBeInTheDocument()
  expect(within(mine).getByRole('button', { name: 'Add to calendar' })).toBeDisabled()
  await waitFor(() => expect(mutations(app.device.pushes)).toHaveLength(1))
  expect(mutations(app.device.pushes)[0]).toMatchObject({
    name: 'event.create',
    args: {
      id: expect.any(String),
      buble_id: app.buble.id,
      title: 'Christmas dinner',
      description: null,
      location: 'Bob’s place',
      event_time: XMAS,
    },
  })
})

test('an RSVP asks first, inline in the card: No changes nothing, Yes presses the answer and counts it', async () => {
  const app = openEvents(
    (id) => [eventChange(makeEvent(id, 'Bob Builder', 'Picnic', XMAS, { 'Bob Builder': 'going' }))],
    {
      server: silent,
    },
  )
  const picnic = await card('Picnic')
  const going = within(picnic).getByRole('button', { name: 'Going' })
  const question = () => within(picnic).queryByRole('group', { name: 'Confirm RSVP' })
  expect(going).toHaveAttribute('aria-pressed', 'false')
  await app.user.click(going)
  // Not a page-blocking dialog: the question sits in the card, and Yes has the focus.
  expect(screen.queryByRole('dialog')).toBeNull()
  expect(question()).toHaveTextContent('Answer “Going” to Picnic?')
  expect(going).toHaveAttribute('aria-expanded', 'true')
  expect(within(question()!).getByRole('button', { name: 'Yes' })).toHaveFocus()
  await app.user.click(within(question()!).getByRole('button', { name: 'No' }))
  expect(question()).toBeNull()
  expect(going).toHaveFocus()
  expect(going).toHaveAttribute('aria-pressed', 'false')
  expect(await app.device.current()!.db.outbox.count()).toBe(0)

  // Escape answers No as well.
  await app.user.click(going)
  await app.user.keyboard('{Escape}')
  expect(question()).toBeNull()
  expect(await app.device.current()!.db.outbox.count()).toBe(0)

  await app.user.click(within(picnic).getByRole('button', { name: 'Maybe' }))
  expect(question()).toHaveTextContent('Answer “Maybe” to Picnic?')
  expect(within(question()!).getByRole('button', { name: 'Yes' })).toHaveAccessibleDescription(
    'Answer “Maybe” to Picnic?',
  )
  await app.user.click(within(question()!).getByRole('button', { name: 'Yes' }))
  await waitFor(() =>
    expect(within(picnic).getByRole('button', { name: 'Maybe' })).toHaveAttribute('aria-pressed', 'true'),
  )
  expect(question()).toBeNull()
  expect(picnic).toHaveTextContent('Maybe (1)Alice Example')
  // An answer is not the user's writing: the event does not read Sending….
  expect(within(picnic).queryByText('Sending…')).toBeNull()

  await app.user.click(within(picnic).getByRole('button', { name: 'Going' }))
  await app.user.keyboard('{Enter}')
  await waitFor(() => expect(picnic).toHaveTextContent('Going (2)Bob Builder, Alice Example'))
  expect(picnic).toHaveTextContent('Maybe (0)')
  await waitFor(() => expect(mutations(app.device.pushes)).toHaveLength(1))
  expect(mutations(app.device.pushes)[0]).toMatchObject({ name: 'event.rsvp', args: { status: 'maybe' } })
})

test.each<[string, BubleRole, Permission[] | undefined, boolean]>([
  ['a plain member', 'member', undefined, false],
  ['a member holding manage_events and manage_polls', 'member', ['manage_events', 'manage_polls'], true],
  ['a moderator (both by default)', 'moderator', undefined, true],
  ['an admin', 'admin', undefined, true],
])('Edit and Delete on another’s event and poll, for %s (%s, %j): shown %s', async (_who, role, permissions, shown) => {
  for (const [tab, kind] of [
    ['events', 'event'],
    ['polls', 'poll'],
  ] as const) {
    const app = openBubleTab(
      tab,
      (id) => [
        eventChange(makeEvent(id, 'Bob Builder', 'Bob’s', XMAS)),
        eventChange(makeEvent(id, 'Alice Example', 'Alice’s', XMAS)),
        pollChange(makePoll(id, 'Bob Builder', 'Bob’s', { A: 0, B: 0 })),
        pollChange(makePoll(id, 'Alice Example', 'Alice’s', { A: 0, B: 0 })),
      ],
      { role, permissions },
    )
    const bobs = await card('Bob’s')
    expect(!!within(bobs).queryByRole('button', { name: `Edit ${kind}` })).toBe(shown)
    expect(!!within(bobs).queryByRole('button', { name: `Delete ${kind}` })).toBe(shown)
    // Her own, always.
    expect(within(await card('Alice’s')).getByRole('button', { name: `Edit ${kind}` })).toBeInTheDocument()
    app.unmount()
  }
})

test('Edit Event sends only what changed and marks the event; Delete asks first and removes it', async () => {
  const app = openEvents(
    (id) => [eventChange(makeEvent(id, 'Alice Example', 'Picnic', XMAS, {}, { location: 'Park', description: 'Sun' }))],
    { server: silent },
  )
  const picnic = await card('Picnic')
  await app.user.click(within(picnic).getByRole('button', { name: 'Edit event' }))
  const dialog = screen.getByRole('dialog', { name: 'Edit Event' })
  expect(within(dialog).getByLabelText('Date and time')).toHaveValue('2026-12-24T18:00')
  expect(within(dialog).getByLabelText('Description')).toHaveValue('Sun')
  await app.user.clear(within(dialog).getByLabelText('Title'))
  await app.user.type(within(dialog).getByLabelText('Title'), 'Big picnic')
  await app.user.click(within(dialog).getByRole('button', { name: 'Save' }))
  const edited = await card('Big picnic')
  expect(within(edited).getByText('Sending…')).toBeInTheDocument()

  await app.user.click(within(edited).getByRole('button', { name: 'Delete event' }))
  await app.user.click(
    within(screen.getByRole('dialog', { name: 'Delete event?' })).getByRole('button', { name: 'Delete event' }),
  )
  await waitFor(() => expect(screen.queryByRole('article', { name: 'Big picnic' })).toBeNull())
  await waitFor(() => expect(mutations(app.device.pushes)).toHaveLength(1))
  expect(mutations(app.device.pushes)[0]).toMatchObject({ name: 'event.update', args: { title: 'Big picnic' } })
  expect(Object.keys(mutations(app.device.pushes)[0]!.args).sort()).toEqual(['id', 'title'])
})

test('Add to calendar downloads the event’s .ics with the session, named after the event; a failure says so', async () => {
  const create = vi.fn(() => 'blob:calendar')
  Object.assign(URL, { createObjectURL: create, revokeObjectURL: vi.fn() })
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {})
  vi.spyOn(console, 'error').mockImplementation(() => {})
  const event = makeEvent(makeBuble().id, 'Bob Builder', 'Quiz: night?', XMAS)
  const path = `GET /api/events/${event.id}/calendar.ics`
  const app = openEvents((id) => [eventChange({ ...event, buble_id: id })], {
    api: {
      [path]: [new Response('BEGIN:VCALENDAR', { headers: { 'Content-Type': 'text/calendar' } }), json(500, undefined)],
    },
  })
  const quiz = await card('Quiz: night?')
  await app.user.click(within(quiz).getByRole('button', { name: 'Add to calendar' }))
  await waitFor(() => expect(click).toHaveBeenCalledTimes(1))
  expect(app.callsTo(path)[0]?.headers.Authorization).toBe('Bearer token-1')
  const link = click.mock.contexts[0] as HTMLAnchorElement
  expect(link.download).toBe('Quiz- night-.ics')
  expect(link.href).toBe('blob:calendar')

  await app.user.click(within(quiz).getByRole('button', { name: 'Add to calendar' }))
  expect(await within(quiz).findByRole('alert')).toHaveTextContent('Failed to perform action')
  expect(click).toHaveBeenCalledTimes(1)
})

test('offline, Add to calendar waits and says why', async () => {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)
  openEvents((id) => [eventChange(makeEvent(id, 'Bob Builder', 'Picnic', XMAS))])
  const button = within(await card('Picnic')).getByRole('button', { name: 'Add to calendar' })
  expect(button).toBeDisabled()
  expect(button).toHaveAccessibleDescription('Adding to a calendar needs a connection.')
})

test('a refused event is taken back and the sync status names it with the spec’s text', async () => {
  const app = openEvents(() => [], { server: refusing('FORBIDDEN', 'No') })
  await app.user.click(await screen.findByRole('button', { name: 'Create Event' }))
  const dialog = screen.getByRole('dialog', { name: 'Create Event' })
  await app.user.type(within(dialog).getByLabelText('Title'), 'Not allowed')
  fireEvent.change(within(dialog).getByLabelText('Date and time'), { target: { value: '2026-12-24T18:00' } })
  await app.user.click(within(dialog).getByRole('button', { name: 'Create Event' }))
  expect(await screen.findByText('Not saved: Failed to create event')).toBeInTheDocument()
  await waitFor(() => expect(screen.queryByRole('article', { name: 'Not allowed' })).toBeNull())
})

test('a viewer in New York enters and reads times on their own clock, the zone named', async () => {
  process.env.TZ = 'America/New_York'
  const app = openEvents((id) => [eventChange(makeEvent(id, 'Bob Builder', 'Carols', XMAS))], { server: silent })
  expect(within(await card('Carols')).getByText('Thu 24 Dec, 12:00 EST')).toHaveAttribute('dateTime', XMAS)
  await app.user.click(screen.getByRole('button', { name: 'Create Event' }))
  const dialog = screen.getByRole('dialog', { name: 'Create Event' })
  expect(within(dialog).getByLabelText('Date and time')).toHaveAccessibleDescription(
    expect.stringContaining('(America/New York)'),
  )
  await app.user.type(within(dialog).getByLabelText('Title'), 'Skating')
  fireEvent.change(within(dialog).getByLabelText('Date and time'), { target: { value: '2026-12-24T19:30' } })
  await app.user.click(within(dialog).getByRole('button', { name: 'Create Event' }))
  await waitFor(() => expect(mutations(app.device.pushes)).toHaveLength(1))
  // 19:30 in New York in winter is 00:30 the next day in UTC.
  expect(mutations(app.device.pushes)[0]!.args).toMatchObject({ event_time: '2026-12-25T00:30:00.000Z' })
  expect(within(await card('Skating')).getByText('Thu 24 Dec, 19:30 EST')).toBeInTheDocument()
})

test('a time that has passed is refused on create, with the reason, and nothing is queued', async () => {
  const app = openEvents(() => [], { server: silent })
  await app.user.click(await screen.findByRole('button', { name: 'Create Event' }))
  const dialog = screen.getByRole('dialog', { name: 'Create Event' })
  await app.user.type(within(dialog).getByLabelText('Title'), 'Yesterday’s lunch')
  fireEvent.change(within(dialog).getByLabelText('Date and time'), { target: { value: '2020-01-01T12:00' } })
  await app.user.click(within(dialog).getByRole('button', { name: 'Create Event' }))
  expect(within(dialog).getByLabelText('Date and time')).toHaveAccessibleDescription(
    expect.stringContaining('This time has already passed: pick a date and time still to come'),
  )
  expect(screen.getByRole('dialog', { name: 'Create Event' })).toBeInTheDocument()
  expect(await app.device.current()!.db.outbox.count()).toBe(0)
})

test('past events are marked Past and listed after the upcoming ones, under a Past heading, latest first', async () => {
  const app = openEvents(
    (id) => [
      eventChange(makeEvent(id, 'Alice Example', 'Old picnic', '2025-06-01T10:00:00.000Z')),
      eventChange(makeEvent(id, 'Alice Example', 'Last party', '2026-01-01T20:00:00.000Z')),
      eventChange(makeEvent(id, 'Alice Example', 'Christmas', XMAS)),
    ],
    { server: silent },
  )
  await card('Christmas')
  const titles = (list: HTMLElement) =>
    within(list)
      .getAllByRole('heading')
      .map((h) => h.textContent)
  expect(titles(screen.getByRole('list', { name: 'Events' }))).toEqual(['Christmas'])
  const past = screen.getByRole('region', { name: 'Past' })
  expect(titles(within(past).getByRole('list', { name: 'Past' }))).toEqual(['Last party', 'Old picnic'])
  expect(within(await card('Old picnic')).getByText('Past')).toBeInTheDocument()
  expect(within(await card('Christmas')).queryByText('Past')).toBeNull()

  // Editing a past event may keep its time (fixing a typo after the fact).
  await app.user.click(within(await card('Last party')).getByRole('button', { name: 'Edit event' }))
  const dialog = screen.getByRole('dialog', { name: 'Edit Event' })
  await app.user.type(within(dialog).getByLabelText('Location'), 'Home')
  await app.user.click(within(dialog).getByRole('button', { name: 'Save' }))
  await waitFor(() => expect(mutations(app.device.pushes)).toHaveLength(1))
  expect(mutations(app.device.pushes)[0]).toMatchObject({ name: 'event.update', args: { location: 'Home' } })
})

test('with only past events, the list says there is nothing upcoming instead of “No events yet”', async () => {
  openEvents((id) => [eventChange(makeEvent(id, 'Alice Example', 'Old picnic', '2025-06-01T10:00:00.000Z'))])
  expect(await screen.findByRole('heading', { name: 'No upcoming events' })).toBeInTheDocument()
  expect(screen.queryByRole('heading', { name: 'No events yet' })).toBeNull()
  expect(await card('Old picnic')).toBeInTheDocument()
})

test('a repeating event shows its next occurrence with its own answers; RSVP and “This event” name the occurrence', async () => {
  // Weekly from Tuesday 5 January 2027, 18:00 CET, three times; the first is cancelled.
  const [first, second, third] = ['2027-01-05T17:00:00.000Z', '2027-01-12T17:00:00.000Z', '2027-01-19T17:00:00.000Z']
  const answer = (name: string, status: RsvpStatus, occurrence: string) => ({
    user_id: person(name).id,
    status,
    user: { name },
    occurrence,
  })
  const app = openEvents(
    (id) => [
      eventChange(
        makeEvent(
          id,
          'Alice Example',
          'Run',
          first,
          {},
          {
            recurrence: 'FREQ=WEEKLY;COUNT=3',
            exdates: [first],
            rsvps: [answer('Bob Builder', 'going', second), answer('Carl Cook', 'going', third)],
          },
        ),
      ),
    ],
    { server: silent },
  )
  const run = await card('Run')
  expect(within(run).getByText('Tue 12 Jan 2027, 18:00 CET')).toHaveAttribute('dateTime', second)
  expect(run).toHaveTextContent('Repeats weekly, 3 times')
  expect(run).toHaveTextContent('Going (1)Bob Builder')

  await app.user.click(within(run).getByRole('button', { name: 'Maybe' }))
  await app.user.click(
    within(within(run).getByRole('group', { name: 'Confirm RSVP' })).getByRole('button', { name: 'Yes' }),
  )
  await waitFor(() => expect(run).toHaveTextContent('Maybe (1)Alice Example'))

  await app.user.click(within(run).getByRole('button', { name: 'Edit event' }))
  const ask = screen.getByRole('dialog', { name: 'Edit repeating event' })
  expect(within(ask).getByRole('button', { name: 'This and following events' })).toBeInTheDocument()
  await app.user.click(within(ask).getByRole('button', { name: 'This event' }))
  const form = screen.getByRole('dialog', { name: 'Edit Event' })
  expect(within(form).getByLabelText('Date and time')).toHaveValue('2027-01-12T18:00')
  expect(within(form).queryByLabelText('Repeat')).toBeNull()
  await app.user.clear(within(form).getByLabelText('Title'))
  await app.user.type(within(form).getByLabelText('Title'), 'Long run')
  await app.user.click(within(form).getByRole('button', { name: 'Save' }))
  // The occurrence is an event of its own at once; the series moves on to the one after.
  expect(await card('Long run')).toHaveTextContent('Maybe (1)Alice Example')
  await waitFor(() => expect(within(run).getByText('Tue 19 Jan 2027, 18:00 CET')).toBeInTheDocument())

  // Deleting asks: this occurrence (the last left here), or all; the series then has none to show.
  await app.user.click(within(run).getByRole('button', { name: 'Delete event' }))
  const del = screen.getByRole('dialog', { name: 'Delete repeating event?' })
  expect(within(del).getByRole('button', { name: 'Cancel' })).toHaveFocus()
  await app.user.click(within(del).getByRole('button', { name: 'Delete this event' }))
  await waitFor(() => expect(screen.queryByRole('article', { name: 'Run' })).toBeNull())
  expect(await card('Long run')).toBeInTheDocument()

  // The outbox keeps them, in order (a server that does not answer holds the later ones back).
  const queued = await app.device.current()!.db.outbox.orderBy('seq').toArray()
  expect(queued.map((entry) => entry.name)).toEqual(['event.rsvp', 'event.update', 'event.delete'])
  expect(queued[2]!.args).toEqual({ id: expect.any(String), occurrence: third })
  expect(queued[0]!.args).toMatchObject({ status: 'maybe', occurrence: second })
  expect(queued[1]!.args).toMatchObject({ scope: 'this', occurrence: second, title: 'Long run' })
  expect(Object.keys(queued[1]!.args as object).sort()).toEqual(['id', 'new_id', 'occurrence', 'scope', 'title'])
})
