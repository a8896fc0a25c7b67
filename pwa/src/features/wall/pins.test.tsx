import type { Change, PushBody } from '@buble/sync/protocol'
import { screen, waitFor, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import { json } from '../../test/fake-fetch.ts'
import { alice, bob, bubleChange, makeBuble, makeMember, memberChange } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'
import { makePost, postChange } from '../../test/wall-fixtures.ts'

const buble = makeBuble({ name: 'Book Club' })

function openWall(rows: Change[], aliceAs: 'owner' | 'member' = 'owner', route = '/bubles/book-club/wall') {
  return renderApp({
    route,
    user: alice,
    server: {
      // A server that never answers a push: what the screen shows comes from the device alone.
      push: () => new Promise(() => {}),
      seed: [
        bubleChange(buble),
        memberChange(buble.id, makeMember(alice, aliceAs)),
        memberChange(buble.id, makeMember(bob, 'member')),
        ...rows,
      ],
    },
    api: { 'GET /api/users/profile': json(200, alice) },
  })
}

const pinnedTexts = () =>
  within(screen.getByRole('list', { name: 'Pinned posts' }))
    .getAllByRole('article')
    .map((post) => post.querySelector('.post-content')?.textContent)
const postTexts = () =>
  within(screen.getByRole('list', { name: 'Posts' }))
    .getAllByRole('article')
    .map((post) => post.querySelector('.post-content')?.textContent)
const names = (pushes: PushBody[]) => pushes.flatMap((push) => push.mutations.map((m) => [m.name, m.args]))

test('pinned posts lead the wall, the newest pin first, marked and not repeated below', async () => {
  openWall([
    postChange(makePost(buble.id, 'Bob Builder', 'Newest', 1)),
    postChange(makePost(buble.id, 'Bob Builder', 'Rules', 30, { pinned_at: '2026-11-20T10:00:00.000Z' })),
    postChange(makePost(buble.id, 'Bob Builder', 'Meeting place', 20, { pinned_at: '2026-11-21T10:00:00.000Z' })),
    postChange(makePost(buble.id, 'Bob Builder', 'Oldest', 60)),
  ])
  await waitFor(() => expect(pinnedTexts()).toEqual(['Meeting place', 'Rules']))
  await waitFor(() => expect(postTexts()).toEqual(['Newest', 'Oldest']))
  const pinned = within(screen.getByRole('list', { name: 'Pinned posts' })).getAllByRole('article')
  expect(within(pinned[0]!).getByText('Pinned')).toBeInTheDocument()
})

test('the owner pins a post at once and queues post.pin; a fourth pin is refused on the device', async () => {
  const posts = ['One', 'Two', 'Three', 'Four'].map((text, i) => makePost(buble.id, 'Bob Builder', text, 10 - i))
  const app = openWall(posts.map(postChange))
  await waitFor(() => expect(postTexts()).toEqual(['Four', 'Three', 'Two', 'One']))
  for (const text of ['One', 'Two', 'Three']) {
    const card = screen.getAllByRole('article').find((post) => post.textContent?.includes(text))!
    await app.user.click(within(card).getByRole('button', { name: 'Pin to top' }))
  }
  await waitFor(() => expect(pinnedTexts()).toEqual(['Three', 'Two', 'One']))
  await waitFor(() => expect(postTexts()).toEqual(['Four']))
  const four = within(screen.getByRole('list', { name: 'Posts' })).getByRole('article')
  await app.user.click(within(four).getByRole('button', { name: 'Pin to top' }))
  expect(within(four).getByRole('alert')).toHaveTextContent('Only 3 posts can be pinned. Unpin one first.')
  // Queued in order and sent (the first push holds what was queued by then; the server here never answers).
  await waitFor(() => expect(names(app.device.pushes)[0]).toEqual(['post.pin', { id: posts[0]!.id }]))
  expect(names(app.device.pushes).every(([name]) => name === 'post.pin')).toBe(true)
  expect(pinnedTexts()).toEqual(['Three', 'Two', 'One'])

  const three = screen.getAllByRole('article').find((post) => post.textContent?.includes('Three'))!
  await app.user.click(within(three).getByRole('button', { name: 'Unpin' }))
  await waitFor(() => expect(pinnedTexts()).toEqual(['Two', 'One']))
  await waitFor(() => expect(postTexts()).toEqual(['Four', 'Three']))
})

test('a plain member sees the pins but no Pin button; the overview lists the pinned posts', async () => {
  openWall(
    [
      postChange(makePost(buble.id, 'Bob Builder', 'Rules', 30, { pinned_at: '2026-11-20T10:00:00.000Z' })),
      postChange(makePost(buble.id, 'Bob Builder', 'Chatter', 5)),
    ],
    'member',
    '/bubles/book-club',
  )
  const summary = await screen.findByRole('region', { name: 'Pinned posts' })
  expect(within(summary).getByRole('link', { name: /Bob Builder\s*Rules/ })).toHaveAttribute(
    'href',
    '/bubles/book-club/wall',
  )
  expect(within(summary).queryByText('Chatter')).toBeNull()
  await screen.findByRole('link', { name: 'Wall' })
  screen.getByRole('link', { name: 'Wall' }).click()
  await waitFor(() => expect(pinnedTexts()).toEqual(['Rules']))
  expect(screen.queryByRole('button', { name: 'Pin to top' })).toBeNull()
  expect(screen.queryByRole('button', { name: 'Unpin' })).toBeNull()
})
