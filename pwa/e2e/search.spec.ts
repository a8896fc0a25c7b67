/** Search in a buble at phone size (issue 23 §2): hits marked, opened in place, and found offline. */

import { expect, type Page, test } from '@playwright/test'
import { expectAccessible, person } from './helpers.ts'

test.use({ viewport: { width: 360, height: 740 } })

/** A call of the API with the page's own session. */
async function api<T>(page: Page, path: string, data: unknown): Promise<T> {
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('auth-storage') ?? '{}').state?.token)
  const res = await page.request.post(`/api${path}`, { data, headers: { authorization: `Bearer ${token}` } })
  expect(res.ok(), path).toBe(true)
  return (await res.json()) as T
}

const searchDialog = (page: Page, club: string) => page.getByRole('dialog', { name: `Search ${club}` })
const hits = (page: Page) => page.getByRole('list', { name: 'Results' })

async function search(page: Page, club: string, words: string) {
  await page.getByRole('button', { name: 'Search', exact: true }).click()
  const box = searchDialog(page, club).getByRole('searchbox')
  await expect(box).toBeFocused()
  await box.fill(words)
}

test('a search finds a post, a chat message and a poll with the words marked, and opens each in place; offline it searches the device', async ({
  browser,
}) => {
  const ann = await person(browser, 'Ann Search')
  const { page } = ann
  const club = `Cabin Club ${Date.now()}`
  const buble = await api<{ id: string }>(page, '/bubles', { name: club })
  // The post searched for, then a page and a half of newer ones: it is not on the wall's first page.
  const post = await api<{ id: string }>(page, `/wall/${buble.id}/posts`, { content: 'Cloudberry jam at the cabin' })
  for (let i = 1; i <= 14; i++) await api(page, `/wall/${buble.id}/posts`, { content: `Note ${i}` })
  const message = await api<{ id: string }>(page, `/chat/${buble.id}/messages`, { content: 'Who drives to the cabin?' })
  const poll = await api<{ id: string }>(page, `/bubles/${buble.id}/polls`, {
    question: 'Which day for the dinner?',
    options: ['Friday', 'Saturday'],
  })
  await page.goto(`/bubles/${buble.id}`)
  await expect(page.getByRole('heading', { level: 1, name: club })).toBeVisible()

  await test.step('Both hits show where they are, with the word marked', async () => {
    await search(page, club, 'cabin')
    const list = hits(page)
    await expect(list.getByRole('button')).toHaveCount(2)
    await expect(list.getByRole('button').nth(0)).toContainText('Chat')
    await expect(list.getByRole('button').nth(1)).toContainText('Wall post')
    await expect(list.locator('mark')).toHaveText(['cabin', 'cabin'])
    await expectAccessible(page, 'search results')
  })

  await test.step('The post opens on the wall, scrolled to and marked', async () => {
    await hits(page)
      .getByRole('button', { name: /Wall post/ })
      .click()
    await expect(page).toHaveURL(new RegExp(`/wall\\?post=${post.id}$`))
    const item = page.locator(`#post-${post.id}`)
    await expect(item).toHaveClass(/found-item/)
    await expect(item).toBeInViewport()
  })

  await test.step('The chat message opens in the chat, marked', async () => {
    await search(page, club, 'drives')
    await hits(page).getByRole('button', { name: /Chat/ }).click()
    const found = page.locator(`[data-message-id="${message.id}"]`)
    await expect(found).toHaveClass(/found-item/)
    await expect(found).toBeInViewport()
    await page.getByRole('button', { name: 'Close chat' }).click()
  })

  await test.step('A poll opens in the polls tab, marked', async () => {
    await search(page, club, 'dinner')
    await hits(page).getByRole('button', { name: /Poll/ }).click()
    await expect(page).toHaveURL(new RegExp(`/polls\\?item=${poll.id}$`))
    await expect(page.locator(`#item-${poll.id}`)).toHaveClass(/found-item/)
  })

  await test.step('Offline, the device still finds the post', async () => {
    await ann.context.setOffline(true)
    await search(page, club, 'cloudberry')
    await expect(searchDialog(page, club)).toContainText('You are offline: these results are from this device.')
    await expect(hits(page).locator('mark')).toHaveText(['Cloudberry'])
    await searchDialog(page, club).getByRole('searchbox').fill('zzzz')
    await expect(searchDialog(page, club).getByRole('heading', { name: 'No results' })).toBeVisible()
    await ann.context.setOffline(false)
  })

  expect(ann.problems).toEqual([])
  await ann.close()
})
