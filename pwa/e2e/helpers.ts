/** What the browser tests share: watching the console, signing up through the API, signing in, and the stored session. */

import { type APIRequestContext, type Browser, type BrowserContext, expect, type Page } from '@playwright/test'
import { linkFromMail } from './mailbox.ts'

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
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
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

export interface Person {
  page: Page
  context: BrowserContext
  problems: string[]
  close(): Promise<void>
}

/** A person in their own browser context, signed up and signed in, with their console watched. */
export async function person(browser: Browser, name: string): Promise<Person & { email: string }> {
  const context = await browser.newContext()
  const page = await context.newPage()
  const problems = watchConsole(page)
  const email = await registerByApi(page, name)
  await signIn(page, email)
  return { page, context, problems, email, close: () => context.close() }
}

/** The page's access token, as the app stored it. */
export async function accessToken(page: Page): Promise<string> {
  return page.evaluate(() => JSON.parse(localStorage.getItem('auth-storage') ?? '{}').state?.token)
}

/** A call of the API with the page's own session; anything but a 2xx fails the test, saying which call. */
export async function api<T>(page: Page, method: 'GET' | 'POST', path: string, data?: unknown): Promise<T> {
  const res = await page.request.fetch(`/api${path}`, {
    method,
    data,
    headers: { authorization: `Bearer ${await accessToken(page)}` },
  })
  expect(res.ok(), `${method} ${path}: ${res.ok() ? '' : await res.text()}`).toBe(true)
  return (await res.json()) as T
}

/** A new buble of `owner` named `name` (made unique), which each of `members` joins by an invite code. */
export async function bubleWith(owner: Person, name: string, members: Person[]): Promise<{ id: string; slug: string }> {
  const buble = await api<{ id: string; slug: string }>(owner.page, 'POST', '/bubles', {
    name: `${name} ${Date.now()}`,
  })
  for (const member of members) {
    const { code } = await api<{ code: string }>(owner.page, 'POST', `/bubles/${buble.id}/invites`, {})
    await api(member.page, 'POST', `/bubles/invites/${code}/accept`)
  }
  return buble
}

/** The buble page's section tabs. */
export const bubleTabs = (page: Page) => page.getByRole('navigation', { name: 'Buble sections' })

/** The buble page's overflow menu button, in its title bar. */
export const bubleMenuButton = (page: Page) => page.getByRole('button', { name: 'Buble actions' })

/** The items the buble page's overflow menu offers this member, by name (opens the menu, closes it after). */
export async function bubleMenuItems(page: Page): Promise<string[]> {
  await bubleMenuButton(page).click()
  const names = (await page.getByRole('menu', { name: 'Buble actions' }).getByRole('menuitem').allTextContents()).map(
    (name) => name.trim(),
  )
  await page.keyboard.press('Escape')
  return names
}

/** Chooses an action of the buble page's overflow menu: Generate Invite, Mute notifications, Rename, Leave Buble… */
export async function bubleMenu(page: Page, item: string) {
  await bubleMenuButton(page).click()
  await page.getByRole('menu', { name: 'Buble actions' }).getByRole('menuitem', { name: item, exact: true }).click()
}

/** Opens the invite dialog from the buble page (where the page puts its Invite action). */
export async function openInviteDialog(owner: Page) {
  await bubleMenu(owner, 'Generate Invite')
}

/** Generates an invite code on the buble page and closes the dialog. */
export async function inviteCode(owner: Page): Promise<string> {
  await openInviteDialog(owner)
  const dialog = owner.getByRole('dialog', { name: 'Invite code generated' })
  const code = (await dialog.locator('.invite-code').textContent())?.trim() ?? ''
  await dialog.getByRole('button', { name: 'Done' }).click()
  return code
}

/** Joins a buble by code from the dashboard. */
export async function join(page: Page, code: string, bubleName: string) {
  await page.goto('/dashboard')
  await page.getByRole('button', { name: 'Join Buble' }).click()
  await page.getByRole('dialog', { name: 'Join Buble' }).getByLabel('Invite code').fill(code)
  await page.getByRole('dialog', { name: 'Join Buble' }).getByRole('button', { name: 'Join' }).click()
  await page.getByRole('dialog', { name: 'Join this Buble?' }).getByRole('button', { name: 'Join Buble' }).click()
  await expect(page.getByRole('heading', { level: 1, name: bubleName })).toBeVisible()
}

/** The Wall tab of a buble page. */
export const wallTab = (page: Page) =>
  page.getByRole('navigation', { name: 'Buble sections' }).getByRole('link', { name: /^Wall/ })
/** A post of `name` on the wall holding `text`. */
export const postBy = (page: Page, name: string, text: string) =>
  page.getByRole('article', { name: `Post by ${name}` }).filter({ hasText: text })

/** Writes a post in the wall's composer and sends it. */
export async function writePost(page: Page, text: string) {
  await page.getByRole('textbox', { name: 'Write a post' }).fill(text)
  await page.getByRole('form', { name: 'New post' }).getByRole('button', { name: 'Post' }).click()
}

/** How many posts with this text the server holds (through the page's own session). */
export async function countOnServer(page: Page, bubleId: string, text: string): Promise<number> {
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('auth-storage') ?? '{}').state?.token)
  const res = await page.request.get(`/api/wall/${bubleId}/posts?page=1&limit=50`, {
    headers: { authorization: `Bearer ${token}` },
  })
  const { posts } = (await res.json()) as { posts: { content: string }[] }
  return posts.filter((post) => post.content === text).length
}

/**
 * Runs axe on the page as it is now and fails on any serious or critical violation, naming each with the
 * elements it found (WCAG 2.x A and AA rules, the ones the issue's "no serious violations" is about).
 */
export async function expectAccessible(page: Page, label = page.url()) {
  // A dialog still fading in would be judged on its half-transparent colours: let finite animations end first.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  )
  const { default: AxeBuilder } = await import('@axe-core/playwright')
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    )
  expect(serious, `axe on ${label}`).toEqual([])
}

// Listed in BUBLE_ADMIN_EMAILS by api/src/testing/e2e-server.ts.
export const ADMIN_EMAIL = 'platform-admin@e2e.example.com'

/** Makes the admin account (or finds it, on a database kept from an earlier run) and verifies it. */
export async function ensureAdmin(request: APIRequestContext) {
  const registered = await request.post('/api/auth/register', {
    data: { name: 'Platform Admin', email: ADMIN_EMAIL, password: PASSWORD },
  })
  expect([201, 409]).toContain(registered.status())
  const login = await request.post('/api/auth/login', { data: { email: ADMIN_EMAIL, password: PASSWORD } })
  expect(login.status()).toBe(200)
  if ((await login.json()).user.role === 'admin') return
  if (registered.status() === 409) await request.post('/api/auth/resend-verification', { data: { email: ADMIN_EMAIL } })
  const token = new URL(await linkFromMail(ADMIN_EMAIL, '/verify-email?token=')).searchParams.get('token')
  const verified = await request.post('/api/auth/verify-email', { data: { token } })
  expect(verified.status()).toBe(200)
  expect((await verified.json()).user.role).toBe('admin')
}
