import type { PushResponse } from '@buble/sync/protocol'
import { act, screen, waitFor, within } from '@testing-library/react'
import { expect, test, vi } from 'vitest'
import { chooseBubleAction } from '../../test/buble-menu.ts'
import { bubleServer } from '../../test/buble-server.ts'
import { deferred } from '../../test/deferred.ts'
import { json } from '../../test/fake-fetch.ts'
import { alice, bubleChange, makeBuble } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'

const PROFILE = 'GET /api/users/profile'

test('once synced the header says "Synced"; the details show the last sync, nothing waiting, and Sync now pulls', async () => {
  const server = bubleServer()
  const app = renderApp({ route: '/dashboard', user: alice, server, api: { [PROFILE]: json(200, alice) } })
  await app.user.click(await screen.findByRole('button', { name: 'Synced' }))
  const dialog = screen.getByRole('dialog', { name: 'Sync status' })
  expect(within(dialog).getByText('Everything made on this device is saved on the server.')).toBeInTheDocument()
  const lastSynced = within(dialog).getByText('Last synced').nextElementSibling
  expect(lastSynced?.textContent).toMatch(/^\d{1,2} \w{3,4} \d{4}, \d\d:\d\d$/)
  expect(within(dialog).getByText('Waiting to be sent').nextElementSibling).toHaveTextContent('0 changes')
  expect(within(dialog).getByText('The server has accepted every change made here.')).toBeInTheDocument()

  const pulls = server.pulls
  await app.user.click(within(dialog).getByRole('button', { name: 'Sync now' }))
  await waitFor(() => expect(server.pulls).toBe(pulls + 1))
})

test('offline, changes made here are counted: "Offline · 1 pending", and Sync now waits for a connection', async () => {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)
  const crew = makeBuble({ name: 'Climbing Crew' })
  const app = renderApp({
    route: '/dashboard',
    user: alice,
    server: { seed: [bubleChange(crew)], push: () => deferred<PushResponse>().promise },
  })
  expect(await screen.findByRole('button', { name: 'Offline' })).toBeInTheDocument()
  await app.user.click(await screen.findByRole('button', { name: 'Create New Buble' }))
  await app.user.type(screen.getByLabelText('Buble Name'), 'Book Club')
  await app.user.click(screen.getByRole('button', { name: 'Create Buble' }))
  expect(await screen.findByRole('heading', { level: 1, name: 'Book Club' })).toBeInTheDocument()

  await app.user.click(await screen.findByRole('button', { name: 'Offline · 1 pending' }))
  const dialog = screen.getByRole('dialog', { name: 'Sync status' })
  expect(within(dialog).getByText(/^You are offline\./)).toBeInTheDocument()
  expect(within(dialog).getByText('Waiting to be sent').nextElementSibling).toHaveTextContent('1 change')
  expect(within(dialog).getByRole('button', { name: 'Sync now' })).toBeDisabled()
})

