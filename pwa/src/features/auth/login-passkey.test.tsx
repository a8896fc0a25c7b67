import { AUTH_STORAGE_KEY } from '@buble/shared/constants'
import { PASSKEY_MESSAGES } from '@buble/shared/passkeys'
import { screen, waitFor } from '@testing-library/react'
import { beforeEach, expect, test, vi } from 'vitest'
import { json } from '../../test/fake-fetch.ts'
import { alice } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'
import { PASSKEY_SIGN_IN_TEXTS } from './passkey-sign-in-texts.ts'

const browser = vi.hoisted(() => ({
  has: vi.fn(() => true),
  autofill: vi.fn(async () => false),
  getPasskey: vi.fn(),
  cancel: vi.fn(),
}))
vi.mock('../../session/passkey-support.ts', () => ({ browserHasPasskeys: browser.has }))
vi.mock('../../session/passkeys.ts', async (actual) => ({
  ...(await actual<typeof import('../../session/passkeys.ts')>()),
  cancelPasskey: browser.cancel,
}))
vi.mock('../../session/passkey-ceremonies.ts', async (actual) => ({
  ...(await actual<typeof import('../../session/passkey-ceremonies.ts')>()),
  browserHasPasskeyAutofill: browser.autofill,
  getPasskey: browser.getPasskey,
}))

beforeEach(() => {
  browser.has.mockReturnValue(true)
  browser.autofill.mockResolvedValue(false)
  browser.getPasskey.mockReset()
  browser.cancel.mockReset()
})

const OPTIONS = 'POST /api/auth/passkeys/options'
const LOGIN = 'POST /api/auth/passkeys/login'
const answer = { id: 'AQ', rawId: 'AQ', type: 'public-key', response: {} }
const notAllowed = () => Object.assign(new Error('not allowed'), { name: 'NotAllowedError' })
const aborted = () => Object.assign(new Error('Manually cancelling'), { name: 'AbortError' })

test('the e-mail field offers passkeys in its autofill; a browser without WebAuthn shows no passkey button', () => {
  browser.has.mockReturnValue(false)
  renderApp({ route: '/login' })
  expect(screen.getByLabelText('Email')).toHaveAttribute('autocomplete', 'username webauthn')
  expect(screen.queryByRole('button', { name: PASSKEY_SIGN_IN_TEXTS.button })).toBeNull()
})

test('a browser with WebAuthn offers the passkey button', async () => {
  renderApp({ route: '/login' })
  expect(await screen.findByRole('button', { name: PASSKEY_SIGN_IN_TEXTS.button })).toBeEnabled()
})

test('"Sign in with a passkey" signs in with no password and lands on the dashboard', async () => {
  browser.getPasskey.mockResolvedValue(answer)
  const app = renderApp({
    route: '/login',
    api: {
      [OPTIONS]: () => json(200, { challenge: 'abc', rpId: 'localhost' }),
      [LOGIN]: () => json(200, { access_token: 'jwt', user: alice }),
      'GET /api/users/profile': () => json(200, alice),
    },
  })
  await app.user.click(await screen.findByRole('button', { name: PASSKEY_SIGN_IN_TEXTS.button }))
  expect(await screen.findByRole('heading', { name: 'Your Bubles' })).toBeInTheDocument()
  expect(browser.getPasskey).toHaveBeenCalledWith({ challenge: 'abc', rpId: 'localhost' })
  expect(app.callsTo(LOGIN)[0]?.body).toEqual({ response: answer })
  expect(JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY)!).state).toMatchObject({
    token: 'jwt',
    isAuthenticated: true,
  })
})

test('a cancelled dialog and a passkey the server does not recognise each say so', async () => {
  browser.getPasskey.mockRejectedValueOnce(notAllowed()).mockResolvedValueOnce(answer)
  const app = renderApp({
    route: '/login',
    api: {
      [OPTIONS]: [() => json(200, { challenge: 'a' }), () => json(200, { challenge: 'b' })],
      [LOGIN]: () => json(401, { code: 'INVALID_CREDENTIALS', message: PASSKEY_MESSAGES.notRecognised }),
    },
  })
  const button = await screen.findByRole('button', { name: PASSKEY_SIGN_IN_TEXTS.button })
  await app.user.click(button)
  expect(await screen.findByRole('alert')).toHaveTextContent(PASSKEY_SIGN_IN_TEXTS.cancelled)
  await app.user.click(button)
  expect(await screen.findByText(PASSKEY_MESSAGES.notRecognised)).toBeInTheDocument()
  expect(localStorage.getItem(AUTH_STORAGE_KEY) ?? '').not.toContain('"isAuthenticated":true')
  expect(screen.getByRole('button', { name: PASSKEY_SIGN_IN_TEXTS.button })).toBeEnabled()
})

test('with autofill, a passkey picked in the e-mail field signs in', async () => {
  browser.autofill.mockResolvedValue(true)
  browser.getPasskey.mockResolvedValue(answer)
  const app = renderApp({
    route: '/login',
    api: {
      [OPTIONS]: () => json(200, { challenge: 'auto' }),
      [LOGIN]: () => json(200, { access_token: 'jwt', user: alice }),
      'GET /api/users/profile': () => json(200, alice),
    },
  })
  expect(await screen.findByRole('heading', { name: 'Your Bubles' })).toBeInTheDocument()
  expect(browser.getPasskey).toHaveBeenCalledWith({ challenge: 'auto' }, true)
  expect(app.callsTo(LOGIN)).toHaveLength(1)
})

test('the waiting autofill is ended when the password form is sent, and says nothing of it', async () => {
  browser.autofill.mockResolvedValue(true)
  // The autofill waits until it is cancelled.
  browser.getPasskey.mockImplementation(
    () =>
      new Promise((_resolve, reject) => {
        browser.cancel.mockImplementation(() => reject(aborted()))
      }),
  )
  const app = renderApp({
    route: '/login',
    api: {
      [OPTIONS]: () => json(200, { challenge: 'auto' }),
      'POST /api/auth/login': () => json(401, { code: 'INVALID_CREDENTIALS', message: 'Invalid email or password' }),
    },
  })
  await waitFor(() => expect(browser.getPasskey).toHaveBeenCalledTimes(1))
  await app.user.type(screen.getByLabelText('Email'), 'alice@example.com')
  await app.user.type(screen.getByLabelText('Password'), 'Secret-password1')
  await app.user.click(screen.getByRole('button', { name: 'Sign in' }))
  expect(await screen.findByRole('alert')).toHaveTextContent(/^Invalid email or password$/)
  expect(browser.cancel).toHaveBeenCalled()
  // Offered again after the failed password sign-in.
  await waitFor(() => expect(browser.getPasskey).toHaveBeenCalledTimes(2))
})

test('leaving the page ends the waiting autofill', async () => {
  browser.autofill.mockResolvedValue(true)
  browser.getPasskey.mockImplementation(() => new Promise(() => {}))
  const app = renderApp({ route: '/login', api: { [OPTIONS]: () => json(200, { challenge: 'auto' }) } })
  await waitFor(() => expect(browser.getPasskey).toHaveBeenCalledTimes(1))
  await app.user.click(screen.getByRole('link', { name: 'Create an account' }))
  expect(await screen.findByRole('heading', { name: /Create/ })).toBeInTheDocument()
  expect(browser.cancel).toHaveBeenCalled()
})
