import { screen } from '@testing-library/react'
import { expect, test } from 'vitest'
import { json } from '../../test/fake-fetch.ts'
import { renderApp } from '../../test/render-app.tsx'

const RESET = 'POST /api/auth/reset-password'

async function choose(app: ReturnType<typeof renderApp>, password: string, confirm: string) {
  await app.user.type(screen.getByLabelText('New password'), password)
  await app.user.type(screen.getByLabelText('Confirm new password'), confirm)
  await app.user.click(screen.getByRole('button', { name: 'Reset password' }))
}

test('without a token it shows the invalid-link screen with a way to ask for a new link', () => {
  renderApp({ route: '/reset-password' })
  expect(screen.getByRole('heading', { name: 'Invalid reset token' })).toBeInTheDocument()
  expect(screen.getByRole('link', { name: 'Request a new reset link' })).toHaveAttribute('href', '/forgot-password')
  expect(screen.queryByLabelText('New password')).toBeNull()
})

test('different passwords say "Passwords do not match" before anything else', async () => {
  const app = renderApp({ route: '/reset-password?token=t1' })
  await choose(app, 'abc', 'abd')
  expect(screen.getByRole('alert')).toHaveTextContent(/^Passwords do not match$/)
  expect(app.calls).toHaveLength(0)
})

test('matching but weak passwords show the first strong-rule message', async () => {
  const app = renderApp({ route: '/reset-password?token=t1' })
  await choose(app, 'alllowercase12', 'alllowercase12')
  expect(screen.getByRole('alert')).toHaveTextContent('Password must contain at least one uppercase letter')
  expect(app.calls).toHaveLength(0)
})

test('a used or expired token (410) turns into the invalid-link screen', async () => {
  const app = renderApp({
    route: '/reset-password?token=t1',
    api: { [RESET]: json(410, { message: 'This reset link is invalid or has expired', code: 'TOKEN_INVALID' }) },
  })
  await choose(app, 'New-password-42', 'New-password-42')
  expect(await screen.findByRole('heading', { name: 'Invalid reset token' })).toBeInTheDocument()
  expect(screen.getByText('This reset link is invalid or has expired')).toBeInTheDocument()
  expect(screen.getByRole('link', { name: 'Request a new reset link' })).toHaveAttribute('href', '/forgot-password')
})

test('another failure shows "Failed to reset password"', async () => {
  const app = renderApp({ route: '/reset-password?token=t1', api: { [RESET]: new TypeError('offline') } })
  await choose(app, 'New-password-42', 'New-password-42')
  expect(await screen.findByRole('alert')).toHaveTextContent(/^Failed to reset password$/)
})

test('success shows the server message and a link to sign in', async () => {
  const app = renderApp({
    route: '/reset-password?token=t1',
    api: { [RESET]: json(200, { message: 'Your password has been reset' }) },
  })
  await choose(app, 'New-password-42', 'New-password-42')
  expect(await screen.findByRole('status')).toHaveTextContent('Your password has been reset')
  expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login')
  expect(app.callsTo(RESET)[0]?.body).toEqual({ token: 't1', newPassword: 'New-password-42' })
})
