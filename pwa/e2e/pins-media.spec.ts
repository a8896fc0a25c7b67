import { expect, type Page, test } from '@playwright/test'
import sharp from 'sharp'
import {
  accessToken,
  api,
  bubleTabs,
  bubleWith,
  expectAccessible,
  person,
  registerByApi,
  signIn,
  watchConsole,
} from './helpers.ts'

test.use({ viewport: { width: 360, height: 740 } })

/** A small PNG of one colour. */
const png = (background: string) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background } })
    .png()
    .toBuffer()

/** Uploads a PNG of one colour into `bubleId` with the page's session; its URL. */
async function uploadPng(page: Page, bubleId: string, route: 'image' | 'story', colour: string, name = 'photo.png') {
  const up = await page.request.post(`/api/uploads/${route}`, {
    headers: { authorization: `Bearer ${await accessToken(page)}` },
    multipart: { buble_id: bubleId, file: { name, mimeType: 'image/png', buffer: await png(colour) } },
  })
  expect(up.status()).toBe(201)
  return (await up.json()).url as string
}

test('on a phone: a pinned post leads the wall; the Media tab gathers posts, chat and stories, and its viewer steps by key and by mouse or touch swipe', async ({
  page,
}) => {
  const problems = watchConsole(page)
  await signIn(page, await registerByApi(page, 'Pia Pinner'))
  const headers = { authorization: `Bearer ${await accessToken(page)}` }

  // Set up through the API: a buble, a post with no image, then two with one.
  const buble = await (await page.request.post('/api/bubles', { headers, data: { name: `Pins ${Date.now()}` } })).json()
  const upload = (route: 'image' | 'story', colour: string) => uploadPng(page, buble.id, route, colour)
  const post = async (content: string, image?: string) => {
    const image_url = image ? await upload('image', image) : undefined
    const res = await page.request.post(`/api/wall/${buble.id}/posts`, { headers, data: { content, image_url } })
    expect(res.status()).toBe(201)
  }
  await post('House rules: be kind')
  await post('Blue hour', '#2266aa')
  await post('Red sunset', '#aa2222')
  // A photo in the chat, then a story: the gallery gathers all three sources.
  const chat = await page.request.post(`/api/chat/${buble.id}/messages`, {
    headers,
    data: { image_url: await upload('image', '#22aa44') },
  })
  expect(chat.status()).toBe(201)
  const story = await page.request.post('/api/stories', {
    headers,
    data: { buble_id: buble.id, media_url: await upload('story', '#aaaa22'), media_type: 'image' },
  })
  expect(story.status()).toBe(201)

  await test.step('pinning the oldest post moves it to the top of the wall and onto the overview', async () => {
    await page.goto(`/bubles/${buble.slug}/wall`)
    const posts = page.getByRole('list', { name: 'Posts' }).getByRole('article')
    await expect(posts.first()).toContainText('Red sunset')
    const rules = page.getByRole('article', { name: 'Post by Pia Pinner' }).filter({ hasText: 'House rules' })
    await rules.getByRole('button', { name: 'Pin to top' }).click()
    const pinned = page.getByRole('list', { name: 'Pinned posts' })
    await expect(pinned.getByRole('article')).toHaveCount(1)
    await expect(pinned.getByRole('article').first()).toContainText('House rules: be kind')
    await expect(pinned.getByRole('button', { name: 'Unpin' })).toBeVisible()
    await expectAccessible(page, 'the wall with a pin')
    await expect
      .poll(
        async () =>
          (await (await page.request.get(`/api/wall/${buble.id}/posts/pinned`, { headers })).json()).posts.length,
      )
      .toBe(1)
    await page.getByRole('navigation', { name: 'Buble sections' }).getByRole('link', { name: 'Overview' }).click()
    await expect(page.getByRole('region', { name: 'Pinned posts' })).toContainText('House rules: be kind')
  })

  await test.step('the Media tab shows the story, chat and post images; the viewer moves by key, by mouse and by touch swipe', async () => {
    await page.getByRole('navigation', { name: 'Buble sections' }).getByRole('link', { name: 'Media' }).click()
    const grid = page.getByRole('region', { name: 'Media' })
    const tiles = grid.getByRole('button', { name: /^Photo by Pia Pinner in / })
    await expect(tiles).toHaveCount(4)
    await expect
      .poll(() => tiles.evaluateAll((all) => all.map((tile) => tile.getAttribute('aria-label'))))
      .toEqual([
        'Photo by Pia Pinner in a story',
        'Photo by Pia Pinner in the chat',
        'Photo by Pia Pinner in a post',
        'Photo by Pia Pinner in a post',
      ])
    await expect(tiles.first().locator('img')).toBeVisible()
    await expectAccessible(page, 'the Media tab')
    await tiles.nth(2).click()
    const viewer = page.getByRole('dialog', { name: 'Media viewer' })
    await expect(viewer.getByText('3 of 4')).toBeVisible()
    await expect(viewer.getByRole('img', { name: 'Photo by Pia Pinner in a post' })).toBeVisible()
    await expectAccessible(page, 'the media viewer')
    await page.keyboard.press('ArrowRight')
    await expect(viewer.getByText('4 of 4')).toBeVisible()

    // A swipe to the right goes back one: by mouse (pointer events)… The stage is measured once its
    // photo has loaded (an <img>, no longer the placeholder), where a finger would find it.
    await expect(viewer.locator('figure img')).toBeVisible()
    const stage = await viewer.locator('figure').boundingBox()
    if (!stage) throw new Error('the viewer has no stage')
    const y = stage.y + stage.height / 2
    await page.mouse.move(stage.x + 40, y)
    await page.mouse.down()
    await page.mouse.move(stage.x + 200, y, { steps: 5 })
    await page.mouse.up()
    await expect(viewer.getByText('3 of 4')).toBeVisible()

    // …and by a finger: touch events as a phone sends them, left to go on, right to go back.
    const cdp = await page.context().newCDPSession(page)
    const swipe = async (fromX: number, toX: number) => {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: fromX, y }] })
      for (let step = 1; step <= 5; step++)
        await cdp.send('Input.dispatchTouchEvent', {
          type: 'touchMove',
          touchPoints: [{ x: fromX + ((toX - fromX) * step) / 5, y }],
        })
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
    }
    await swipe(stage.x + 200, stage.x + 40)
    await expect(viewer.getByText('4 of 4')).toBeVisible()
    await swipe(stage.x + 40, stage.x + 200)
    await expect(viewer.getByText('3 of 4')).toBeVisible()
    // The stage keeps its size and place whatever it shows, loaded or not.
    expect(await viewer.locator('figure').boundingBox()).toEqual(stage)
    await swipe(stage.x + 40, stage.x + 200)
    await expect(viewer.getByText('2 of 4')).toBeVisible()
    await expect(viewer.getByRole('img', { name: 'Photo by Pia Pinner in the chat' })).toBeVisible()
    await cdp.detach()

    await page.keyboard.press('Escape')
    await expect(viewer).toBeHidden()
  })

  expect(problems).toEqual([])
})

