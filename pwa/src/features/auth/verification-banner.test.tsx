import { act, screen } from '@testing-library/react'
import { expect, test, vi } from 'vitest'
import { json } from '../../test/fake-fetch.ts'
import { alice } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'

const unverified = { ...alice, email_verified: false }
const RESEND = 'POST /api/auth/resend-verification'
const PROFILE = 'GET /api/users/profile'

test('a verified user sees no banner', async () => {
  renderApp({ route: '/dashboard', user: alice, api: { [PROFILE]: json(200, alice) } })
  expect(await screen.findByRole('heading', { name: 'Your Bubles' })).toBeInTheDocument()
  expect(screen.queryByRole('region', { name: 'Email verification' })).toBeNull()
})

test('resending reads "Verification email sent! Please check your inbox." and clears after 3 seconds', async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true })
  const app = renderApp({
    route: '/dashboard',
    user: unverified,
    api: {
      [PROFILE]: json(200, unverified),
      [RESEND]: json(200, { message: 'If the account exists, we sent a mail' }),
    },
    advanceTimers: vi.advanceTimersByTime,
  })
  const banner = screen.getByRole('region', { name: 'Email verification' })
  expect(banner).toHaveTextContent('Please verify your email address')
  await app.user.click(screen.getByRole('button', { name: 'Resend email' }))
  expect(await screen.findByText('Verification email sent! Please check your inbox.')).toBeInTheDocument()
  expect(app.callsTo(RESEND)[0]?.body).toEqual({ email: 'alice@example.com' })
  await act(() => vi.advanceTimersByTimeAsync(3000))
  expect(screen.queryByText('Verification email sent! Please check your inbox.')).toBeNull()
  expect(banner).toHaveTextContent('Please verify your email address')
})

test('a failed resend shows the server message, else "Failed to send verification email"', async () => {
  const app = renderApp({
    route: '/dashboard',
    user: unverified,
    api: {
      [PROFILE]: json(200, unverified),
      [RESEND]: [
        json(429, { message: 'Too many requests, try later', code: 'RATE_LIMITED' }),
        new TypeError('offline'),
      ],
    },
  })
  await app.user.click(screen.getByRole('button', { name: 'Resend email' }))
  expect(await screen.findByRole('alert')).toHaveTextContent('Too many requests, try later')
  await app.user.click(screen.getByRole('button', { name: 'Resend email' }))
  expect(await screen.findByText('Failed to send verification email')).toBeInTheDocument()
})

test('the banner goes away when the refreshed user turns out verified', async () => {
  renderApp({ route: '/dashboard', user: unverified, api: { [PROFILE]: json(200, alice) } })
  await vi.waitFor(() => expect(screen.queryByRole('region', { name: 'Email verification' })).toBeNull())
})