test('a refused delete brings the buble back, says so at once, and the details keep it until discarded', async () => {
  const club = makeBuble({ name: 'Book Club' })
  const server = bubleServer([bubleChange(club)], (mutation) =>
    mutation.name === 'buble.delete' ? { code: 'FORBIDDEN', message: 'Only the owner can delete this Buble' } : null,
  )
  const app = renderApp({ route: '/bubles/book-club', user: alice, server, api: { [PROFILE]: json(200, alice) } })
  await chooseBubleAction(app.user, 'Delete Buble')
  await app.user.click(
    within(screen.getByRole('dialog', { name: 'Delete Buble' })).getByRole('button', { name: 'Delete Buble' }),
  )
  expect(await screen.findByRole('heading', { level: 1, name: 'Your Bubles' })).toBeInTheDocument()

  const toast = await screen.findByRole('alert')
  expect(within(toast).getByText('Not saved: Failed to delete Buble')).toBeInTheDocument()
  expect(await screen.findByRole('link', { name: 'Book Club' })).toBeInTheDocument()
  expect(await screen.findByRole('button', { name: 'Synced 1 not saved' })).toBeInTheDocument()

  await app.user.click(within(toast).getByRole('button', { name: 'Details' }))
  expect(screen.queryByRole('alert')).toBeNull()
  const dialog = screen.getByRole('dialog', { name: 'Sync status' })
  const item = within(dialog).getByRole('listitem', { name: 'Failed to delete Buble' })
  expect(within(item).getByText('Only the owner can delete this Buble')).toBeInTheDocument()
  expect(within(item).queryByRole('button', { name: 'Copy text' })).toBeNull()

  // From the keyboard: focus stays in the dialog once the item has gone.
  within(item).getByRole('button', { name: 'Discard' }).focus()
  await app.user.keyboard('{Enter}')
  await waitFor(() => expect(within(dialog).queryByRole('listitem')).toBeNull())
  expect(within(dialog).getByRole('heading', { name: 'Not saved' })).toHaveFocus()
  expect(within(dialog).getByText('The server has accepted every change made here.')).toBeInTheDocument()
  expect(await screen.findByRole('button', { name: 'Synced' })).toBeInTheDocument()
  expect(await app.device.current()!.db.rejections.count()).toBe(0)
})

test('a refused create keeps the name typed, selectable and copyable, under its headline and the server message', async () => {
  const app = renderApp({ route: '/dashboard', user: alice, api: { [PROFILE]: json(200, alice) } })
  await screen.findByRole('button', { name: 'Synced' })
  // As the engine stores a refusal: the buble is already rolled back, what was typed stays here.
  await act(() =>
    app.device.current()!.db.rejections.put({
      id: '0190f5b4-3000-7000-8000-000000000001',
      name: 'buble.create',
      args: { id: '0190f5b4-1000-7000-8000-0000000000ff', name: 'Book Club' },
      code: 'VALIDATION_ERROR',
      message: 'Buble name must not contain control characters',
      at: '2026-11-23T10:05:00.000Z',
    }),
  )
  expect(await screen.findByText('Not saved: Failed to create Buble. Please try again.')).toBeInTheDocument()

  await app.user.click(await screen.findByRole('button', { name: 'Synced 1 not saved' }))
  expect(screen.queryByRole('alert')).toBeNull()
  const item = within(screen.getByRole('dialog', { name: 'Sync status' })).getByRole('listitem', {
    name: 'Failed to create Buble. Please try again.',
  })
  expect(within(item).getByText('Buble name must not contain control characters')).toBeInTheDocument()
  expect(within(item).getByText('Book Club')).toHaveClass('kept-text')

  const writeText = vi.spyOn(navigator.clipboard, 'writeText')
  await app.user.click(within(item).getByRole('button', { name: 'Copy text' }))
  expect(writeText).toHaveBeenCalledWith('Book Club')
  expect(await within(item).findByRole('button', { name: 'Copied!' })).toBeInTheDocument()

  // Copied: it may go. Nothing is sent, and the buble stays undone.
  await app.user.click(within(item).getByRole('button', { name: 'Discard' }))
  await waitFor(async () => expect(await app.device.current()!.db.rejections.count()).toBe(0))
  expect(app.device.pushes).toHaveLength(0)
  expect(await app.device.current()!.db.bubles.count()).toBe(0)
})

const REFUSED_ID = '0190f5b4-3000-7000-8000-000000000002'
const BOOK_CLUB_ID = '0190f5b4-1000-7000-8000-0000000000fe'

