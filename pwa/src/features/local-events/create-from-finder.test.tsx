import type { Permission } from '@buble/shared/permissions'
import type { ExternalEvent } from '@buble/shared/providers'
import { screen, waitFor, within } from '@testing-library/react'
import { beforeEach, expect, test, vi } from 'vitest'
import { deferred } from '../../test/deferred.ts'
import { FINDER_WINDOW, midwinterJazz } from '../../test/event-fixtures.ts'
import { json } from '../../test/fake-fetch.ts'
import { alice, bubleChange, makeBuble, makeMember, memberChange } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'

const buble = makeBuble({ name: 'Gig Club' })

const jazz: ExternalEvent = { ...midwinterJazz, endDate: null, price: null, image: null }

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(new Date('2026-12-20T10:00:00Z'))
})

/**
 * The finder with one result, its Create Event modal open. With `held`, the server answers no push
 * until it resolves: an applied push is followed by a pull that (this server holding no events)
 * takes the event off the device, so what was queued is looked at before that.
 */
async function openCreate(permissions?: Permission[], held?: Promise<void>) {
  const me = makeMember(alice, 'owner')
  const app = renderApp({
    route: '/bubles/gig-club',
    user: alice,
    server: {
      seed: [bubleChange(buble), memberChange(buble.id, permissions ? { ...me, role: 'admin', permissions } : me)],
      push: async (body) => {
        await held
        return { results: body.mutations.map((mutation) => ({ id: mutation.id, status: 'applied' as const })) }
      },
    },
    api: {
      'GET /api/users/profile': json(200, alice),
      [`GET /api/ticketmaster/events?${FINDER_WINDOW}&city=Stockholm&countryCode=SE`]: json(200, { events: [jazz] }),
    },
  })
  await app.user.click(await screen.findByRole('button', { name: 'Midwinter Jazz' }))
  await app.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Create event' }))
  return { ...app, dialog: screen.getByRole('dialog', { name: 'Create Event' }) }
}

/** Every mutation the device has queued and pushed, as [name, args]. */
const pushed = (app: Awaited<ReturnType<typeof openCreate>>) =>
  app.device.pushes.flatMap((push) => push.mutations.map((m) => [m.name, m.args] as [string, Record<string, unknown>]))

const options = (dialog: HTMLElement) =>
  within(dialog)
    .getAllByLabelText(/^Option \d+$/)
    .map((input) => (input as HTMLInputElement).value)

test('the form comes filled in from the event, with a poll of Going, Maybe, Not Going', async () => {
  const { dialog } = await openCreate()
  expect(within(dialog).getByLabelText('Title')).toHaveValue('Midwinter Jazz')
  expect(within(dialog).getByLabelText('Description')).toHaveValue('Bring warm clothes.')
  expect(within(dialog).getByLabelText('Location')).toHaveValue('Fasching, Stockholm')
  // 18:00 UTC is 19:00 in Stockholm in December.
  expect(within(dialog).getByLabelText('Event time')).toHaveValue('2026-12-24T19:00')
  expect(within(dialog).getByLabelText('Add a poll')).toBeChecked()
  expect(within(dialog).getByLabelText('Poll question')).toHaveValue('Are you coming to Midwinter Jazz?')
  expect(options(dialog)).toEqual(['Going', 'Maybe', 'Not Going'])
})

test('creating queues the event with its ticket link, then the poll with the edited options', async () => {
  const app = await openCreate()
  const { dialog } = app
  await app.user.click(within(dialog).getByRole('button', { name: 'Remove option 2' }))
  await app.user.click(within(dialog).getByRole('button', { name: 'Add option' }))
  await app.user.type(within(dialog).getByLabelText('Option 3'), '  Only if it snows ')
  expect(within(dialog).getByRole('button', { name: 'Remove option 1' })).toBeEnabled()
  await app.user.clear(within(dialog).getByLabelText('Event time'))
  await app.user.type(within(dialog).getByLabelText('Event time'), '2026-12-24T20:30')
  await app.user.click(within(dialog).getByRole('button', { name: 'Create event' }))

  expect(await screen.findByText('Event and poll created')).toBeInTheDocument()
  expect(screen.queryByRole('dialog')).toBeNull()
  await waitFor(() => expect(pushed(app).map(([name]) => name)).toEqual(['event.create', 'poll.create']))
  const [[, event], [, poll]] = pushed(app) as [[string, Record<string, unknown>], [string, Record<string, unknown>]]
  expect(event).toEqual({
    id: expect.any(String),
    buble_id: buble.id,
    title: 'Midwinter Jazz',
    description: 'Bring warm clothes.',
    location: 'Fasching, Stockholm',
    event_time: '2026-12-24T19:30:00.000Z',
    external_url: jazz.url,
    external_source: 'ticketmaster',
    recurrence: null,
  })
  expect(poll).toEqual({
    id: expect.any(String),
    buble_id: buble.id,
    question: 'Are you coming to Midwinter Jazz?',
    options: ['Going', 'Not Going', 'Only if it snows'],
  })
})

test('with fewer than two filled-in options only the event is created', async () => {
  const answer = deferred<void>()
  const app = await openCreate(undefined, answer.promise)
  const { dialog } = app
  await app.user.click(within(dialog).getByRole('button', { name: 'Remove option 3' }))
  expect(within(dialog).getByRole('button', { name: 'Remove option 1' })).toBeDisabled()
  await app.user.clear(within(dialog).getByLabelText('Option 2'))
  await app.user.type(within(dialog).getByLabelText('Option 2'), '   ')
  await app.user.click(within(dialog).getByRole('button', { name: 'Create event' }))
  expect(await screen.findByText('Event created')).toBeInTheDocument()
  await waitFor(() => expect(pushed(app).map(([name]) => name)).toEqual(['event.create']))
  // Both writes are queued before the message shows: no poll is waiting anywhere either.
  expect(await app.device.current()!.db.polls.count()).toBe(0)
  expect(await app.device.current()!.db.events.count()).toBe(1)
  answer.resolve()
})

test('ten options at most; a blank title is refused before anything is queued', async () => {
  const app = await openCreate()
  const { dialog } = app
  for (let i = 0; i < 7; i++) await app.user.click(within(dialog).getByRole('button', { name: 'Add option' }))
  expect(options(dialog)).toHaveLength(10)
  expect(within(dialog).getByRole('button', { name: 'Add option' })).toBeDisabled()
  await app.user.clear(within(dialog).getByLabelText('Title'))
  await app.user.click(within(dialog).getByRole('button', { name: 'Create event' }))
  expect(within(dialog).getByLabelText('Title')).toHaveAccessibleDescription('Title is required')
  expect(pushed(app)).toEqual([])
})

test('a member who may create events but not polls is offered no poll', async () => {
  const answer = deferred<void>()
  const app = await openCreate(['create_events'], answer.promise)
  expect(within(app.dialog).queryByLabelText('Add a poll')).toBeNull()
  await app.user.click(within(app.dialog).getByRole('button', { name: 'Create event' }))
  expect(await screen.findByText('Event created')).toBeInTheDocument()
  await waitFor(() => expect(pushed(app).map(([name]) => name)).toEqual(['event.create']))
  // Both writes are queued before the message shows: no poll is waiting anywhere either.
  expect(await app.device.current()!.db.polls.count()).toBe(0)
  expect(await app.device.current()!.db.events.count()).toBe(1)
  answer.resolve()
})
