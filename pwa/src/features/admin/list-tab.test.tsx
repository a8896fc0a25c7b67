import { act, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { listUrl, PROFILE, pagination, pollRow, postRow, root, userRow, usersPage } from '../../test/admin-fixtures.ts'
import { type FetchCall, json } from '../../test/fake-fetch.ts'
import { renderApp } from '../../test/render-app.tsx'
import { csvFileName } from './admin-api.ts'

const signedInAt = (route: string, api: Parameters<typeof renderApp>[0]['api']) =>
  renderApp({ route, user: root, api: { [PROFILE]: json(200, root), ...api } })

const firstPage = Array.from({ length: 20 }, (_, i) => userRow(i + 1))
const secondPage = [userRow(21), userRow(22)]

test('paging reads "Showing page X of Y (N total items)"; Previous and Next are disabled at the ends', async () => {
  const app = signedInAt('/admin?tab=users', {
    [listUrl('users', 1)]: usersPage(firstPage, 1, 2, 22),
    [listUrl('users', 2)]: usersPage(secondPage, 2, 2, 22),
  })
  expect(await screen.findByText('Showing page 1 of 2 (22 total items)')).toBeInTheDocument()
  const table = screen.getByRole('region', { name: 'Users' })
  expect(within(table).getAllByRole('row')).toHaveLength(21)
  expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled()
  await app.user.click(screen.getByRole('button', { name: 'Next' }))
  expect(await screen.findByText('Showing page 2 of 2 (22 total items)')).toBeInTheDocument()
  expect(await screen.findByText('User 22')).toBeInTheDocument()
  expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled()
  await app.user.click(screen.getByRole('button', { name: 'Previous' }))
  expect(await screen.findByText('Showing page 1 of 2 (22 total items)')).toBeInTheDocument()
})

test('the search waits for typing to pause, asks the server once and starts again at page 1', async () => {
  const app = signedInAt('/admin?tab=users', {
    [listUrl('users', 1)]: usersPage(firstPage, 1, 2, 22),
    [listUrl('users', 2)]: usersPage(secondPage, 2, 2, 22),
    [listUrl('users', 1, 'user 2')]: usersPage([userRow(2), userRow(20), userRow(21), userRow(22)], 1, 1, 4),
  })
  await app.user.click(await screen.findByRole('button', { name: 'Next' }))
  expect(await screen.findByText('Showing page 2 of 2 (22 total items)')).toBeInTheDocument()
  await app.user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'user 2')
  expect(await screen.findByText('Showing page 1 of 1 (4 total items)')).toBeInTheDocument()
  expect(app.callsTo(listUrl('users', 1, 'user 2'))).toHaveLength(1)
  // No call for the half-typed words.
  expect(app.calls.filter((call) => call.url.includes('search=u&') || call.url.endsWith('search=u'))).toEqual([])
  expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled()
})

test('an empty table says so; a search with no match says nothing matches', async () => {
  const app = signedInAt('/admin?tab=posts', {
    [listUrl('posts')]: json(200, { posts: [], pagination: pagination(1, 0, 0) }),
    [listUrl('posts', 1, 'zzz')]: json(200, { posts: [], pagination: pagination(1, 0, 0) }),
  })
  expect(await screen.findByRole('heading', { name: 'No posts yet' })).toBeInTheDocument()
  expect(screen.getByText('Showing page 1 of 1 (0 total items)')).toBeInTheDocument()
  expect(screen.queryByRole('button', { name: 'Add New' })).toBeNull()
  await app.user.type(screen.getByRole('searchbox', { name: 'Search posts' }), 'zzz')
  expect(await screen.findByRole('heading', { name: 'No matches' })).toBeInTheDocument()
})

describeExport()

