/**
 * Passkeys at phone size (issue 24 §3, decision 102), with Chromium's virtual authenticator: a member
 * adds a passkey in the profile, signs out, signs in with it and no password, gives up the password, and
 * is refused the removal of their last way to sign in. WebAuthn takes no IP address as relying party, so
 * this spec opens the app at localhost (one of the e2e server's configured origins), not 127.0.0.1.
 */

import { expect, test } from '@playwright/test'
import { PASSWORD, registerByApi, signIn, watchConsole } from './helpers.ts'

const LOCAL = `http://localhost:${process.env.E2E_PORT}`

test('add a passkey, sign in with it alone, remove the password; the last passkey stays', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: LOCAL, viewport: { width: 390, height: 844 } })
  const page = await context.newPage()
  const problems = watchConsole(page)
  const email = await registerByApi(page, 'Pia Passkey')
  await signIn(page, email)

  const cdp = await context.newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })

  const passkeys = page.getByRole('region', { name: 'Passkeys' })

  await test.step('the profile adds a passkey by its name, listed as never used', async () => {
    await page.goto('/profile')
    await expect(passkeys.getByText('No passkeys yet.')).toBeVisible()
    await passkeys.getByLabel('Passkey name').fill('This phone')
    await passkeys.getByRole('button', { name: 'Add a passkey' }).click()
    await expect(passkeys.getByText('Passkey added')).toBeVisible()
    await expect(passkeys.getByRole('listitem')).toContainText('This phone')
    await expect(passkeys.getByRole('listitem')).toContainText('Never used')
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId })
    expect(credentials).toHaveLength(1)
    expect(credentials[0]?.isResidentCredential).toBe(true)
    expect(credentials[0]?.rpId).toBe('localhost')
  })

  const signOut = async () => {
    await page.goto('/profile')
    await page.getByRole('button', { name: 'Sign Out', exact: true }).click()
  }
  const passkeySignIn = () =>
    page.waitForResponse((res) => res.url().endsWith('/api/auth/passkeys/login') && res.status() === 200)

  await test.step('signed out, the e-mail field offers the passkey (conditional UI): it signs in, no password', async () => {
    // Chromium's virtual authenticator answers the autofill's request as if the member picked the passkey.
    const signedIn = passkeySignIn()
    await signOut()
    await signedIn
    await expect(page.getByRole('heading', { name: 'Your Bubles' })).toBeVisible()
  })

  await test.step('"Sign in with a passkey" signs in too', async () => {
    // From here on the browser offers no autofill (the virtual authenticator would answer it first, as
    // above): the button's own request is the only one.
    await page.addInitScript(() => {
      window.PublicKeyCredential.isConditionalMediationAvailable = async () => false
    })
    await signOut()
    await expect(page.getByRole('heading', { name: 'Sign in to Buble' })).toBeVisible()
    await expect(page.getByLabel('Email')).toHaveAttribute('autocomplete', 'username webauthn')
    const asked = page.waitForRequest((req) => req.url().endsWith('/api/auth/passkeys/options'))
    const signedIn = passkeySignIn()
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
    await asked
    await signedIn
    await expect(page.getByRole('heading', { name: 'Your Bubles' })).toBeVisible()
    await page.goto('/profile')
    await expect(passkeys.getByRole('listitem')).toContainText('Last used')
  })

  await test.step('the password goes; then removing the last passkey is refused with the reason', async () => {
    await passkeys.getByRole('button', { name: 'Remove password' }).click()
    const dialog = page.getByRole('dialog', { name: 'Remove your password?' })
    await dialog.getByLabel('Current password').fill(PASSWORD)
    await dialog.getByRole('button', { name: 'Remove password' }).click()
    await expect(passkeys.getByText('Password removed. You sign in with a passkey from now on.')).toBeVisible()
    await expect(passkeys.getByRole('button', { name: 'E-mail me a link to set a password' })).toBeVisible()
    await passkeys.getByRole('button', { name: 'Remove This phone' }).click()
    await page.getByRole('dialog', { name: 'Remove passkey?' }).getByRole('button', { name: 'Remove' }).click()
    await expect(passkeys.getByRole('alert')).toHaveText(
      'This passkey is your only way to sign in. Add another passkey or set a password before removing it.',
    )
    await expect(passkeys.getByRole('listitem')).toContainText('This phone')
  })

  await test.step('the password no longer signs in', async () => {
    const res = await page.request.post('/api/auth/login', { data: { email, password: PASSWORD } })
    expect(res.status()).toBe(401)
  })

  // The refused removal is the network's own line (a 409 answer), nothing else.
  expect(problems.filter((problem) => !/status of 409 \(Conflict\)/.test(problem))).toEqual([])
  await context.close()
})
