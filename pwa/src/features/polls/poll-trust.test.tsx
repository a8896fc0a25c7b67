import type { Change } from '@buble/sync/protocol'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import { refusing } from '../../test/buble-server.ts'
import { makePoll, mutations, openBubleTab, pollChange, silent, type TabOptions } from '../../test/event-fixtures.ts'

/** The poll card's states for a closing time, several choices, hidden results and a secret ballot (docs/decisions/0098). */

const openPolls = (rows: (bubleId: string) => Change[], options: TabOptions = {}) =>
  openBubleTab('polls', rows, { ...options, server: { ...silent, ...options.server } })
const card = (question: string) => screen.findByRole('article', { name: question })
const confirmIn = (title: string, button: string) =>
  within(screen.getByRole('dialog', { name: title })).getByRole('button', { name: button })
const inAnHour = () => new Date(Date.now() + 3600_000).toISOString()
const anHourAgo = () => new Date(Date.now() - 3600_000).toISOString()

test('a closed poll shows Closed and its winner (or a tie), takes no vote and offers no change', async () => {
  openPolls((id) => [
    pollChange(
      makePoll(id, 'Bob Builder', 'Closed one', { Tea: 2, Coffee: 1 }, { votedFor: 'Tea', closes_at: anHourAgo() }),
    ),
    pollChange(
      makePoll(
        id,
        'Bob Builder',
        'A tie',
        { Red: 1, Blue: 1 },
        { closes_at: anHourAgo(), closed: true, minutesAgo: 1 },
      ),
    ),
    pollChange(makePoll(id, 'Bob Builder', 'Still open', { Yes: 0, No: 0 }, { closes_at: inAnHour(), minutesAgo: 2 })),
  ])
  const closed = await card('Closed one')
  expect(within(closed).getByText('Closed')).toBeInTheDocument()
  expect(within(closed).getByText('Winner: Tea')).toBeInTheDocument()
  expect(within(closed).queryByRole('button', { name: 'Change vote' })).toBeNull()
  expect(within(closed).queryByRole('button', { name: 'Remove vote' })).toBeNull()
  // Not voted, but closed: the final result, no options to press.
  const tie = await card('A tie')
  expect(within(tie).getByText('Tie: Red, Blue')).toBeInTheDocument()
  expect(within(tie).queryByRole('list', { name: 'Options of A tie' })).toBeNull()
  const open = await card('Still open')
  expect(within(open).getByText(/^Closes /)).toBeInTheDocument()
  expect(within(open).getByRole('button', { name: 'Yes' })).toBeInTheDocument()
})

test('several choices: checkboxes, one vote with every choice; hidden results say when they show', async () => {
  const app = openPolls((id) => [
    pollChange(
      makePoll(
        id,
        'Bob Builder',
        'Which days?',
        { Mon: 0, Tue: 0, Wed: 0 },
        { multiple: true, hide_results: true, closes_at: inAnHour(), totalVotes: null, votersCount: 1 },
      ),
    ),
  ])
  const poll = await card('Which days?')
  for (const tag of ['Several choices', 'Results at close']) expect(within(poll).getByText(tag)).toBeInTheDocument()
  const vote = within(poll).getByRole('button', { name: 'Vote' })
  expect(vote).toBeDisabled()
  await app.user.click(within(poll).getByRole('checkbox', { name: 'Mon' }))
  await app.user.click(within(poll).getByRole('checkbox', { name: 'Wed' }))
  await app.user.click(vote)
  await app.user.click(confirmIn('Confirm vote', 'Vote'))
  expect(await within(poll).findByText('Results show when the poll closes.')).toBeInTheDocument()
  expect(within(poll).getByText('2 members voted')).toBeInTheDocument()
  expect(within(poll).queryByRole('list', { name: 'Results of Which days?' })).toBeNull()
  await waitFor(() => expect(mutations(app.device.pushes)).toHaveLength(1))
  const [sent] = mutations(app.device.pushes)
  expect(sent).toMatchObject({ name: 'poll.vote', args: { poll_option_ids: expect.any(Array) } })
  expect((sent!.args as { poll_option_ids: string[] }).poll_option_ids).toHaveLength(2)
})

