import { screen, within } from '@testing-library/react'
import { expect, test, vi } from 'vitest'
import { json } from '../../test/fake-fetch.ts'
import { alice, aliceCalendar, aliceProfile, aliceSessions } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'

const PROFILE = 'GET /api/users/profile'

const down = json(500, { message: 'Database down', code: 'INTERNAL_ERROR' })

// The Calendar and Passkeys sections' own loads, so that their alerts stay out of the form's.
const CALENDAR = {
  'GET /api/users/calendar': () => json(200, aliceCalendar),
  'GET /api/users/sessions': () => json(200, aliceSessions),
  'GET /api/users/passkeys': () => json(200, { passkeys: [], has_password: true }),
}

test('a load failure shows "Failed to Load Profile" and Try Again loads it', async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  const app = renderApp({
    route: '/profile',
    user: alice,
    // Two failures: one for the header's user refresh (which stays quiet), one for the screen.
    api: { [PROFILE]: [down, down, json(200, aliceProfile)] },
  })
  expect(await screen.findByRole('heading', { name: 'Failed to Load Profile' })).toBeInTheDocument()
  expect(screen.getByText('Database down')).toBeInTheDocument()
  await app.user.click(screen.getByRole('button', { name: 'Try Again' }))
  expect(await screen.findByRole('heading', { name: 'Alice Example' })).toBeInTheDocument()
})

test('a load failure without a server message says "Failed to load profile"', async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  renderApp({ route: '/profile', user: alice, api: { [PROFILE]: new TypeError('offline') } })
  expect(await screen.findByRole('heading', { name: 'Failed to Load Profile' })).toBeInTheDocument()
  expect(screen.getByText('Failed to load profile')).toBeInTheDocument()
})

test('shows initials, name, email that cannot change, bio, member since, id and the role label', async () => {
  renderApp({
    route: '/profile',
    user: alice,
    api: { [PROFILE]: json(200, { ...aliceProfile, bio: 'Climber and baker', role: 'admin' }) },
  })
  const card = await screen.findByRole('region', { name: 'Your profile' })
  expect(within(card).getByText('AE')).toBeInTheDocument()
  expect(within(card).getByText('alice@example.com')).toBeInTheDocument()
  expect(within(card).getByText('Your email address cannot be changed.')).toBeInTheDocument()
  expect(within(card).getByText('Climber and baker')).toBeInTheDocument()
  expect(
    within(card).getByText(new Date(alice.created_at).toLocaleDateString(undefined, { dateStyle: 'long' })),
  ).toBeInTheDocument()
  expect(within(card).getByText(alice.id)).toBeInTheDocument()
  expect(within(card).getByText('Administrator')).toBeInTheDocument()
  expect(screen.getByRole('link', { name: 'Admin' })).toBeInTheDocument()
})

test('editing refuses a one-letter name, then saves name and bio', async () => {
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: {
      [PROFILE]: json(200, aliceProfile),
      'PUT /api/users/profile': json(200, { ...alice, name: 'Alice B', bio: 'Hello' }),
      ...CALENDAR,
    },
  })
  expect(await screen.findByText('Regular User')).toBeInTheDocument()
  await app.user.click(screen.getByRole('button', { name: 'Edit Profile' }))
  const name = screen.getByLabelText('Display name')
  await app.user.clear(name)
  await app.user.type(name, 'A')
  await app.user.click(screen.getByRole('button', { name: 'Save changes' }))
  expect(screen.getByRole('alert')).toHaveTextContent('Name must be at least 2 characters')
  await app.user.type(name, 'lice B')
  await app.user.type(screen.getByLabelText('Bio'), 'Hello')
  await app.user.click(screen.getByRole('button', { name: 'Save changes' }))
  expect(await screen.findByText('Profile updated successfully')).toBeInTheDocument()
  expect(app.callsTo('PUT /api/users/profile')[0]?.body).toEqual({ name: 'Alice B', bio: 'Hello' })
  expect(screen.getByText('Welcome,').parentElement).toHaveTextContent('Alice B')
})

test('a new photo shows in the header as soon as the profile is saved with it', async () => {
  const url = '/api/uploads/secure/alice-new.webp'
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: {
      [PROFILE]: json(200, aliceProfile),
      'POST /api/uploads/avatar': json(200, { url }),
      'PUT /api/users/profile': json(200, { ...alice, avatar_url: url }),
      [`GET ${url}`]: () => new Response('webp'),
    },
  })
  const header = screen.getByRole('banner')
  expect(within(header).queryByRole('img')).toBeNull()
  expect(within(header).getByText('AE')).toBeInTheDocument()
  await app.user.click(await screen.findByRole('button', { name: 'Edit Profile' }))
  await app.user.upload(screen.getByLabelText('Change photo'), new File(['png'], 'me.png', { type: 'image/png' }))
  await app.user.click(screen.getByRole('button', { name: 'Save changes' }))
  expect(await screen.findByText('Profile updated successfully')).toBeInTheDocument()
  await vi.waitFor(() => expect(header.querySelector('img.avatar')).not.toBeNull())
  expect(within(header).queryByText('AE')).toBeNull()
  expect(app.callsTo('PUT /api/users/profile')[0]?.body).toMatchObject({ avatar_url: url })
})

test('a failed save shows the server message, else "Failed to update profile"', async () => {
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: { [PROFILE]: json(200, aliceProfile), 'PUT /api/users/profile': new TypeError('offline'), ...CALENDAR },
  })
  await app.user.click(await screen.findByRole('button', { name: 'Edit Profile' }))
  await app.user.click(screen.getByRole('button', { name: 'Save changes' }))
  expect(await screen.findByRole('alert')).toHaveTextContent(/^Failed to update profile$/)
})

