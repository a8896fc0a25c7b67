import type { Change } from '@buble/sync/protocol'
import { screen, waitFor, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import { json } from '../../test/fake-fetch.ts'
import { alice, bubleChange, makeBuble, makeMember, memberChange } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'
import { makePost, postChange } from '../../test/wall-fixtures.ts'
import { excerpt } from './ticker.tsx'

const buble = makeBuble({ name: 'Garden Club' })
const base: Change[] = [bubleChange(buble), memberChange(buble.id, makeMember(alice, 'owner'))]

const open = (rows: Change[], route = '/bubles/garden-club') =>
  renderApp({
    route,
    user: alice,
    server: { seed: [...base, ...rows] },
    api: { 'GET /api/users/profile': json(200, alice) },
  })

const ticker = () => screen.getByRole('region', { name: 'Latest posts' })

test('with no posts the ticker says so, on every tab', async () => {
  open([], '/bubles/garden-club/members')
  await screen.findByRole('heading', { level: 1, name: 'Garden Club' })
  await waitFor(() =>
    expect(within(ticker()).getByText('No updates yet • Be the first to share something!')).toBeInTheDocument(),
  )
  expect(within(ticker()).getByRole('link', { name: 'View All' })).toHaveAttribute('href', '/bubles/garden-club/wall')
})

test('the ticker shows the newest five posts with author, text and time; View All opens the wall', async () => {
  const app = open([
    ...[1, 2, 3, 4, 5, 6, 7].map((n) => postChange(makePost(buble.id, 'Bob Builder', `Update ${n}`, 60 * n))),
    postChange(makePost(buble.id, 'Carol Chen', 'Line one\nline two', 2)),
  ])
  await waitFor(() => expect(within(ticker()).getAllByRole('listitem')).toHaveLength(5))
  const items = within(ticker()).getAllByRole('listitem')
  expect(items.map((item) => item.querySelector('.ticker-text')?.textContent)).toEqual([
    'Line one line two',
    'Update 1',
    'Update 2',
    'Update 3',
    'Update 4',
  ])
  expect(items[0]).toHaveTextContent('Carol Chen')
  expect(items[0]).toHaveTextContent('2m ago')
  expect(items[1]).toHaveTextContent('1h ago')

  await app.user.click(within(ticker()).getByRole('link', { name: 'View All' }))
  expect(screen.getByRole('link', { name: 'Wall' })).toHaveAttribute('aria-current', 'page')
  expect(await screen.findByRole('region', { name: 'Wall' })).toBeInTheDocument()
})

test('a long post is cut at a word, on one line', () => {
  expect(excerpt('short')).toBe('short')
  expect(excerpt('one two three four five', 16)).toBe('one two three…')
  expect(excerpt('a\n\nb   c')).toBe('a b c')
  expect(excerpt('x'.repeat(20), 10)).toBe(`${'x'.repeat(10)}…`)
})
