import { screen, waitFor, within } from '@testing-library/react'
import { expect, test, vi } from 'vitest'
import { dashboard, healthAnswer, listUrl, PROFILE, root, userRow, usersPage } from '../../test/admin-fixtures.ts'
import { json } from '../../test/fake-fetch.ts'
import { alice } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'

const DASHBOARD = 'GET /api/admin/dashboard'
const HEALTH = 'GET /api/admin/health'

test('a signed-in user who is not an admin sees "Access denied" with a way back, and no Admin link', async () => {
  const app = renderApp({ route: '/admin', user: alice, api: { [PROFILE]: json(200, alice) } })
  expect(await screen.findByText('Access denied. Admin privileges required.')).toBeInTheDocument()
  expect(screen.getByRole('link', { name: 'Back to your bubles' })).toHaveAttribute('href', '/dashboard')
  expect(screen.queryByRole('link', { name: 'Admin' })).toBeNull()
  expect(app.calls.filter((call) => call.url.includes('/admin/'))).toEqual([])
})

test('an admin sees the Admin link and the overview: five totals and the recent users and bubles', async () => {
  renderApp({ route: '/admin', user: root, api: { [PROFILE]: json(200, root), [DASHBOARD]: json(200, dashboard) } })
  expect(screen.getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin')
  const totals = await screen.findByRole('list', { name: 'Totals' })
  expect(
    within(totals)
      .getAllByRole('listitem')
      .map((card) => card.textContent),
  ).toEqual(['Total Users42', 'Total Bubles7', 'Total Events13', 'Total Polls5', 'Active Invites3'])
  const users = screen.getByRole('region', { name: 'Recent Users' })
  expect(within(users).getByText('Bob Builder')).toBeInTheDocument()
  const bubles = screen.getByRole('region', { name: 'Recent Bubles' })
  expect(within(bubles).getByText('Book Club')).toBeInTheDocument()
  expect(screen.getByRole('tab', { name: 'Overview' })).toHaveAttribute('aria-selected', 'true')
  expect(screen.getByRole('tabpanel', { name: 'Overview' })).toBeInTheDocument()
})

test('the tabs form a tablist: click or arrow keys select, only the selected tab is in the Tab order', async () => {
  const app = renderApp({
    route: '/admin',
    user: root,
    api: {
      [PROFILE]: json(200, root),
      [DASHBOARD]: json(200, dashboard),
      [listUrl('users')]: usersPage([userRow(1)]),
      [listUrl('bubles')]: json(200, { bubles: [], pagination: { page: 1, limit: 20, pages: 0, total: 0 } }),
      [listUrl('audit')]: json(200, { audit: [], pagination: { page: 1, limit: 20, pages: 0, total: 0 } }),
      [HEALTH]: json(200, healthAnswer()),
    },
  })
  const tabs = screen.getAllByRole('tab').map((tab) => tab.textContent)
  expect(tabs).toEqual([
    'Overview',
    'Users',
    'Bubles',
    'Events',
    'Polls',
    'Posts',
    'Invites',
    'Reports',
    'System Health',
    'Audit',
  ])
  await app.user.click(screen.getByRole('tab', { name: 'Users' }))
  expect(screen.getByRole('tab', { name: 'Users' })).toHaveAttribute('aria-selected', 'true')
  expect(screen.getByRole('tab', { name: 'Overview' })).toHaveAttribute('tabindex', '-1')
  expect(await screen.findByText('User 1')).toBeInTheDocument()

  await app.user.keyboard('{ArrowRight}')
  expect(screen.getByRole('tab', { name: 'Bubles' })).toHaveFocus()
  expect(screen.getByRole('tab', { name: 'Bubles' })).toHaveAttribute('aria-selected', 'true')
  expect(await screen.findByRole('heading', { name: 'No bubles yet' })).toBeInTheDocument()

  await app.user.keyboard('{End}')
  expect(screen.getByRole('tab', { name: 'Audit' })).toHaveFocus()
  await app.user.keyboard('{ArrowLeft}')
  expect(screen.getByRole('tab', { name: 'System Health' })).toHaveAttribute('aria-selected', 'true')
  const panel = screen.getByRole('tabpanel', { name: 'System Health' })
  expect(await within(panel).findByText('Healthy')).toBeInTheDocument()
  expect(within(panel).getByText(/^Last updated:/)).toBeInTheDocument()
  const counts = within(panel).getByRole('list', { name: 'System counts' })
  expect(
    within(counts)
      .getAllByRole('listitem')
      .map((item) => item.textContent),
  ).toEqual(['Users42', 'Bubles7', 'Events13', 'Polls5', 'Active Invites3', 'Expired Invites2'])
})

test('the tab in the URL is the one shown, so a reload keeps it', async () => {
  renderApp({
    route: '/admin?tab=users',
    user: root,
    api: { [PROFILE]: json(200, root), [listUrl('users')]: usersPage([userRow(1)]) },
  })
  expect(screen.getByRole('tab', { name: 'Users' })).toHaveAttribute('aria-selected', 'true')
  expect(await screen.findByText('User 1')).toBeInTheDocument()
})

test('health with problems reads "Issues" and says why there are no counts', async () => {
  renderApp({
    route: '/admin?tab=health',
    user: root,
    api: {
      [PROFILE]: json(200, root),
      [HEALTH]: json(200, healthAnswer({ status: 'issues', metrics: null })),
    },
  })
  expect(await screen.findByText('Issues')).toBeInTheDocument()
  expect(screen.getByText('The database did not answer, so there are no counts.')).toBeInTheDocument()
})

test('a 401 from an admin call signs the user out and goes to /login', async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  const unauthorized = json(401, { message: 'Token expired', code: 'UNAUTHORIZED' })
  const app = renderApp({
    route: '/admin',
    user: root,
    api: {
      [PROFILE]: json(200, root),
      [DASHBOARD]: unauthorized,
      'POST /api/auth/refresh-token': unauthorized,
    },
  })
  await waitFor(() => expect(app.redirectToLogin).toHaveBeenCalled())
  expect(app.session.getState().isAuthenticated).toBe(false)
  expect(app.session.getState().token).toBeNull()
  expect(screen.queryByText('Token expired')).toBeNull()
})

