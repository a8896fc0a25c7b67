/**
 * The devices signed in at phone size (issue 24 §4): a phone signs out another device from its
 * profile, which is sent to the sign-in page saying why; then "Sign out everywhere else".
 */

import { expect, test } from '@playwright/test'
import { expectAccessible, person, signIn, watchConsole } from './helpers.ts'

const PHONE = { width: 390, height: 844 }
test.use({ viewport: PHONE })

const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'

test('signing out another device from the profile sends it to the sign-in page; then everywhere else', async ({
  browser,
}) => {
  // Registered through the API (one session) and signed in on this phone (another).
  const sam = await person(browser, 'Sam Devices')
  // A second device, an iPhone, signed in to the same account.
  const iphoneContext = await browser.newContext({ userAgent: IPHONE_SAFARI, viewport: PHONE })
  const iphone = await iphoneContext.newPage()
  const iphoneProblems = watchConsole(iphone)
  await signIn(iphone, sam.email)

  const devices = sam.page.getByRole('region', { name: 'Devices signed in' })

  await test.step('the profile lists the devices, this one marked', async () => {
    await sam.page.goto('/profile')
    await expect(devices.getByRole('listitem')).toHaveCount(3)
    await expect(devices.getByRole('listitem').first()).toContainText('This device')
    await expect(devices.getByRole('listitem').filter({ hasText: 'Safari on iPhone' })).toContainText('Last used')
    await devices.scrollIntoViewIfNeeded()
    await expectAccessible(sam.page, 'the profile with its devices signed in')
  })

  await test.step('Sign out the iPhone, after a confirmation', async () => {
    await devices.getByRole('button', { name: 'Sign out: Safari on iPhone' }).click()
    const dialog = sam.page.getByRole('dialog', { name: 'Sign out this device?' })
    await expect(dialog).toContainText('Safari on iPhone is signed out at once')
    await dialog.getByRole('button', { name: 'Sign out', exact: true }).click()
    await expect(devices.getByText('Safari on iPhone was signed out')).toBeVisible()
    await expect(devices.getByRole('listitem')).toHaveCount(2)
  })

  // Its live stream is closed at once; its reconnection is refused and the app signs out. No reload
  // here: one could land while that navigation is pending and cancel it.
  await test.step('the iPhone lands on the sign-in page, which says why', async () => {
    await expect(iphone.getByRole('heading', { name: 'Sign in to Buble' })).toBeVisible({ timeout: 15_000 })
    await expect(iphone).toHaveURL(/\/login\?reason=signed-out$/)
    await expect(iphone.getByRole('status')).toContainText('You were signed out from another device')
  })

  await test.step('Sign out everywhere else leaves this phone alone', async () => {
    await devices.getByRole('button', { name: 'Sign out everywhere else' }).click()
    await sam.page
      .getByRole('dialog', { name: 'Sign out everywhere else?' })
      .getByRole('button', { name: 'Sign out everywhere else' })
      .click()
    await expect(devices.getByText('Every other device was signed out')).toBeVisible()
    await expect(devices.getByRole('listitem')).toHaveCount(1)
    await expect(devices.getByText('No other devices are signed in.')).toBeVisible()
    // This phone still works: a reload keeps it signed in.
    await sam.page.reload()
    await expect(sam.page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible()
  })

  expect(sam.problems).toEqual([])
  // The refused calls are the network's own lines (401 answers), nothing else.
  expect(iphoneProblems.filter((problem) => !/status of 401 \(Unauthorized\)/.test(problem))).toEqual([])
  await iphoneContext.close()
  await sam.close()
})
