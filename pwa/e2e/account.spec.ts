import { expect, type Page, test } from '@playwright/test'
import { watchConsole } from './helpers.ts'
import { linkFromMail, mailCount } from './mailbox.ts'

const PASSWORD = 'Correct-horse-42'
const NEW_PASSWORD = 'Battery-staple-77'

async function storedSession(page: Page) {
  return page.evaluate(() => JSON.parse(localStorage.getItem('auth-storage') ?? 'null'))
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/login')
  await expect(page.getByRole('heading', { name: 'Sign in to Buble' })).toBeVisible()
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Your Bubles' })).toBeVisible()
}

test('a new member registers, verifies, manages the account, keeps the session alive and opens the app offline', async ({
  page,
  context,
}) => {
  const problems = watchConsole(page)

  const email = `e2e-${Date.now()}@example.com`

  await test.step('register', async () => {
    await page.goto('/')
    await expect(page).toHaveURL(/\/login$/)
    await page.getByRole('link', { name: 'Create an account' }).click()
    await page.getByLabel('Full name').fill('Erin Example')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Create account' }).click()
    await expect(page).toHaveURL(/\/dashboard$/)
    await expect(page.getByRole('heading', { name: 'Your Bubles' })).toBeVisible()
    await expect(page.getByText('No bubles yet')).toBeVisible()
    await expect(page.getByText('Welcome, Erin Example')).toBeVisible()
    await expect(page.getByRole('region', { name: 'Email verification' })).toBeVisible()
  })

  await test.step('resend and open the mailed verification link', async () => {
    // The new mail goes after the answer, and its link replaces the one mailed at registration.
    const mailed = mailCount(email)
    await page.getByRole('button', { name: 'Resend email' }).click()
    await expect(page.getByText('Verification email sent! Please check your inbox.')).toBeVisible()
    const link = await linkFromMail(email, '/verify-email?token=', { after: mailed })
    await page.goto(link)
    await expect(page.getByRole('heading', { name: 'Email verified' })).toBeVisible()
    await page.getByRole('link', { name: 'Go to your bubles' }).click()
    await expect(page.getByRole('heading', { name: 'Your Bubles' })).toBeVisible()
    await expect(page.getByRole('region', { name: 'Email verification' })).toHaveCount(0)
  })

  await test.step('sign out and sign in again', async () => {
    await page.getByRole('button', { name: 'Logout' }).click()
    await expect(page.getByRole('heading', { name: 'Sign in to Buble' })).toBeVisible()
    expect((await storedSession(page)).state).toMatchObject({ token: null, user: null, isAuthenticated: false })
    await signIn(page, email, PASSWORD)
    await expect(page.getByRole('region', { name: 'Email verification' })).toHaveCount(0)
  })

  await test.step('edit the profile, with an avatar', async () => {
    await page.getByRole('link', { name: 'Profile' }).click()
    await expect(page.getByText('Regular User')).toBeVisible()
    await expect(page.getByText(email)).toBeVisible()
    await page.getByRole('button', { name: 'Edit Profile' }).click()
    await page.getByLabel('Display name').fill('Erin Renamed')
    await page.getByLabel('Bio').fill('Plays the cello on Sundays.')
    await page
      .locator('input[type="file"]')
      .setInputFiles(new URL('../public/icons/icon-192.png', import.meta.url).pathname)
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect(page.getByText('Profile updated successfully')).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Erin Renamed' })).toBeVisible()
    await expect(page.getByText('Plays the cello on Sundays.')).toBeVisible()
    await expect(page.getByText('Welcome, Erin Renamed')).toBeVisible()
    // The avatar comes from /api/uploads/secure/… with the Bearer header, shown through a blob: URL.
    const avatar = page.getByRole('img', { name: "Erin Renamed's avatar" })
    await expect(avatar).toHaveAttribute('src', /^blob:/)
    await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(192)
  })

  let passwordChangedAt = 0
  await test.step('change the password, then sign in with the new one', async () => {
    passwordChangedAt = problems.length
    const before = (await storedSession(page)).state.token
    await page.getByRole('button', { name: 'Change Password' }).click()
    const dialog = page.getByRole('dialog', { name: 'Change Password' })
    await dialog.getByLabel('Current password').fill(PASSWORD)
    await dialog.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD)
    await dialog.getByLabel('Confirm new password').fill(NEW_PASSWORD)
    await dialog.getByRole('button', { name: 'Change Password' }).click()
    await expect(dialog).toHaveCount(0)
    await expect(page.getByRole('status').filter({ hasText: /password/i })).toBeVisible()
    const after = (await storedSession(page)).state
    expect(after.token).not.toBe(before)
    expect(after.tokenExpiry).toBeGreaterThan(Date.now() + 7 * 24 * 3600_000 - 60_000)
    // The fresh token works: the profile reloads.
    await page.reload()
    await expect(page.getByRole('heading', { name: 'Erin Renamed' })).toBeVisible()
    await page.getByRole('button', { name: 'Logout' }).click()
    // Signing out clears the device's data first: wait for it to land on the sign-in page.
    await expect(page.getByRole('heading', { name: 'Sign in to Buble' })).toBeVisible()
    await signIn(page, email, NEW_PASSWORD)
  })

  await test.step('a session about to expire asks to be refreshed', async () => {
    // Thirty minutes left, written as the page loads, before the app reads it (a write made while
    // the app runs can be overwritten by the app's own save before the reload). Once only.
    await page.addInitScript(() => {
      if (sessionStorage.getItem('e2e-expiry-set')) return
      sessionStorage.setItem('e2e-expiry-set', 'yes')
      const stored = JSON.parse(localStorage.getItem('auth-storage') ?? 'null')
      if (!stored) return
      stored.state.tokenExpiry = Date.now() + 30 * 60 * 1000
      localStorage.setItem('auth-storage', JSON.stringify(stored))
    })
    await page.reload()
    const dialog = page.getByRole('dialog', { name: 'Session Expiring Soon' })
    await expect(dialog).toBeVisible()
    await expect(dialog).toContainText('Your session will expire soon. Would you like to refresh it?')
    await dialog.getByRole('button', { name: 'Try to Refresh Session' }).click()
    await expect(dialog).toHaveCount(0)
    const { state } = await storedSession(page)
    expect(state.isAuthenticated).toBe(true)
    expect(state.tokenExpiry).toBeGreaterThan(Date.now() + 7 * 24 * 3600_000 - 60_000)
    await expect(page.getByRole('heading', { name: 'Your Bubles' })).toBeVisible()
  })

  let offlineAt = 0
  await test.step('offline, a reload still opens the app shell', async () => {
    offlineAt = problems.length
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready
    })
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true)
    await context.setOffline(true)
    await page.reload()
    await expect(page.getByRole('heading', { name: 'Your Bubles' })).toBeVisible()
    await expect(page.getByText('Welcome, Erin Renamed')).toBeVisible()
    await page.goto('/privacy')
    await expect(page.getByRole('heading', { name: 'Privacy policy' })).toBeVisible()
    await context.setOffline(false)
  })

  // The password change revokes the old token: sync calls already out with it (a pull of the
  // session that then signs out, say) are answered 401, and Chromium logs each answer. The app
  // retries them with the new token or drops them with the old session (api-client.test.ts); the
  // session goes on, as the steps above show. Those lines, and only for sync calls, are the network's.
  const raced = problems
    .slice(passwordChangedAt)
    .filter((problem) => /status of 401 \(Unauthorized\) \(http:[^)]*\/api\/sync\//.test(problem))
  expect(raced.length).toBeLessThanOrEqual(2)
  // A request in flight when the network went away fails, and Chromium logs it: at most that one.
  const cut = problems
    .slice(offlineAt)
    .filter((problem) => /ERR_INTERNET_DISCONNECTED \(http:[^)]*\/api\//.test(problem))
  expect(cut.length).toBeLessThanOrEqual(1)
  expect(problems.filter((problem) => !raced.includes(problem) && !cut.includes(problem))).toEqual([])
})