test('the overview shows the server message when loading fails, else "Failed to load admin data", and retries once', async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  const app = renderApp({
    route: '/admin',
    user: root,
    api: {
      [PROFILE]: json(200, root),
      [DASHBOARD]: [
        new TypeError('offline'),
        new TypeError('offline'),
        json(500, { message: 'Database down', code: 'INTERNAL_ERROR' }),
      ],
    },
  })
  expect(await screen.findByRole('alert')).toHaveTextContent(/^Failed to load admin data$/)
  expect(app.callsTo(DASHBOARD)).toHaveLength(2)
  await app.user.click(screen.getByRole('button', { name: 'Try Again' }))
  expect(await screen.findByText('Database down')).toBeInTheDocument()
})

test('deleting a recent user asks first, then deletes, says so and reloads the overview', async () => {
  const bobId = dashboard.recentUsers[0]!.id
  const app = renderApp({
    route: '/admin',
    user: root,
    api: {
      [PROFILE]: json(200, root),
      [DASHBOARD]: [json(200, dashboard), json(200, { ...dashboard, recentUsers: [] })],
      [`DELETE /api/admin/users/${bobId}`]: json(204, undefined),
    },
  })
  await app.user.click(await screen.findByRole('button', { name: 'Delete user Bob Builder' }))
  const dialog = screen.getByRole('dialog', { name: 'Delete User' })
  expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus()
  await app.user.click(within(dialog).getByRole('button', { name: 'Delete' }))
  expect(await screen.findByText('User deleted successfully')).toBeInTheDocument()
  expect(app.callsTo(`DELETE /api/admin/users/${bobId}`)).toHaveLength(1)
  expect(await screen.findByText('No users yet.')).toBeInTheDocument()
})