function describeExport() {
  let created: Blob[] = []
  let clicked: { download: string; href: string }[] = []
  beforeEach(() => {
    created = []
    clicked = []
    Object.assign(URL, {
      createObjectURL: (blob: Blob) => {
        created.push(blob)
        return `blob:csv-${created.length}`
      },
      revokeObjectURL: () => {},
    })
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ download: this.download, href: this.href })
    })
  })
  afterEach(() => {
    Object.assign(URL, { createObjectURL: undefined, revokeObjectURL: undefined })
  })

  test('Export CSV fetches the CSV with the token and downloads it as <tab>-YYYY-MM-DD.csv', async () => {
    const csv = 'name,email,role\nUser 1,user1@example.com,user\n'
    const app = signedInAt('/admin?tab=users', {
      [listUrl('users')]: usersPage([userRow(1)]),
      'GET /api/admin/users/export.csv?search=': new Response(csv, { headers: { 'Content-Type': 'text/csv' } }),
    })
    await screen.findByText('User 1')
    await app.user.click(screen.getByRole('button', { name: 'Export CSV' }))
    await waitFor(() => expect(clicked).toHaveLength(1))
    const today = new Date()
    const name = `users-${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}.csv`
    expect(clicked[0]!.download).toBe(name)
    expect(csvFileName('users', today)).toBe(name)
    expect(await created[0]!.text()).toBe(csv)
    const call = app.callsTo('GET /api/admin/users/export.csv?search=')[0] as FetchCall
    expect(call.headers.Authorization).toBe('Bearer token-1')
  })

  test('the export carries the current search, and a failure shows the server message', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const app = signedInAt('/admin?tab=events', {
      [listUrl('events')]: json(200, { events: [], pagination: pagination(1, 0, 0) }),
      [listUrl('events', 1, 'picnic')]: json(200, { events: [], pagination: pagination(1, 0, 0) }),
      'GET /api/admin/events/export.csv?search=picnic': json(500, { message: 'Export broke', code: 'INTERNAL_ERROR' }),
    })
    await app.user.type(await screen.findByRole('searchbox', { name: 'Search events' }), 'picnic')
    await screen.findByRole('heading', { name: 'No matches' })
    await app.user.click(screen.getByRole('button', { name: 'Export CSV' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Export broke')
    expect(clicked).toEqual([])
  })
}

test('editing an admin warns that admin permissions affect system access; a plain user gets no warning', async () => {
  const boss = userRow(1, { name: 'Boss Admin', role: 'admin' })
  const plain = userRow(2)
  const app = signedInAt('/admin?tab=users', {
    [listUrl('users')]: [usersPage([boss, plain]), usersPage([{ ...boss, name: 'Boss Renamed' }, plain])],
    [`PUT /api/admin/users/${boss.id}`]: json(200, { ...boss, name: 'Boss Renamed' }),
  })
  await app.user.click(await screen.findByRole('button', { name: 'Edit user User 2' }))
  expect(within(screen.getByRole('dialog', { name: 'Edit User' })).queryByRole('note')).toBeNull()
  await app.user.click(screen.getByRole('button', { name: 'Cancel' }))

  await app.user.click(screen.getByRole('button', { name: 'Edit user Boss Admin' }))
  const dialog = screen.getByRole('dialog', { name: 'Edit User' })
  expect(within(dialog).getByRole('note')).toHaveTextContent('Changing admin permissions can affect system access')
  expect(within(dialog).getByLabelText('Role')).toHaveValue('admin')
  const name = within(dialog).getByLabelText('Name')
  await app.user.clear(name)
  await app.user.type(name, 'Boss Renamed')
  await app.user.click(within(dialog).getByRole('button', { name: 'Save Changes' }))
  expect(await screen.findByText('User updated successfully')).toBeInTheDocument()
  expect(app.callsTo(`PUT /api/admin/users/${boss.id}`)[0]?.body).toEqual({
    name: 'Boss Renamed',
    email: boss.email,
    role: 'admin',
  })
  expect(await screen.findByText('Boss Renamed')).toBeInTheDocument()
})

test('a failed user update shows the server message, else "Failed to update user"', async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  const user = userRow(3)
  const app = signedInAt('/admin?tab=users', {
    [listUrl('users')]: usersPage([user]),
    [`PUT /api/admin/users/${user.id}`]: [
      json(409, { message: 'Email already registered', code: 'CONFLICT' }),
      new TypeError('offline'),
    ],
  })
  await app.user.click(await screen.findByRole('button', { name: 'Edit user User 3' }))
  const dialog = screen.getByRole('dialog', { name: 'Edit User' })
  await app.user.click(within(dialog).getByRole('button', { name: 'Save Changes' }))
  expect(await within(dialog).findByRole('alert')).toHaveTextContent(/^Email already registered$/)
  await app.user.click(within(dialog).getByRole('button', { name: 'Save Changes' }))
  await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent(/^Failed to update user$/))
})

