import { expect, type Route, test } from '@playwright/test'
import { countOnServer, person, postBy, wallTab, writePost } from './helpers.ts'

interface PushedMutation {
  id: string
  args: { content?: string }
}

test('a mutation the server keeps failing is set aside as not saved at 360 px; the rest is saved, and Retry sends it again', async ({
  browser,
}) => {
  // The engine waits between tries (up to 1 + 2 + 4 + 8 + 16 s) before it sets the culprit aside.
  test.setTimeout(180_000)
  const pat = await person(browser, 'Pat Poster')
  await pat.page.setViewportSize({ width: 360, height: 740 })
  const club = `Queue ${Date.now()}`
  let bubleId = ''
  // The mutation the server fails with: every push that carries it answers 500, as a server whose
  // handler throws outside the mutation's own savepoint would, and nothing in that push is saved.
  let poisonId: string | null = null
  const pushes: string[][] = []
  let triesBeforeRetry = 0

  await test.step('Pat makes a buble and opens its wall', async () => {
    await pat.page.getByRole('button', { name: 'Create New Buble' }).click()
    await pat.page.getByLabel('Buble Name').fill(club)
    await pat.page.getByRole('button', { name: 'Create Buble' }).click()
    // The server's slug in the address: the buble is saved there.
    await expect(pat.page).toHaveURL(/\/bubles\/queue-\d+$/)
    bubleId = await pat.page.evaluate(async (name) => {
      const token = JSON.parse(localStorage.getItem('auth-storage') ?? '{}').state?.token
      const res = await fetch('/api/bubles', { headers: { authorization: `Bearer ${token}` } })
      return ((await res.json()) as { id: string; name: string }[]).find((buble) => buble.name === name)?.id ?? ''
    }, club)
    expect(bubleId).not.toBe('')
    await wallTab(pat.page).click()
    await expect(pat.page.getByRole('heading', { name: 'No posts yet' })).toBeVisible()
  })

  await test.step('one post fails on the server every time; the one written after it is saved all the same', async () => {
    await pat.context.route('**/api/sync/push', async (route: Route) => {
      const { mutations } = route.request().postDataJSON() as { mutations: PushedMutation[] }
      pushes.push(mutations.map((m) => m.id))
      poisonId ??= mutations.find((m) => m.args.content === 'This one breaks the server')?.id ?? null
      if (poisonId && mutations.some((m) => m.id === poisonId))
        return route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ message: 'Internal server error', code: 'INTERNAL_ERROR' }),
        })
      return route.continue()
    })
    await writePost(pat.page, 'This one breaks the server')
    await expect(postBy(pat.page, 'Pat Poster', 'This one breaks the server')).toContainText('Sending…')
    await writePost(pat.page, 'This one is fine')

    await expect(pat.page.getByText('Not saved: Failed to create post')).toBeVisible({ timeout: 90_000 })
    await expect(pat.page.getByRole('button', { name: /1 not saved/ })).toBeVisible()
    await expect(postBy(pat.page, 'Pat Poster', 'This one breaks the server')).toHaveCount(0)
    await expect(postBy(pat.page, 'Pat Poster', 'This one is fine')).not.toContainText('Sending…')
    await expect.poll(() => countOnServer(pat.page, bubleId, 'This one is fine')).toBe(1)
    expect(await countOnServer(pat.page, bubleId, 'This one breaks the server')).toBe(0)
    // Set aside after three tries alone (and at most three with its batch before).
    const carrying = pushes.filter((ids) => ids.includes(poisonId!))
    expect(carrying.slice(-3).map((ids) => ids.length)).toEqual([1, 1, 1])
    expect(carrying.length).toBeLessThanOrEqual(6)
    triesBeforeRetry = carrying.length
  })

  await test.step('the not-saved list keeps its text, fits 360 px, and Retry sends it as a new change', async () => {
    await pat.page.getByRole('button', { name: 'Details' }).click()
    const dialog = pat.page.getByRole('dialog', { name: 'Sync status' })
    const item = dialog.getByRole('listitem', { name: 'Failed to create post' })
    await expect(item.getByText('The server failed to save this change.')).toBeVisible()
    await expect(item.getByText('This one breaks the server')).toBeVisible()
    for (const name of ['Copy text', 'Discard', 'Retry']) await expect(item.getByRole('button', { name })).toBeVisible()
    expect(await pat.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
    const box = await item.boundingBox()
    expect(box && box.x >= 0 && box.x + box.width <= 360).toBe(true)

    // From the keyboard, as anyone without a pointer would.
    await item.getByRole('button', { name: 'Retry' }).focus()
    await pat.page.keyboard.press('Enter')
    await expect(dialog.getByRole('listitem')).toHaveCount(0)
    await expect(dialog.getByRole('heading', { name: 'Not saved' })).toBeFocused()
    await pat.page.keyboard.press('Escape')
    await expect(postBy(pat.page, 'Pat Poster', 'This one breaks the server')).toBeVisible()
    await expect.poll(() => countOnServer(pat.page, bubleId, 'This one breaks the server')).toBe(1)
    await expect(postBy(pat.page, 'Pat Poster', 'This one breaks the server')).not.toContainText('Sending…')
    await expect(pat.page.getByRole('button', { name: 'Synced' })).toBeVisible()
  })

  // No retry loop: the failed mutation itself never went again; Retry sent a new one.
  expect(pushes.filter((ids) => ids.includes(poisonId!))).toHaveLength(triesBeforeRetry)
  await pat.context.unroute('**/api/sync/push')
  // The browser reports each 500 it was answered; the app itself logged nothing.
  expect(pat.problems.filter((problem) => !/status of 500/.test(problem))).toEqual([])
  await pat.close()
})
