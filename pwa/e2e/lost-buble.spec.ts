import { expect, type Page, test } from '@playwright/test'
import sharp from 'sharp'
import { inviteCode, join, person, postBy, serviceWorkerReady, wallTab, writePost } from './helpers.ts'

/** Issue 22 §4: a buble lost from the device leaves nothing there, its files included. */

const picture = async (colour: string) => ({
  name: 'photo.png',
  mimeType: 'image/png',
  buffer: await sharp({ create: { width: 64, height: 48, channels: 3, background: colour } })
    .png()
    .toBuffer(),
})

const sessionOf = (page: Page) =>
  page.evaluate(() => {
    const state = JSON.parse(localStorage.getItem('auth-storage') ?? '{}').state
    return { token: state?.token as string, userId: state?.user?.id as string }
  })

/** The names of the Cache Storage caches holding this buble's files. */
const fileCachesOf = (page: Page, bubleId: string) =>
  page.evaluate(async (id) => (await caches.keys()).filter((name) => name.endsWith(`:files:${id}`)), bubleId)

/** How many rows of the buble each device table holds, read straight from IndexedDB. */
const rowsOnDevice = (page: Page, userId: string, bubleId: string) =>
  page.evaluate(
    async ({ userId, bubleId }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(`buble-${userId}`)
        open.onsuccess = () => resolve(open.result)
        open.onerror = () => reject(open.error)
      })
      const tables = ['bubles', 'members', 'posts', 'comments', 'events', 'polls', 'chat_messages', 'stories', 'unread']
      const counts: Record<string, number> = {}
      const tx = db.transaction(tables, 'readonly')
      for (const table of tables) {
        const store = tx.objectStore(table)
        const request = table === 'bubles' ? store.count(bubleId) : store.index('buble_id').count(bubleId)
        counts[table] = await new Promise<number>((resolve, reject) => {
          request.onsuccess = () => resolve(request.result)
          request.onerror = () => reject(request.error)
        })
      }
      db.close()
      return counts
    },
    { userId, bubleId },
  )

test('a member removed while offline with a queued post: the buble, its rows and its files leave the device, the post is not saved with its text', async ({
  browser,
}) => {
  const olga = await person(browser, 'Olga Owner')
  const mia = await person(browser, 'Mia Member')
  const club = `Lost ${Date.now()}`
  let bubleId = ''

  await test.step('Olga makes a buble and posts an image; Mia joins', async () => {
    await olga.page.getByRole('button', { name: 'Create New Buble' }).click()
    await olga.page.getByLabel('Buble Name').fill(club)
    await olga.page.getByRole('button', { name: 'Create Buble' }).click()
    await expect(olga.page).toHaveURL(/\/bubles\/lost-\d+$/)
    const { token } = await sessionOf(olga.page)
    const res = await olga.page.request.get('/api/bubles', { headers: { authorization: `Bearer ${token}` } })
    bubleId = ((await res.json()) as { id: string; name: string }[]).find((buble) => buble.name === club)?.id ?? ''
    expect(bubleId).not.toBe('')
    await join(mia.page, await inviteCode(olga.page), club)
    await wallTab(olga.page).click()
    await olga.page
      .getByRole('form', { name: 'New post' })
      .locator('input[type=file]')
      .setInputFiles(await picture('#2266aa'))
    await expect(olga.page.getByAltText('Preview of what you are posting')).toBeVisible()
    await writePost(olga.page, 'A picture for the club')
    await expect(postBy(olga.page, 'Olga Owner', 'A picture for the club')).not.toContainText('Sending…')
  })

  const bublePage = mia.page.url()
  const image = postBy(mia.page, 'Olga Owner', 'A picture for the club').getByRole('img', {
    name: 'Shared by Olga Owner',
  })

  await test.step('Mia sees the image, through the service worker, which keeps it in the buble’s cache', async () => {
    await serviceWorkerReady(mia.page)
    await mia.page.reload()
    await wallTab(mia.page).click()
    await expect(image).toBeVisible()
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64)
    await expect.poll(() => fileCachesOf(mia.page, bubleId)).toHaveLength(1)
  })

  await test.step('offline, after a reload, Mia still sees the image, and writes a post that waits', async () => {
    await mia.context.setOffline(true)
    await mia.page.goto(bublePage)
    await wallTab(mia.page).click()
    await expect(image).toBeVisible()
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64)
    await writePost(mia.page, 'Queued before I was removed')
    await expect(postBy(mia.page, 'Mia Member', 'Queued before I was removed')).toContainText('Sending…')
  })

  const { userId } = await sessionOf(mia.page)

  await test.step('Olga removes Mia', async () => {
    const { token } = await sessionOf(olga.page)
    const res = await olga.page.request.delete(`/api/bubles/${bubleId}/members/remove`, {
      headers: { authorization: `Bearer ${token}` },
      data: { userId },
    })
    expect(res.status()).toBe(200)
  })

  await test.step('back online: the buble, its rows and its files are gone from Mia’s device', async () => {
    await mia.context.setOffline(false)
    await expect
      .poll(() => rowsOnDevice(mia.page, userId, bubleId), { timeout: 30_000 })
      .toEqual({
        bubles: 0,
        members: 0,
        posts: 0,
        comments: 0,
        events: 0,
        polls: 0,
        chat_messages: 0,
        stories: 0,
        unread: 0,
      })
    await expect.poll(() => fileCachesOf(mia.page, bubleId), { timeout: 30_000 }).toEqual([])
    expect(await mia.page.evaluate(() => caches.keys())).not.toContainEqual(expect.stringContaining(bubleId))
  })

  await test.step('the queued post is in the Not saved list, with its text', async () => {
    await mia.page.goto('/dashboard')
    await expect(mia.page.getByRole('heading', { name: 'Your Bubles' })).toBeVisible()
    await expect(mia.page.getByText(club)).toHaveCount(0)
    await mia.page.getByRole('button', { name: /1 not saved/ }).click()
    const dialog = mia.page.getByRole('dialog', { name: 'Sync status' })
    await expect(dialog.getByRole('heading', { name: 'Not saved' })).toBeVisible()
    await expect(dialog.getByRole('listitem')).toHaveCount(1)
    await expect(dialog.getByRole('listitem')).toContainText('Queued before I was removed')
  })

  // Offline, Chromium logs each request the network refused; removed, the buble's own calls answer 404.
  const unexpected = (problem: string) => !/ERR_INTERNET_DISCONNECTED|status of 404/.test(problem)
  expect(mia.problems.filter(unexpected)).toEqual([])
  expect(olga.problems).toEqual([])
  await mia.close()
  await olga.close()
})
