import { expect, test } from '@playwright/test'
import sharp from 'sharp'
import { expectAccessible, registerByApi, signIn, storedSession, watchConsole } from './helpers.ts'

test.use({ viewport: { width: 360, height: 740 } })

/** A small PNG of one colour. */
const png = (background: string) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background } })
    .png()
    .toBuffer()

test('on a phone: a pinned post leads the wall; the Media tab opens a viewer that steps by key and by swipe', async ({
  page,
}) => {
  const problems = watchConsole(page)
  await signIn(page, await registerByApi(page, 'Pia Pinner'))
  const headers = { authorization: `Bearer ${(await storedSession(page)).state.token}` }

  // Set up through the API: a buble, a post with no image, then two with one.
  const buble = await (await page.request.post('/api/bubles', { headers, data: { name: `Pins ${Date.now()}` } })).json()
  const post = async (content: string, image?: string) => {
    let image_url: string | undefined
    if (image) {
      const up = await page.request.post('/api/uploads/image', {
        headers,
        multipart: {
          buble_id: buble.id,
          file: { name: 'photo.png', mimeType: 'image/png', buffer: await png(image) },
        },
      })
      expect(up.status()).toBe(201)
      image_url = (await up.json()).url
    }
    const res = await page.request.post(`/api/wall/${buble.id}/posts`, { headers, data: { content, image_url } })
    expect(res.status()).toBe(201)
  }
  await post('House rules: be kind')
  await post('Blue hour', '#2266aa')
  await post('Red sunset', '#aa2222')

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

  await test.step('the Media tab shows both images; the viewer moves with the arrow keys and a swipe', async () => {
    await page.getByRole('navigation', { name: 'Buble sections' }).getByRole('link', { name: 'Media' }).click()
    const tiles = page.getByRole('button', { name: /^Photo by Pia Pinner in a post$/ })
    await expect(tiles).toHaveCount(2)
    await expect(tiles.first().locator('img')).toBeVisible()
    await expectAccessible(page, 'the Media tab')
    await tiles.first().click()
    const viewer = page.getByRole('dialog', { name: 'Media viewer' })
    await expect(viewer.getByText('1 of 2')).toBeVisible()
    await expect(viewer.getByRole('img', { name: 'Photo by Pia Pinner in a post' })).toBeVisible()
    await expectAccessible(page, 'the media viewer')
    await page.keyboard.press('ArrowRight')
    await expect(viewer.getByText('2 of 2')).toBeVisible()

    // A swipe to the right goes back to the first.
    const stage = await viewer.locator('figure').boundingBox()
    if (!stage) throw new Error('the viewer has no stage')
    const y = stage.y + stage.height / 2
    await page.mouse.move(stage.x + 40, y)
    await page.mouse.down()
    await page.mouse.move(stage.x + 200, y, { steps: 5 })
    await page.mouse.up()
    await expect(viewer.getByText('1 of 2')).toBeVisible()

    await page.keyboard.press('Escape')
    await expect(viewer).toBeHidden()
  })

  expect(problems).toEqual([])
})
