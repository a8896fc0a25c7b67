import { expect, test } from '@playwright/test'
import { PASSWORD, registerByApi, signIn, watchConsole } from './helpers.ts'
import { linkFromMail } from './mailbox.ts'

test('a forgotten password is reset through the mailed link', async ({ page }) => {
  const problems = watchConsole(page)
  const email = await registerByApi(page, 'Frida')

  await page.goto('/login')
  await page.getByRole('link', { name: 'Forgot your password?' }).click()
  await page.getByLabel('Email').fill(email)
  await page.getByRole('button', { name: 'Send reset instructions' }).click()
  await expect(page.getByRole('status')).toBeVisible()

  await page.goto(await linkFromMail(email, '/reset-password?token='))
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible()
  await page.getByLabel('New password', { exact: true }).fill('Fresh-start-2025')
  await page.getByLabel('Confirm new password').fill('Fresh-start-2025')
  await page.getByRole('button', { name: 'Reset password' }).click()
  await expect(page.getByRole('heading', { name: 'Password changed' })).toBeVisible()
  await page.getByRole('link', { name: 'Sign in' }).click()

  await signIn(page, email, 'Fresh-start-2025')
  expect(problems).toEqual([])
})

test('account deletion can be requested and then cancelled', async ({ page }) => {
  const problems = watchConsole(page)
  const email = await registerByApi(page, 'Dana')
  await signIn(page, email, PASSWORD)

  await page.getByRole('link', { name: 'Profile' }).click()
  await page.getByRole('button', { name: 'Delete Account' }).click()
  const confirm = page.getByRole('dialog', { name: 'Delete Account' })
  await confirm.getByRole('button', { name: 'Delete Account' }).click()
  await expect(confirm).toHaveCount(0)
  await expect(page.getByText('Your account is scheduled for deletion on')).toBeVisible()
  await expect(page.getByText(/6 days and 23 hours remaining|7 days and 0 hours remaining/)).toBeVisible()

  await page.getByRole('button', { name: 'Cancel Deletion' }).click()
  await page.getByRole('dialog', { name: 'Cancel Deletion' }).getByRole('button', { name: 'Cancel Deletion' }).click()
  await expect(page.getByRole('button', { name: 'Delete Account' })).toBeVisible()
  await expect(page.getByText('Your account is scheduled for deletion on')).toHaveCount(0)

  // It stays cancelled after a reload.
  await page.reload()
  await expect(page.getByRole('button', { name: 'Delete Account' })).toBeVisible()
  expect(problems).toEqual([])
})
