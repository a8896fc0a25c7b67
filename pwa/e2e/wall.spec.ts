import { expect, test } from '@playwright/test'
import sharp from 'sharp'
import { countOnServer, inviteCode, join, person, postBy, serviceWorkerReady, wallTab, writePost } from './helpers.ts'

/** A small PNG, as a phone would pick it. */
const picture = async (colour: string) => ({
  name: 'photo.png',
  mimeType: 'image/png',
  buffer: await sharp({ create: { width: 64, height: 48, channels: 3, background: colour } })
    .png()
    .toBuffer(),
})

test('two members on the wall: image and link, live reactions and comments, edit and delete, offline posts arrive once, a story', async ({
  browser,
}) => {
  const ann = await person(browser, 'Ann Author')
  const ben = await person(browser, 'Ben Reader')
  const club = `Wall ${Date.now()}`
  let bubleId = ''

  await test.step('Ann makes a buble, Ben joins; the ticker is empty', async () => {
    await ann.page.getByRole('button', { name: 'Create New Buble' }).click()
    await ann.page.getByLabel('Buble Name').fill(club)
    await ann.page.getByRole('button', { name: 'Create Buble' }).click()
    await expect(ann.page).toHaveURL(/\/bubles\/wall-\d+$/)
    await expect(ann.page.getByRole('region', { name: 'Latest posts' })).toContainText(
      'No updates yet • Be the first to share something!',
    )
    const code = await inviteCode(ann.page)
    await join(ben.page, code, club)
    bubleId = await ann.page.evaluate(async (name) => {
      const token = JSON.parse(localStorage.getItem('auth-storage') ?? '{}').state?.token
      const res = await fetch('/api/bubles', { headers: { authorization: `Bearer ${token}` } })
      return ((await res.json()) as { id: string; name: string }[]).find((buble) => buble.name === name)?.id ?? ''
    }, club)
    expect(bubleId).not.toBe('')
    await wallTab(ann.page).click()
    await wallTab(ben.page).click()
    await expect(ben.page.getByRole('heading', { name: 'No posts yet' })).toBeVisible()
  })

  await test.step('Ann posts an image and a link; Ben sees it without a reload', async () => {
    await ann.page
      .getByRole('form', { name: 'New post' })
      .locator('input[type=file]')
      .setInputFiles(await picture('#2266aa'))
    await expect(ann.page.getByAltText('Preview of what you are posting')).toBeVisible()
    await writePost(ann.page, 'Midsummer plans: https://example.org/midsummer')
    const mine = postBy(ann.page, 'Ann Author', 'Midsummer plans')
    await expect(mine).toBeVisible()
    await expect(mine.getByRole('img', { name: 'Shared by Ann Author' })).toBeVisible()

    const seen = postBy(ben.page, 'Ann Author', 'Midsummer plans')
    await expect(seen).toBeVisible()
    await expect(seen.getByRole('link', { name: 'https://example.org/midsummer', exact: true })).toHaveAttribute(
      'href',
      'https://example.org/midsummer',
    )
    // The image is fetched with Ben's bearer token and decoded.
    const image = seen.getByRole('img', { name: 'Shared by Ann Author' })
    await expect(image).toBeVisible()
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64)
    // Only the author may edit or delete.
    await expect(seen.getByRole('button', { name: 'Edit post' })).toHaveCount(0)
    await expect(seen.getByRole('button', { name: 'Delete post' })).toHaveCount(0)
  })

  await test.step('Ben reacts and comments; Ann sees both live', async () => {
    const seen = postBy(ben.page, 'Ann Author', 'Midsummer plans')
    await seen.getByRole('button', { name: 'Love' }).click()
    await expect(seen.getByRole('button', { name: 'Love, 1' })).toBeVisible()
    await seen.getByRole('button', { name: '0 comments' }).click()
    await seen.getByRole('textbox', { name: 'Write a comment' }).fill('Count me in!')
    await seen.getByRole('button', { name: 'Comment', exact: true }).click()
    await expect(seen.getByRole('list', { name: 'Comments' })).toContainText('Count me in!')

    const mine = postBy(ann.page, 'Ann Author', 'Midsummer plans')
    await expect(mine.getByRole('button', { name: 'Love, 1' })).toBeVisible()
    await expect(mine.getByRole('button', { name: '1 comment' })).toBeVisible()
  })

  await test.step('Ann edits (marked edited on both screens) and deletes', async () => {
    const mine = postBy(ann.page, 'Ann Author', 'Midsummer plans')
    await mine.getByRole('button', { name: 'Edit post' }).click()
    await mine.getByRole('textbox', { name: 'Edit post' }).fill('Midsummer plans, now with herring')
    await mine.getByRole('button', { name: 'Save' }).click()
    await expect(postBy(ben.page, 'Ann Author', 'now with herring')).toContainText('(edited)')
    await postBy(ann.page, 'Ann Author', 'now with herring').getByRole('button', { name: 'Delete post' }).click()
    await ann.page.getByRole('dialog', { name: 'Delete post?' }).getByRole('button', { name: 'Delete post' }).click()
    await expect(postBy(ann.page, 'Ann Author', 'now with herring')).toHaveCount(0)
    await expect(postBy(ben.page, 'Ann Author', 'now with herring')).toHaveCount(0)
  })

  await test.step('offline, Ann writes three posts and a comment; they survive a reload and arrive once', async () => {
    await writePost(ann.page, 'Before the tunnel')
    await expect(postBy(ben.page, 'Ann Author', 'Before the tunnel')).toBeVisible()
    await serviceWorkerReady(ann.page)
    await expect(ann.page.getByRole('button', { name: 'Synced' })).toBeVisible()
    await ann.context.setOffline(true)
    for (const text of ['Tunnel one', 'Tunnel two', 'Tunnel three']) await writePost(ann.page, text)
    const before = postBy(ann.page, 'Ann Author', 'Before the tunnel')
    await before.getByRole('button', { name: '0 comments' }).click()
    await before.getByRole('textbox', { name: 'Write a comment' }).fill('Still underground')
    await before.getByRole('button', { name: 'Comment', exact: true }).click()
    await expect(ann.page.getByRole('button', { name: 'Offline · 4 pending' })).toBeVisible()

    await ann.page.reload()
    for (const text of ['Tunnel one', 'Tunnel two', 'Tunnel three'])
      await expect(postBy(ann.page, 'Ann Author', text)).toContainText('Sending…')
    await expect(postBy(ben.page, 'Ann Author', 'Tunnel one')).toHaveCount(0)

    await ann.context.setOffline(false)
    await expect(ann.page.getByRole('button', { name: 'Synced' })).toBeVisible()
    for (const text of ['Tunnel one', 'Tunnel two', 'Tunnel three']) {
      await expect(postBy(ben.page, 'Ann Author', text)).toHaveCount(1)
      expect(await countOnServer(ben.page, bubleId, text)).toBe(1)
    }
    await expect(
      postBy(ben.page, 'Ann Author', 'Before the tunnel').getByRole('button', { name: '1 comment' }),
    ).toBeVisible()
    // A request in flight when the network went away fails, and Chromium logs it: that is the network.
    ann.problems.splice(
      0,
      ann.problems.length,
      ...ann.problems.filter((problem) => !/ERR_INTERNET_DISCONNECTED/.test(problem)),
    )
  })

  await test.step('the ticker shows the latest posts', async () => {
    await ben.page
      .getByRole('navigation', { name: 'Buble sections' })
      .getByRole('link', { name: /^Overview/ })
      .click()
    const ticker = ben.page.getByRole('region', { name: 'Latest posts' })
    await expect(ticker).toContainText('Tunnel three')
    await expect(ticker.getByRole('link', { name: 'View All' })).toBeVisible()
  })

  await test.step('Ann shares a story; Ben views it', async () => {
    await ann.page
      .getByRole('navigation', { name: 'Buble sections' })
      .getByRole('link', { name: /^Overview/ })
      .click()
    await ann.page
      .getByRole('list', { name: 'Stories' })
      .locator('input[type=file]')
      .setInputFiles(await picture('#cc3355'))
    const ring = ben.page.getByRole('button', { name: /^Stories by Ann Author/ })
    await expect(ring).toBeVisible()
    await ring.click()
    const viewer = ben.page.getByRole('dialog', { name: 'Story by Ann Author' })
    await expect(viewer).toBeVisible()
    const media = viewer.getByRole('img', { name: 'Story by Ann Author' })
    await expect.poll(() => media.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64)
    await ben.page.keyboard.press('Escape')
    await expect(viewer).toHaveCount(0)
  })

  expect(ann.problems).toEqual([])
  expect(ben.problems).toEqual([])
  await ann.close()
  await ben.close()
})