test('reset password: at least 6 characters, then reset; a sent reset e-mail shows the temporary password', async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  const user = userRow(4)
  const app = signedInAt('/admin?tab=users', {
    [listUrl('users')]: usersPage([user]),
    [`POST /api/admin/users/${user.id}/reset-password`]: json(200, { message: 'Password reset' }),
    [`POST /api/admin/users/${user.id}/send-reset-email`]: [
      new TypeError('offline'),
      json(200, { message: 'Reset email sent', temporaryPassword: 'Tmp-Pass-12345' }),
    ],
  })
  await app.user.click(await screen.findByRole('button', { name: 'Reset Password for user User 4' }))
  let dialog = screen.getByRole('dialog', { name: 'Reset Password' })
  await app.user.type(within(dialog).getByLabelText('New password'), 'abc')
  await app.user.click(within(dialog).getByRole('button', { name: 'Reset Password' }))
  expect(within(dialog).getByText('Password must be at least 6 characters')).toBeInTheDocument()
  expect(app.callsTo(`POST /api/admin/users/${user.id}/reset-password`)).toEqual([])

  await app.user.click(within(dialog).getByRole('button', { name: 'Send Reset Email' }))
  expect(await within(dialog).findByRole('alert')).toHaveTextContent(/^Failed to send reset email$/)
  await app.user.click(within(dialog).getByRole('button', { name: 'Send Reset Email' }))
  expect(await within(dialog).findByRole('status')).toHaveTextContent(
    'Password reset email sent to user4@example.com. Temporary password: Tmp-Pass-12345',
  )

  await app.user.type(within(dialog).getByLabelText('New password'), 'defghi')
  await app.user.click(within(dialog).getByRole('button', { name: 'Reset Password' }))
  // Confirmed in the dialog, where the admin is looking: what happened, and to whom.
  await waitFor(() =>
    expect(within(dialog).getByRole('status')).toHaveTextContent(
      'Password reset successfully. User 4 is signed out everywhere and signs in with the new password',
    ),
  )
  expect(within(dialog).getByLabelText('New password')).toHaveValue('')
  expect(app.callsTo(`POST /api/admin/users/${user.id}/reset-password`)[0]?.body).toEqual({ newPassword: 'abcdefghi' })
  await app.user.click(within(dialog).getByRole('button', { name: 'Close' }))
  expect(screen.queryByRole('dialog')).toBeNull()

  await app.user.click(screen.getByRole('button', { name: 'Reset Password for user User 4' }))
  dialog = screen.getByRole('dialog', { name: 'Reset Password' })
  expect(within(dialog).queryByRole('status')).toBeNull()
})

test('a failed reset shows "Failed to reset password"', async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  const user = userRow(5)
  const app = signedInAt('/admin?tab=users', {
    [listUrl('users')]: usersPage([user]),
    [`POST /api/admin/users/${user.id}/reset-password`]: new TypeError('offline'),
  })
  await app.user.click(await screen.findByRole('button', { name: 'Reset Password for user User 5' }))
  const dialog = screen.getByRole('dialog', { name: 'Reset Password' })
  await app.user.type(within(dialog).getByLabelText('New password'), 'secret1')
  await app.user.click(within(dialog).getByRole('button', { name: 'Reset Password' }))
  expect(await within(dialog).findByRole('alert')).toHaveTextContent(/^Failed to reset password$/)
})

