import type { RsvpStatus } from '@buble/shared/events'
import { screen, waitFor, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import { bubleServer } from '../../test/buble-server.ts'
import { eventChange, makeEvent, makePoll, pollChange } from '../../test/event-fixtures.ts'
import { json } from '../../test/fake-fetch.ts'
import { alice, bubleChange, makeBuble, makeMember, memberChange } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'

const buble = makeBuble({ name: 'Book Club', tools: ['event_stats', 'latest_polls'] })

function openOverview(rows: ReturnType<typeof eventChange>[]) {
  const server = bubleServer([bubleChange(buble), memberChange(buble.id, makeMember(alice, 'owner')), ...rows])
  const app = renderApp({
    route: '/bubles/book-club',
    user: alice,
    server,
    api: { 'GET /api/users/profile': json(200, alice) },
  })
  return { ...app, server }
}

const day = (n: number) => `2026-12-${String(n).padStart(2, '0')}T17:00:00.000Z`
const answers = (going: number, maybe: number) => {
  const all: Record<string, RsvpStatus> = {}
  for (let i = 0; i < going; i++) all[`Goer ${i}`] = 'going'
  for (let i = 0; i < maybe; i++) all[`Maybe ${i}`] = 'maybe'
  return all
}
const widget = (name: string) => screen.findByRole('article', { name })
const lines = (list: HTMLElement) =>
  within(list)
    .getAllByRole('listitem')
    .map((item) => item.textContent)

test('Event Stats ranks the five events with most interest, labels them, and follows an RSVP from the server', async () => {
  const events = {
    a: makeEvent(buble.id, 'Bob Builder', 'Alpha', day(1), answers(2, 0)),
    b: makeEvent(buble.id, 'Bob Builder', 'Bravo', day(2), answers(1, 1)),
    c: makeEvent(buble.id, 'Bob Builder', 'Charlie', day(3), answers(0, 1)),
    d: makeEvent(buble.id, 'Bob Builder', 'Delta', day(4), answers(1, 0)),
    e: makeEvent(buble.id, 'Bob Builder', 'Echo', day(5), answers(0, 2)),
    f: makeEvent(buble.id, 'Bob Builder', 'Foxtrot', day(6), { 'Eve East': 'cant_go' }),
    g: makeEvent(buble.id, 'Bob Builder', 'Golf', day(7), answers(0, 1)),
  }
  const app = openOverview(Object.values(events).map(eventChange))
  const stats = await widget('Event Stats')
  const list = await within(stats).findByRole('list', { name: 'Most popular events' })
  expect(lines(list)).toEqual([
    'Alpha2 going · 0 maybe Hot',
    'Bravo1 going · 1 maybe Hot',
    'Delta1 going · 0 maybe Popular',
    'Echo0 going · 2 maybe Popular',
    'Charlie0 going · 1 maybe Emerging',
  ])
  expect(within(stats).getByRole('link', { name: 'View all events' })).toHaveAttribute(
    'href',
    '/bubles/book-club/events',
  )

  app.server.send(
    eventChange({ ...events.c, rsvps: makeEvent(buble.id, 'Bob Builder', 'x', day(3), answers(3, 1)).rsvps }),
  )
  await app.device.current()!.engine.sync()
  await waitFor(() => expect(lines(list)[0]).toBe('Charlie3 going · 1 maybe Hot'))
  expect(lines(list).slice(1)).toEqual([
    'Alpha2 going · 0 maybe Popular',
    'Bravo1 going · 1 maybe Popular',
    'Delta1 going · 0 maybe Emerging',
    'Echo0 going · 2 maybe Emerging',
  ])
})

test('without answers Event Stats and Latest Polls say there is nothing yet', async () => {
  openOverview([eventChange(makeEvent(buble.id, 'Bob Builder', 'Quiet', day(1)))])
  const stats = await widget('Event Stats')
  expect(await within(stats).findByText('No RSVPs yet. The most popular events show here.')).toBeInTheDocument()
  expect(within(stats).queryByRole('list')).toBeNull()
  const latest = await widget('Latest Polls')
  expect(await within(latest).findByText('No polls yet. The newest polls show here.')).toBeInTheDocument()
})

test('Latest Polls shows the three newest polls with their first three options, and a new one at once', async () => {
  const options = { One: 1, Two: 0, Three: 2, Four: 0 }
  const app = openOverview(
    [4, 3, 2, 1].map((minutesAgo) =>
      pollChange(makePoll(buble.id, 'Bob Builder', `Poll ${minutesAgo}`, options, { minutesAgo })),
    ),
  )
  const latest = await widget('Latest Polls')
  const list = await within(latest).findByRole('list', { name: 'Latest polls' })
  const polls = () =>
    within(list)
      .getAllByRole('listitem')
      .filter((item) => item.parentElement === list)
  expect(polls().map((poll) => poll.querySelector('.widget-item-title')?.textContent)).toEqual([
    'Poll 1',
    'Poll 2',
    'Poll 3',
  ])
  expect(lines(within(polls()[0]!).getByRole('list'))).toEqual(['One (1 vote)', 'Two (0 votes)', 'Three (2 votes)'])
  expect(within(latest).getByRole('link', { name: 'View all polls' })).toHaveAttribute(
    'href',
    '/bubles/book-club/polls',
  )

  app.server.send(pollChange(makePoll(buble.id, 'Bob Builder', 'Brand new', { Yes: 0, No: 0 }, { minutesAgo: -1 })))
  await app.device.current()!.engine.sync()
  await waitFor(() => expect(polls()[0]).toHaveTextContent('Brand new'))
  expect(polls()).toHaveLength(3)
})
