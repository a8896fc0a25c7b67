import { expect, test } from '@playwright/test'
import { api, person, serviceWorkerReady } from './helpers.ts'

// Polls people trust (issue 23 §4, docs/decisions/0098), at phone width.
test.use({ viewport: { width: 360, height: 740 } })

test('a secret poll of several choices with a closing time: vote once, the choice is kept nowhere, results wait for the close', async ({
  browser,
}) => {
  const ann = await person(browser, 'Ann Asker')
  const page = ann.page
  const buble = await api<{ id: string; slug: string }>(page, 'POST', '/bubles', { name: `Polls ${Date.now()}` })
  await page.goto(`/bubles/${buble.slug}/polls`)
  await page.getByRole('button', { name: 'Create Poll' }).click()

  const form = page.getByRole('dialog', { name: 'Create Poll' })
  await form.getByLabel('Question').fill('Which evenings suit you?')
  await form.getByLabel('Option 1').fill('Monday')
  await form.getByLabel('Option 2').fill('Tuesday')
  await form.getByRole('button', { name: 'Add option' }).click()
  await form.getByLabel('Option 3').fill('Friday')
  // Two days from now, on the browser's own clock, as a datetime-local field takes it.
  const closes = await page.evaluate(() => {
    const at = new Date(Date.now() + 2 * 86_400_000)
    const pad = (n: number) => String(n).padStart(2, '0')
    return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T18:00`
  })
  await form.getByLabel('Closes at (optional)').fill(closes)
  for (const setting of ['Several choices', 'Results at close', 'Secret ballot'])
    await form.getByRole('checkbox', { name: setting }).check()
  await form.getByRole('button', { name: 'Create Poll' }).click()
  await expect(form).toHaveCount(0)

  const card = page.getByRole('article', { name: 'Which evenings suit you?' })
  for (const tag of ['Several choices', 'Secret ballot', 'Results at close'])
    await expect(card.getByText(tag, { exact: true })).toBeVisible()
  await expect(card.getByText(/^Closes /)).toBeVisible()
  await card.getByRole('checkbox', { name: 'Monday' }).check()
  await card.getByRole('checkbox', { name: 'Friday' }).check()
  await card.getByRole('button', { name: 'Vote', exact: true }).click()
  const confirm = page.getByRole('dialog', { name: 'Confirm vote' })
  await expect(confirm).toContainText('A secret vote is final')
  await confirm.getByRole('button', { name: 'Vote', exact: true }).click()

  await expect(card.getByText(/^You voted\. Your choice is secret/)).toBeVisible()
  await expect(card.getByText('Results show when the poll closes.')).toBeVisible()
  await expect(card.getByText('1 member voted')).toBeVisible()
  await expect(card.getByRole('button', { name: 'Change vote' })).toHaveCount(0)
  await expect(card.getByRole('checkbox')).toHaveCount(0)

  // On the server: voted, no choice named, no totals before the close.
  await expect
    .poll(async () => (await api<{ hasVoted: boolean }[]>(page, 'GET', `/bubles/${buble.id}/polls`))[0]?.hasVoted)
    .toBe(true)
  const [poll] = await api<Record<string, unknown>[]>(page, 'GET', `/bubles/${buble.id}/polls`)
  expect(poll).toMatchObject({ userVote: null, userVotes: [], totalVotes: null, votersCount: 1, secret: true })
  expect(ann.problems).toEqual([])
  await ann.close()
})

test('a vote made offline and sent after the poll closed is refused with when it closed, taken back, and kept as not saved', async ({
  browser,
}) => {
  const ann = await person(browser, 'Olle Offline')
  const page = ann.page
  const buble = await api<{ id: string; slug: string }>(page, 'POST', '/bubles', { name: `Late votes ${Date.now()}` })
  // Closes soon after the page is ready; the browser and the server share this machine's clock.
  const closesAt = Date.now() + 25_000
  await api(page, 'POST', `/bubles/${buble.id}/polls`, {
    question: 'Pizza or pasta?',
    options: ['Pizza', 'Pasta'],
    closes_at: new Date(closesAt).toISOString(),
  })
  await page.goto(`/bubles/${buble.slug}/polls`)
  const card = page.getByRole('article', { name: 'Pizza or pasta?' })
  await expect(card.getByText(/^Closes /)).toBeVisible()
  await serviceWorkerReady(page)
  await expect(page.getByRole('button', { name: 'Synced' })).toBeVisible()

  await ann.context.setOffline(true)
  await card.getByRole('button', { name: 'Pizza' }).click()
  await page.getByRole('dialog', { name: 'Confirm vote' }).getByRole('button', { name: 'Vote', exact: true }).click()
  await expect(page.getByRole('button', { name: 'Offline · 1 pending' })).toBeVisible()
  await expect(card.getByText('1 vote', { exact: true })).toBeVisible()

  // Online again only once the closing time has passed: the queued vote reaches a closed poll.
  await page.waitForTimeout(Math.max(0, closesAt - Date.now()) + 1_000)
  await ann.context.setOffline(false)
  await expect(page.getByText('Not saved: Failed to perform action')).toBeVisible({ timeout: 30_000 })
  await page.getByRole('button', { name: 'Details' }).click()
  const item = page
    .getByRole('dialog', { name: 'Sync status' })
    .getByRole('listitem', { name: 'Failed to perform action' })
  await expect(item.getByText(/^This poll closed at \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/)).toBeVisible()
  await page.keyboard.press('Escape')

  // Taken back on the device and never counted on the server; the card shows the final result.
  const [poll] = await api<{ hasVoted: boolean; totalVotes: number }[]>(page, 'GET', `/bubles/${buble.id}/polls`)
  expect(poll).toMatchObject({ hasVoted: false, totalVotes: 0 })
  await page.reload()
  await expect(card.getByText('Closed', { exact: true })).toBeVisible()
  await expect(card.getByText('No votes', { exact: true })).toBeVisible()
  await expect(card.getByRole('button', { name: 'Pizza' })).toHaveCount(0)

  // Offline, Chromium logs each request the network refused.
  expect(ann.problems.filter((problem) => !/ERR_INTERNET_DISCONNECTED/.test(problem))).toEqual([])
  await ann.close()
})