test('delete asks for confirmation: Cancel keeps the row, Delete removes it; a failure says "Failed to delete {type}"', async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  const poll = pollRow(1, { question: 'Pizza or pasta?' })
  const app = signedInAt('/admin?tab=polls', {
    [listUrl('polls')]: [
      json(200, { polls: [poll], pagination: pagination(1, 1, 1) }),
      json(200, { polls: [], pagination: pagination(1, 0, 0) }),
    ],
    [`DELETE /api/admin/polls/${poll.id}`]: [new TypeError('offline'), json(204, undefined)],
  })
  await app.user.click(await screen.findByRole('button', { name: 'Delete poll Pizza or pasta?' }))
  let dialog = screen.getByRole('dialog', { name: 'Delete Poll' })
  await app.user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
  expect(screen.queryByRole('dialog')).toBeNull()
  expect(app.callsTo(`DELETE /api/admin/polls/${poll.id}`)).toEqual([])

  await app.user.click(screen.getByRole('button', { name: 'Delete poll Pizza or pasta?' }))
  dialog = screen.getByRole('dialog', { name: 'Delete Poll' })
  await app.user.click(within(dialog).getByRole('button', { name: 'Delete' }))
  expect(await within(dialog).findByRole('alert')).toHaveTextContent(/^Failed to delete poll$/)
  await app.user.click(within(dialog).getByRole('button', { name: 'Delete' }))
  expect(await screen.findByText('Poll deleted successfully')).toBeInTheDocument()
  expect(await screen.findByRole('heading', { name: 'No polls yet' })).toBeInTheDocument()
})

test('the success message clears itself after 3 seconds', async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true })
  const post = postRow(1, { content: 'Hello world' })
  const app = renderApp({
    route: '/admin?tab=posts',
    user: root,
    advanceTimers: vi.advanceTimersByTime,
    api: {
      [PROFILE]: json(200, root),
      [listUrl('posts')]: json(200, { posts: [post], pagination: pagination(1, 1, 1) }),
      [`DELETE /api/admin/posts/${post.id}`]: json(204, undefined),
    },
  })
  expect(await screen.findByRole('button', { name: 'View post Hello world' })).toBeInTheDocument()
  expect(screen.queryByRole('button', { name: /^Edit/ })).toBeNull()
  await app.user.click(screen.getByRole('button', { name: 'Delete post Hello world' }))
  await app.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }))
  expect(await screen.findByText('Post deleted successfully')).toBeInTheDocument()
  await act(() => vi.advanceTimersByTimeAsync(3000))
  expect(screen.queryByText('Post deleted successfully')).toBeNull()
})

test('a list that fails to load says "Failed to load {tab}", or the server message', async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  const app = signedInAt('/admin?tab=invites', {
    [listUrl('invites')]: [
      new TypeError('offline'),
      new TypeError('offline'),
      json(403, { message: 'Admins only', code: 'FORBIDDEN' }),
    ],
  })
  expect(await screen.findByRole('alert')).toHaveTextContent(/^Failed to load invites$/)
  await app.user.click(screen.getByRole('button', { name: 'Try Again' }))
  expect(await screen.findByText('Admins only')).toBeInTheDocument()
  // A refusal is not retried.
  expect(app.callsTo(listUrl('invites'))).toHaveLength(3)
})

test('deleting the only row of the last page steps back to the page that is now the last', async () => {
  const lone = userRow(21)
  const app = signedInAt('/admin?tab=users', {
    [listUrl('users', 1)]: [usersPage(firstPage, 1, 2, 21), usersPage(firstPage, 1, 1, 20)],
    [listUrl('users', 2)]: [usersPage([lone], 2, 2, 21), usersPage([], 2, 1, 20)],
    [`DELETE /api/admin/users/${lone.id}`]: json(204, undefined),
  })
  await app.user.click(await screen.findByRole('button', { name: 'Next' }))
  await app.user.click(await screen.findByRole('button', { name: 'Delete user User 21' }))
  await app.user.click(
    within(screen.getByRole('dialog', { name: 'Delete User' })).getByRole('button', { name: 'Delete' }),
  )
  expect(await screen.findByText('User 20')).toBeInTheDocument()
  expect(screen.getByText('Showing page 1 of 1 (20 total items)')).toBeInTheDocument()
  expect(app.callsTo(listUrl('users', 1))).toHaveLength(2)
})