test('change password: mismatch first, then the server answer for a wrong current password', async () => {
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: {
      [PROFILE]: json(200, aliceProfile),
      'POST /api/users/change-password': json(400, {
        message: 'Current password is incorrect',
        code: 'INVALID_PASSWORD',
      }),
    },
  })
  await app.user.click(await screen.findByRole('button', { name: 'Change Password' }))
  const dialog = screen.getByRole('dialog', { name: 'Change Password' })
  expect(dialog).toHaveAttribute('aria-modal', 'true')
  expect(within(dialog).getByLabelText('Current password')).toHaveFocus()
  await app.user.type(within(dialog).getByLabelText('Current password'), 'Old-password-1')
  await app.user.type(within(dialog).getByLabelText('New password'), 'New-password-1')
  await app.user.type(within(dialog).getByLabelText('Confirm new password'), 'New-password-2')
  await app.user.click(within(dialog).getByRole('button', { name: 'Change Password' }))
  expect(within(dialog).getByRole('alert')).toHaveTextContent('Passwords do not match')
  await app.user.clear(within(dialog).getByLabelText('Confirm new password'))
  await app.user.type(within(dialog).getByLabelText('Confirm new password'), 'New-password-1')
  await app.user.click(within(dialog).getByRole('button', { name: 'Change Password' }))
  expect(await within(dialog).findByText('Current password is incorrect')).toBeInTheDocument()
  expect(app.session.getState().isAuthenticated).toBe(true)
  await app.user.keyboard('{Escape}')
  expect(screen.queryByRole('dialog')).toBeNull()
})

test('a changed password stores the new token with a fresh 7-day expiry, and says so beside the button', async () => {
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: {
      [PROFILE]: json(200, aliceProfile),
      'POST /api/users/change-password': json(200, { message: 'Password changed successfully', access_token: 'jwt-2' }),
    },
  })
  const before = app.session.getState().tokenExpiry!
  await app.user.click(await screen.findByRole('button', { name: 'Change Password' }))
  await app.user.type(screen.getByLabelText('Current password'), 'Old-password-1')
  await app.user.type(screen.getByLabelText('New password'), 'New-password-1')
  await app.user.type(screen.getByLabelText('Confirm new password'), 'New-password-1')
  await new Promise((resolve) => setTimeout(resolve, 5))
  await app.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Change Password' }))
  const saved = await screen.findByText('Password changed successfully')
  expect(screen.queryByRole('dialog')).toBeNull()
  // Where the user is looking: in the profile card, right under the button the focus went back to.
  const button = screen.getByRole('button', { name: 'Change Password' })
  expect(button).toHaveFocus()
  expect(saved.closest('[role="status"]')).not.toBeNull()
  expect(screen.getByRole('region', { name: 'Your profile' })).toContainElement(saved)
  expect(button.compareDocumentPosition(saved) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
  const { token, tokenExpiry } = app.session.getState()
  expect(token).toBe('jwt-2')
  expect(tokenExpiry).toBeGreaterThan(before)
  expect(tokenExpiry).toBeLessThanOrEqual(Date.now() + 7 * 24 * 60 * 60 * 1000)
})

test('delete account: request, then the scheduled date and time remaining with Cancel Deletion', async () => {
  const scheduled = '2025-06-08T12:00:00.000Z'
  const requested = {
    deletion_requested: true,
    deletion_scheduled_for: scheduled,
    days_remaining: 6,
    hours_remaining: 23,
  }
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: {
      [PROFILE]: json(200, aliceProfile),
      'POST /api/users/request-deletion': json(200, {
        message: 'Account deletion scheduled',
        deletion_scheduled_for: scheduled,
      }),
      'GET /api/users/deletion-status': [json(200, requested), json(200, aliceProfile.deletion)],
      'DELETE /api/users/cancel-deletion': json(200, { message: 'Account deletion cancelled' }),
    },
  })
  await app.user.click(await screen.findByRole('button', { name: 'Delete Account' }))
  const dialog = screen.getByRole('dialog', { name: 'Delete Account' })
  await app.user.click(within(dialog).getByRole('button', { name: 'Delete Account' }))
  expect(await screen.findByText('Account deletion scheduled')).toBeInTheDocument()
  expect(screen.getByText('6 days and 23 hours remaining', { exact: false })).toBeInTheDocument()
  await app.user.click(screen.getByRole('button', { name: 'Cancel Deletion' }))
  await app.user.click(
    within(screen.getByRole('dialog', { name: 'Cancel Deletion' })).getByRole('button', { name: 'Cancel Deletion' }),
  )
  expect(await screen.findByText('Account deletion cancelled')).toBeInTheDocument()
  expect(screen.getByRole('button', { name: 'Delete Account' })).toBeInTheDocument()
})

test('a refused deletion request shows "Failed to request account deletion" in the dialog', async () => {
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: { [PROFILE]: json(200, aliceProfile), 'POST /api/users/request-deletion': new TypeError('offline') },
  })
  await app.user.click(await screen.findByRole('button', { name: 'Delete Account' }))
  const dialog = screen.getByRole('dialog', { name: 'Delete Account' })
  await app.user.click(within(dialog).getByRole('button', { name: 'Delete Account' }))
  expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to request account deletion')
})

test('Sign Out ends the session and opens the sign-in page', async () => {
  const app = renderApp({ route: '/profile', user: alice, api: { [PROFILE]: json(200, aliceProfile) } })
  await app.user.click(await screen.findByRole('button', { name: 'Sign Out' }))
  expect(await screen.findByRole('heading', { name: 'Sign in to Buble' })).toBeInTheDocument()
  expect(app.session.getState().token).toBeNull()
})
