/** Seeds one lively buble through the API, then photographs the dashboard, the buble page and chat at two sizes. */

import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { type APIRequestContext, expect, type Page, test } from '@playwright/test'
import { PASSWORD, registerByApi, signIn } from '../e2e/helpers.ts'

const here = path.dirname(fileURLToPath(import.meta.url))
const stage = process.env.SCREENSHOTS_STAGE ?? 'after'
const outDir = path.resolve(here, '../../docs/screenshots', stage)
const sizes = [
  { name: 'phone', width: 360, height: 740 },
  { name: 'desktop', width: 1280, height: 800 },
] as const

async function login(request: APIRequestContext, email: string): Promise<string> {
  const res = await request.post('/api/auth/login', { data: { email, password: PASSWORD } })
  expect(res.status()).toBe(200)
  return ((await res.json()) as { access_token: string }).access_token
}

async function call<T>(request: APIRequestContext, token: string, method: string, url: string, data?: unknown) {
  const res = await request.fetch(`/api${url}`, { method, data, headers: { authorization: `Bearer ${token}` } })
  expect(res.ok(), `${method} ${url}: ${res.status()} ${await res.text()}`).toBe(true)
  return (res.status() === 204 ? undefined : await res.json()) as T
}

async function shoot(page: Page, name: string) {
  // The live stream keeps the network busy, so "idle" never comes: fonts loaded and a moment for avatars is enough.
  await page.evaluate(() => document.fonts.ready)
  await page.waitForTimeout(700)
  await page.screenshot({ path: path.join(outDir, `${name}.png`) })
}

test('screenshots of the dashboard, a buble page and chat', async ({ page }) => {
  mkdirSync(outDir, { recursive: true })
  const request = page.request
  const ownerEmail = await registerByApi(page, 'Olivia Owner')
  const memberEmail = await registerByApi(page, 'Bob Member')
  const owner = await login(request, ownerEmail)
  const member = await login(request, memberEmail)

  const club = await call<{ id: string; slug: string }>(request, owner, 'POST', '/bubles', {
    name: 'Saturday Climbers',
  })
  await call(request, owner, 'POST', '/bubles', { name: 'Book Club' })
  const { code } = await call<{ code: string }>(request, owner, 'POST', `/bubles/${club.id}/invites`, {})
  await call(request, member, 'POST', `/bubles/invites/${code}/accept`)
  await call(request, owner, 'POST', `/wall/${club.id}/posts`, {
    content: 'Who is in for the north face on Saturday? Meeting at the car park at 8.',
  })
  await call(request, member, 'POST', `/wall/${club.id}/posts`, { content: 'Count me in! Bringing the spare rope.' })
  const soon = new Date(Date.now() + 3 * 24 * 3600 * 1000).toISOString()
  await call(request, owner, 'POST', `/bubles/${club.id}/events`, { title: 'North face', event_time: soon })
  for (const [who, text] of [
    [owner, 'Morning all, weather looks good for Saturday'],
    [member, 'Great, I will bring coffee'],
    [member, 'And the spare rope'],
    [owner, 'Perfect, see you at 8'],
  ] as const) {
    await call(request, who, 'POST', `/chat/${club.id}/messages`, { content: text })
  }

  await signIn(page, ownerEmail)
  for (const size of sizes) {
    await page.setViewportSize({ width: size.width, height: size.height })
    await page.goto('/dashboard')
    await expect(page.getByRole('heading', { name: 'Your Bubles' })).toBeVisible()
    await shoot(page, `dashboard-${size.name}`)
    await page.goto(`/bubles/${club.slug}`)
    await expect(page.getByText('Count me in! Bringing the spare rope.').first()).toBeVisible()
    await shoot(page, `buble-${size.name}`)
    await page.getByRole('button', { name: /^Chat/ }).first().click()
    await expect(page.getByText('Perfect, see you at 8').first()).toBeVisible()
    await shoot(page, `chat-${size.name}`)
  }
})
