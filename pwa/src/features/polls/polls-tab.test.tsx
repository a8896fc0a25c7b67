import type { Change } from '@buble/sync/protocol'
import { screen, waitFor, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import { refusing } from '../../test/buble-server.ts'
import { makePoll, mutations, openBubleTab, pollChange, silent, type TabOptions } from '../../test/event-fixtures.ts'

const openPolls = (rows: (bubleId: string) => Change[], options: TabOptions = {}) =>
  openBubleTab('polls', rows, { ...options, server: { ...silent, ...options.server } })
const card = (question: string) => screen.findByRole('article', { name: question })
const confirmIn = (title: string, button: string) =>
  within(screen.getByRole('dialog', { name: title })).getByRole('button', { name: button })

test('a vote asks first; then the results show votes, bars against the member count, and participation', async () => {
  const app = openPolls((id) => [pollChange(makePoll(id, 'Bob Builder', 'Pizza?', { Yes: 1, No: 1, Maybe: 0 }))])
  const poll = await card('Pizza?')
  expect(poll).toHaveTextContent('Created by Bob Builder')
  const options = within(poll).getByRole('list', { name: 'Options of Pizza?' })
  await app.user.click(within(options).getByRole('button', { name: 'Yes' }))
  await app.user.click(confirmIn('Confirm vote', 'Cancel'))
  expect(await app.device.current()!.db.outbox.count()).toBe(0)
  expect(within(poll).queryByRole('list', { name: 'Results of Pizza?' })).toBeNull()

  await app.user.click(within(options).getByRole('button', { name: 'Yes' }))
  await app.user.click(confirmIn('Confirm vote', 'Vote'))
  const results = await within(poll).findByRole('list', { name: 'Results of Pizza?' })
  const rows = within(results).getAllByRole('listitem')
  expect(rows.map((row) => row.querySelector('.poll-result-line')?.textContent)).toEqual([
    'YesYour vote2 votes',
    'No1 vote',
    'Maybe0 votes',
  ])
  expect(within(results).getByRole('meter', { name: 'Yes: 2 of 4 members' })).toHaveAttribute('value', '50')
  expect(within(results).getByRole('meter', { name: 'No: 1 of 4 members' })).toHaveAttribute('value', '25')
  // Beside each bar, the option's share of the votes cast.
  expect(rows.map((row) => row.querySelector('.poll-result-share')?.textContent)).toEqual([
    '2 of 3 votes · 67 %',
    '1 of 3 votes · 33 %',
    '0 of 3 votes · 0 %',
  ])
  // 3 of 4 members voted: 75 %, High.
  expect(poll).toHaveTextContent('Total votes3')
  expect(poll).toHaveTextContent('Members4')
  expect(poll).toHaveTextContent('Members who voted75% High')
  expect(within(poll).queryByText('Sending…')).toBeNull()

  await app.user.click(within(poll).getByRole('button', { name: 'Change vote' }))
  expect(within(poll).getByRole('button', { name: 'Yes' })).toHaveAttribute('aria-pressed', 'true')
  await app.user.click(within(poll).getByRole('button', { name: 'No' }))
  await app.user.click(confirmIn('Change vote?', 'Change vote'))
  await waitFor(() => expect(within(poll).getByRole('meter', { name: 'No: 2 of 4 members' })).toBeInTheDocument())
  expect(within(poll).getByRole('meter', { name: 'Yes: 1 of 4 members' })).toHaveAttribute('value', '25')
  expect(poll).toHaveTextContent('Total votes3')

  await app.user.click(within(poll).getByRole('button', { name: 'Remove vote' }))
  await app.user.click(confirmIn('Remove vote?', 'Remove vote'))
  await waitFor(() => expect(within(poll).getByRole('list', { name: 'Options of Pizza?' })).toBeInTheDocument())
  await waitFor(() => expect(mutations(app.device.pushes)).toHaveLength(1))
  const [first] = mutations(app.device.pushes)
  expect(first).toMatchObject({ name: 'poll.vote', args: { poll_option_id: expect.any(String) } })
  const stored = await app.device.current()!.db.polls.toArray()
  expect(stored[0]).toMatchObject({ totalVotes: 2, hasVoted: false, userVote: null })
})

test('participation below 70 % reads Medium, below 40 % Low; a poll without options says so', async () => {
  openPolls((id) => [
    pollChange(makePoll(id, 'Bob Builder', 'Two voted', { A: 1, B: 1 }, { votedFor: 'A', minutesAgo: 1 })),
    pollChange(makePoll(id, 'Bob Builder', 'One voted', { A: 1, B: 0 }, { votedFor: 'A', minutesAgo: 2 })),
    pollChange(makePoll(id, 'Bob Builder', 'Empty', {}, { minutesAgo: 3 })),
  ])
  expect(await card('Two voted')).toHaveTextContent('Members who voted50% Medium')
  expect(await card('One voted')).toHaveTextContent('Members who voted25% Low')
  expect(await card('Empty')).toHaveTextContent('No options available')
})

test('Create Poll refuses a blank question and blank options, keeps 2 to 10 options, and shows the poll at once', async () => {
  const app = openPolls(() => [])
  expect(await screen.findByRole('heading', { name: 'No polls yet' })).toBeInTheDocument()
  await app.user.click(screen.getByRole('button', { name: 'Create Poll' }))
  const dialog = screen.getByRole('dialog', { name: 'Create Poll' })
  const removes = () => within(dialog).getAllByRole('button', { name: /^Remove option/ })
  expect(removes().map((button) => (button as HTMLButtonElement).disabled)).toEqual([true, true])
  await app.user.type(within(dialog).getByLabelText('Option 1'), 'Friday')
  await app.user.click(within(dialog).getByRole('button', { name: 'Create Poll' }))
  expect(within(dialog).getByLabelText('Question')).toHaveAccessibleDescription('Question is required')
  expect(within(dialog).getByLabelText('Option 2')).toHaveAccessibleDescription('Options must not be empty')

  const add = within(dialog).getByRole('button', { name: 'Add option' })
  for (let i = 0; i < 8; i++) await app.user.click(add)
  expect(within(dialog).getByLabelText('Option 10')).toBeInTheDocument()
  expect(add).toBeDisabled()
  expect(removes().every((button) => !(button as HTMLButtonElement).disabled)).toBe(true)
  for (let i = 0; i < 8; i++) await app.user.click(removes().at(-1)!)
  expect(removes()).toHaveLength(2)
  expect(add).toBeEnabled()

  await app.user.type(within(dialog).getByLabelText('Question'), ' When shall we meet? ')
  await app.user.type(within(dialog).getByLabelText('Option 2'), 'Saturday')
  await app.user.click(within(dialog).getByRole('button', { name: 'Create Poll' }))
  const poll = await card('When shall we meet?')
  expect(within(poll).getByText('Sending…')).toBeInTheDocument()
  expect(within(poll).getByRole('button', { name: 'Saturday' })).toBeInTheDocument()
  await waitFor(() => expect(mutations(app.device.pushes)).toHaveLength(1))
  expect(mutations(app.device.pushes)[0]).toMatchObject({
    name: 'poll.create',
    args: {
      id: expect.any(String),
      buble_id: app.buble.id,
      question: 'When shall we meet?',
      options: ['Friday', 'Saturday'],
    },
  })
})

test('Edit Poll changes the question and options; a kept option keeps its votes', async () => {
  const app = openPolls((id) => [pollChange(makePoll(id, 'Alice Example', 'Pizza?', { Yes: 2, No: 1 }))])
  await app.user.click(within(await card('Pizza?')).getByRole('button', { name: 'Edit poll' }))
  const dialog = screen.getByRole('dialog', { name: 'Edit Poll' })
  expect(within(dialog).getByLabelText('Option 2')).toHaveValue('No')
  await app.user.clear(within(dialog).getByLabelText('Option 2'))
  await app.user.type(within(dialog).getByLabelText('Option 2'), 'Later')
  await app.user.click(within(dialog).getByRole('button', { name: 'Save' }))
  const poll = await card('Pizza?')
  await waitFor(() => expect(within(poll).getByRole('button', { name: 'Later' })).toBeInTheDocument())
  expect(within(poll).getByText('Sending…')).toBeInTheDocument()
  const stored = await app.device.current()!.db.polls.toArray()
  expect(stored[0]).toMatchObject({ totalVotes: 2, options: [{ votes_count: 2 }, { votes_count: 0 }] })
  await waitFor(() => expect(mutations(app.device.pushes)).toHaveLength(1))
  expect(mutations(app.device.pushes)[0]!.args).toEqual({ id: stored[0]!.id, options: ['Yes', 'Later'] })
})

test('a refused vote is taken back and the sync status says Failed to perform action', async () => {
  const app = openPolls((id) => [pollChange(makePoll(id, 'Bob Builder', 'Pizza?', { Yes: 0, No: 0 }))], {
    server: refusing('NOT_FOUND', 'Gone'),
  })
  await app.user.click(within(await card('Pizza?')).getByRole('button', { name: 'Yes' }))
  await app.user.click(confirmIn('Confirm vote', 'Vote'))
  expect(await screen.findByText('Not saved: Failed to perform action')).toBeInTheDocument()
  await waitFor(() =>
    expect(
      within(screen.getByRole('article', { name: 'Pizza?' })).getByRole('button', { name: 'Yes' }),
    ).toBeInTheDocument(),
  )
})

test('1 of 1 votes reads as all the votes cast, while the spec’s bar stays against the member count', async () => {
  openPolls((id) => [pollChange(makePoll(id, 'Bob Builder', 'Soup?', { Soup: 1, Stew: 0 }, { votedFor: 'Soup' }))])
  const results = await within(await card('Soup?')).findByRole('list', { name: 'Results of Soup?' })
  const [soup, stew] = within(results).getAllByRole('listitem')
  expect(within(soup!).getByText('1 of 1 votes · 100 %')).toBeInTheDocument()
  expect(within(stew!).getByText('0 of 1 votes · 0 %')).toBeInTheDocument()
  // The buble has four members: the spec's bar shows a quarter.
  expect(within(results).getByRole('meter', { name: 'Soup: 1 of 4 members' })).toHaveAttribute('value', '25')
})
