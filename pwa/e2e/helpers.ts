/** What the browser tests share: watching the console, signing up through the API, signing in, and the stored session. */

import { expect, type Page } from '@playwright/test'

export const PASSWORD = 'Correct-horse-42'

/** Collects console errors and page errors; a test ends by expecting the list empty. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') {
      const where = message.location().url
      problems.push(`console: ${message.text()}${where ? ` (${where})` : ''}`)
    }
  })
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  return problems
}

let counter = 0

/** Registers an account through the API and answers its e-mail address. */
export async function registerByApi(page: Page, name: string, password = PASSWORD): Promise<string> {
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${Date.now()}-${++counter}@example.com`
  const res = await page.request.post('/api/auth/register', { data: { name, email, password } })
  expect(res.status()).toBe(201)
  return email
}

export async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Your Bubles' })).toBeVisible()
}

/** The persisted `auth-storage` record of the page's origin. */
export async function storedSession(page: Page) {
  return page.evaluate(() => JSON.parse(localStorage.getItem('auth-storage') ?? 'null'))
}

/** Waits until the service worker controls the page (needed before going offline). */
export async function serviceWorkerReady(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true)
}
