import { screen } from '@testing-library/react'
import { expect, test } from 'vitest'
import { json } from '../../test/fake-fetch.ts'
import { alice } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'

const VERIFY = 'POST /api/auth/verify-email'
const RESEND = 'POST /api/auth/resend-verification'

test('without a token: "No verification token provided" and a resend form', async () => {
  const app = renderApp({
    route: '/verify-email',
    api: { [RESEND]: json(200, { message: 'If the account exists, a new link is on its way' }) },
  })
  expect(screen.getByRole('alert')).toHaveTextContent('No verification token provided')
  await app.user.type(screen.getByLabelText('Email'), 'bob@example.com')
  await app.user.click(screen.getByRole('button', { name: 'Resend verification email' }))
  expect(await screen.findByRole('status')).toHaveTextContent('If the account exists, a new link is on its way')
  expect(app.callsTo(RESEND)[0]?.body).toEqual({ email: 'bob@example.com' })
})

test('posts the token once and shows the server message', async () => {
  const app = renderApp({
    route: '/verify-email?token=v1',
    api: { [VERIFY]: json(200, { message: 'Email verified successfully', user: alice }) },
  })
  expect(await screen.findByText('Email verified successfully')).toBeInTheDocument()
  expect(app.callsTo(VERIFY)).toHaveLength(1)
  expect(app.callsTo(VERIFY)[0]?.body).toEqual({ token: 'v1' })
  expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login')
})

test('signed in, success marks the stored user verified', async () => {
  const app = renderApp({
    route: '/verify-email?token=v1',
    user: { ...alice, email_verified: false },
    api: { [VERIFY]: json(200, { message: 'Email verified successfully', user: alice }) },
  })
  expect(await screen.findByText('Email verified successfully')).toBeInTheDocument()
  expect(app.session.getState().user?.email_verified).toBe(true)
  expect(screen.getByRole('link', { name: 'Go to your bubles' })).toHaveAttribute('href', '/dashboard')
})

test('opened a second time, already verified: "Your e-mail is already verified", no error and no resend form', async () => {
  const app = renderApp({
    route: '/verify-email?token=used',
    user: { ...alice, email_verified: false },
    api: { [VERIFY]: json(410, { message: 'Your e-mail is already verified', code: 'TOKEN_INVALID' }) },
  })
  const line = await screen.findByText('Your e-mail is already verified')
  expect(line).toHaveAttribute('role', 'status')
  expect(screen.getByRole('heading', { name: 'Email verified' })).toBeInTheDocument()
  expect(screen.queryByRole('alert')).toBeNull()
  expect(screen.queryByRole('button', { name: 'Resend verification email' })).toBeNull()
  expect(app.session.getState().user?.email_verified).toBe(true)
  expect(screen.getByRole('link', { name: 'Go to your bubles' })).toBeInTheDocument()
})

test('a failure shows the server message (else the fallback) with the resend option, prefilled when signed in', async () => {
  renderApp({
    route: '/verify-email?token=old',
    user: { ...alice, email_verified: false },
    api: { [VERIFY]: json(410, { message: 'This verification link has expired', code: 'TOKEN_INVALID' }) },
  })
  expect(await screen.findByRole('alert')).toHaveTextContent('This verification link has expired')
  expect(screen.getByLabelText('Email')).toHaveValue('alice@example.com')
})

test('a failure without a server message says "Failed to verify email"; a failed resend its own fallback', async () => {
  const app = renderApp({
    route: '/verify-email?token=v1',
    api: { [VERIFY]: new TypeError('offline'), [RESEND]: new TypeError('offline') },
  })
  expect(await screen.findByRole('alert')).toHaveTextContent(/^Failed to verify email$/)
  await app.user.type(screen.getByLabelText('Email'), 'bob@example.com')
  await app.user.click(screen.getByRole('button', { name: 'Resend verification email' }))
  expect(await screen.findByText('Failed to resend verification email')).toBeInTheDocument()
})