test('a secret vote warns it is final, then says the choice is kept nowhere, with no change or remove', async () => {
  const app = openPolls((id) => [
    pollChange(makePoll(id, 'Bob Builder', 'Secret?', { Aye: 1, Nay: 0 }, { secret: true, votersCount: 1 })),
  ])
  const poll = await card('Secret?')
  expect(within(poll).getByText('Secret ballot')).toBeInTheDocument()
  await app.user.click(within(poll).getByRole('button', { name: 'Nay' }))
  expect(screen.getByRole('dialog', { name: 'Confirm vote' })).toHaveTextContent('A secret vote is final')
  await app.user.click(confirmIn('Confirm vote', 'Vote'))
  expect(await within(poll).findByText(/^You voted. Your choice is secret/)).toBeInTheDocument()
  expect(within(poll).queryByRole('button', { name: 'Change vote' })).toBeNull()
  expect(within(poll).queryByRole('button', { name: 'Remove vote' })).toBeNull()
  // Totals show (they say nothing of who), no option is marked as the user's.
  const results = within(poll).getByRole('list', { name: 'Results of Secret?' })
  expect(within(results).queryByText('Your vote')).toBeNull()
  const [stored] = await app.device.current()!.db.polls.toArray()
  expect(stored).toMatchObject({ hasVoted: true, userVote: null, userVotes: [], votersCount: 2, totalVotes: 2 })
})

test('a vote the server refuses as closed is taken back and kept in the not-saved list with its reason', async () => {
  const reason = 'This poll closed at 2026-11-23 18:00 UTC'
  const app = openPolls((id) => [pollChange(makePoll(id, 'Bob Builder', 'Late?', { Yes: 0, No: 0 }))], {
    server: refusing('CONFLICT', reason),
  })
  await app.user.click(within(await card('Late?')).getByRole('button', { name: 'Yes' }))
  await app.user.click(confirmIn('Confirm vote', 'Vote'))
  expect(await screen.findByText('Not saved: Failed to perform action')).toBeInTheDocument()
  await waitFor(async () =>
    expect(await app.device.current()!.db.rejections.toArray()).toEqual([
      expect.objectContaining({ name: 'poll.vote', code: 'CONFLICT', message: reason }),
    ]),
  )
  expect(within(await card('Late?')).getByRole('button', { name: 'Yes' })).toBeInTheDocument()
})

test('Create Poll: results at close need a closing time, a past closing time is refused; the settings are queued with the poll', async () => {
  const app = openPolls(() => [])
  await app.user.click(await screen.findByRole('button', { name: 'Create Poll' }))
  const dialog = screen.getByRole('dialog', { name: 'Create Poll' })
  await app.user.type(within(dialog).getByLabelText('Question'), 'Board?')
  await app.user.type(within(dialog).getByLabelText('Option 1'), 'Ada')
  await app.user.type(within(dialog).getByLabelText('Option 2'), 'Bo')
  for (const setting of ['Several choices', 'Results at close', 'Secret ballot'])
    await app.user.click(within(dialog).getByRole('checkbox', { name: setting }))
  const create = within(dialog).getByRole('button', { name: 'Create Poll' })
  await app.user.click(create)
  expect(
    within(dialog).getByText('Results can be hidden until the poll closes: set a closing time'),
  ).toBeInTheDocument()

  const closes = within(dialog).getByLabelText('Closes at (optional)')
  fireEvent.change(closes, { target: { value: '2020-01-01T18:00' } })
  await app.user.click(create)
  expect(within(dialog).getByText('The closing time must be in the future')).toBeInTheDocument()
  expect(mutations(app.device.pushes)).toEqual([])

  const at = new Date(Date.now() + 2 * 86_400_000)
  const pad = (n: number) => String(n).padStart(2, '0')
  fireEvent.change(closes, {
    target: { value: `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T18:00` },
  })
  await app.user.click(create)
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create Poll' })).toBeNull())
  await waitFor(() => expect(mutations(app.device.pushes)).toHaveLength(1))
  expect(mutations(app.device.pushes)[0]).toMatchObject({
    name: 'poll.create',
    args: {
      question: 'Board?',
      options: ['Ada', 'Bo'],
      closes_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00(\.000)?Z$/),
      multiple: true,
      hide_results: true,
      secret: true,
    },
  })
  const poll = await card('Board?')
  for (const tag of ['Several choices', 'Secret ballot', 'Results at close'])
    expect(within(poll).getByText(tag)).toBeInTheDocument()
})