test('on a phone: the owner grants Pin posts in the member modal, and that member pins a post', async ({ browser }) => {
  const olga = await person(browser, 'Olga Owner')
  const mo = await person(browser, 'Mo Member')
  const buble = await bubleWith(olga, 'Pin rights', [mo])
  await api(olga.page, 'POST', `/wall/${buble.id}/posts`, { content: 'Meet at the north gate' })

  await test.step('a plain member has no Pin button', async () => {
    await mo.page.goto(`/bubles/${buble.slug}/wall`)
    await expect(mo.page.getByRole('article').filter({ hasText: 'Meet at the north gate' })).toBeVisible()
    await expect(mo.page.getByRole('button', { name: 'Pin to top' })).toHaveCount(0)
  })

  await test.step('the member modal shows Pin posts; the owner ticks it and saves', async () => {
    await olga.page.goto(`/bubles/${buble.slug}`)
    await bubleTabs(olga.page)
      .getByRole('link', { name: /^Members/ })
      .click()
    await olga.page.getByRole('button', { name: 'Manage Mo Member' }).click()
    const dialog = olga.page.getByRole('dialog', { name: 'Manage Member' })
    const box = dialog.getByRole('checkbox', { name: 'Pin posts' })
    await expect(box).not.toBeChecked()
    await expect(box).toHaveAccessibleDescription('Pin up to 3 posts to the top of the wall')
    await box.check()
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect(dialog.getByText('Member role updated successfully')).toBeVisible()
  })

  await test.step('the member, with no reload, pins the post: it leads the wall for both', async () => {
    const post = mo.page.getByRole('article').filter({ hasText: 'Meet at the north gate' })
    await post.getByRole('button', { name: 'Pin to top' }).click()
    const pinned = mo.page.getByRole('list', { name: 'Pinned posts' })
    await expect(pinned.getByRole('article')).toContainText('Meet at the north gate')
    await expect
      .poll(async () => (await api<{ posts: unknown[] }>(mo.page, 'GET', `/wall/${buble.id}/posts/pinned`)).posts)
      .toHaveLength(1)
    await olga.page.goto(`/bubles/${buble.slug}/wall`)
    await expect(olga.page.getByRole('list', { name: 'Pinned posts' })).toContainText('Meet at the north gate')
  })

  expect(olga.problems).toEqual([])
  expect(mo.problems).toEqual([])
  await olga.close()
  await mo.close()
})

test('on a phone: the Media tab fetches only the files near the screen, and the next page when its end comes near', async ({
  browser,
}) => {
  const pia = await person(browser, 'Pia Pager')
  const page = pia.page
  const buble = await bubleWith(pia, 'Many photos', [])
  // Thirty photos: more than a page (24), more than a phone's screen shows.
  for (let n = 0; n < 30; n++) {
    const colour = `#${(n * 8).toString(16).padStart(2, '0')}4488`
    const image_url = await uploadPng(page, buble.id, 'image', colour, `photo-${n}.png`)
    await api(page, 'POST', `/wall/${buble.id}/posts`, { content: `Photo ${n}`, image_url })
  }
  const pages: string[] = []
  page.on('request', (request) => {
    if (/\/api\/bubles\/[^/]+\/media/.test(request.url())) pages.push(new URL(request.url()).search)
  })

  await page.goto(`/bubles/${buble.slug}`)
  await bubleTabs(page).getByRole('link', { name: 'Media' }).click()
  const tiles = page.getByRole('region', { name: 'Media' }).getByRole('button', { name: /^Photo by Pia Pager/ })
  await expect(tiles).toHaveCount(24)
  await expect(tiles.first().locator('img')).toBeVisible()
  // The tiles below the screen have not fetched their files, and the second page waits.
  const withImage = () => tiles.evaluateAll((all) => all.filter((tile) => tile.querySelector('img')).length)
  expect(await withImage()).toBeLessThan(24)
  await expect(tiles.last().locator('img')).toHaveCount(0)
  expect(pages).toEqual([''])

  // Scrolled to the end: the next page comes by itself, and the files of the tiles now near load.
  await tiles.last().scrollIntoViewIfNeeded()
  await expect(tiles).toHaveCount(30)
  expect(pages).toHaveLength(2)
  expect(pages[1]).toMatch(/^\?before=/)
  await tiles.last().scrollIntoViewIfNeeded()
  await expect(tiles.last().locator('img')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0)

  expect(pia.problems).toEqual([])
  await pia.close()
})