test('a change the server failed alone says so; Retry sends it again as a new change, shown here at once', async () => {
  const server = bubleServer()
  const app = renderApp({ route: '/dashboard', user: alice, server, api: { [PROFILE]: json(200, alice) } })
  await screen.findByRole('button', { name: 'Synced' })
  // As the engine stores a mutation the server failed with alone (INTERNAL): rolled back, its text kept.
  await act(() =>
    app.device.current()!.db.rejections.put({
      id: REFUSED_ID,
      name: 'buble.create',
      args: { id: BOOK_CLUB_ID, name: 'Book Club' },
      code: 'INTERNAL',
      message: 'Something went wrong on the server',
      at: '2026-11-23T10:05:00.000Z',
    }),
  )
  await app.user.click(await screen.findByRole('button', { name: 'Synced 1 not saved' }))
  const dialog = screen.getByRole('dialog', { name: 'Sync status' })
  const item = within(dialog).getByRole('listitem', { name: 'Failed to create Buble. Please try again.' })
  expect(within(item).getByText('The server failed to save this change.')).toBeInTheDocument()
  expect(within(item).queryByText('Something went wrong on the server')).toBeNull()
  expect(within(item).getByText('Book Club')).toHaveClass('kept-text')

  await app.user.click(within(item).getByRole('button', { name: 'Retry' }))
  await waitFor(() => expect(within(dialog).queryByRole('listitem')).toBeNull())
  expect(within(dialog).getByRole('heading', { name: 'Not saved' })).toHaveFocus()
  // Sent again as it was, under a new mutation id; the server takes it and the buble is here.
  await waitFor(() => expect(app.device.pushes).toHaveLength(1))
  const [sent] = app.device.pushes[0]!.mutations
  expect(sent).toMatchObject({ name: 'buble.create', args: { id: BOOK_CLUB_ID, name: 'Book Club' } })
  expect(sent!.id).not.toBe(REFUSED_ID)
  await waitFor(async () =>
    expect(await app.device.current()!.db.bubles.get(BOOK_CLUB_ID)).toMatchObject({ name: 'Book Club' }),
  )
  expect(await screen.findByRole('button', { name: 'Synced' })).toBeInTheDocument()
})

test('a change refused for coming too often says when it may go again, and Retry waits until then', async () => {
  const app = renderApp({ route: '/dashboard', user: alice, api: { [PROFILE]: json(200, alice) } })
  await screen.findByRole('button', { name: 'Synced' })
  // A moment just ahead, so the test sees the time come (a bounded wait, not a measured one).
  const retryAt = new Date(Date.now() + 1500).toISOString()
  await act(() =>
    app.device.current()!.db.rejections.put({
      id: REFUSED_ID,
      name: 'buble.create',
      args: { id: BOOK_CLUB_ID, name: 'Book Club' },
      code: 'RATE_LIMITED',
      message: 'Too many requests, please slow down',
      at: new Date().toISOString(),
      retryAt,
    }),
  )
  await app.user.click(await screen.findByRole('button', { name: 'Synced 1 not saved' }))
  const item = within(screen.getByRole('dialog', { name: 'Sync status' })).getByRole('listitem')
  expect(within(item).getByText('Too many requests, please slow down')).toBeInTheDocument()
  const local = new Date(retryAt)
  const two = (n: number) => String(n).padStart(2, '0')
  const retry = within(item).getByRole('button', { name: 'Retry' })
  // 'at 14:05', or 'on 24 Nov 2026, 14:05' across midnight: the device clock's time ends it either way.
  const wait = within(item).getByText(/^You can try again (at|on) /)
  expect(wait).toHaveTextContent(new RegExp(` ${two(local.getHours())}:${two(local.getMinutes())}\\.$`))
  expect(retry).toBeDisabled()
  expect(retry).toHaveAccessibleDescription(wait.textContent ?? '')
  expect(within(item).getByRole('button', { name: 'Discard' })).toBeEnabled()

  await waitFor(() => expect(retry).toBeEnabled())
  expect(within(item).queryByText(/You can try again/)).toBeNull()
  await app.user.click(retry)
  await waitFor(() => expect(app.device.pushes).toHaveLength(1))
  expect(app.device.pushes[0]!.mutations[0]).toMatchObject({ args: { name: 'Book Club' } })
})
