import { readFile } from 'node:fs/promises'
import { expect, test } from '@playwright/test'
import { unzipSync } from 'fflate'
import sharp from 'sharp'
import { person } from './helpers.ts'

test('a member with a post downloads their data from the profile and the ZIP holds it', async ({ browser }) => {
  const dana = await person(browser, 'Dana Download')
  const { page } = dana
  const club = `Export ${Date.now()}`

  await test.step('Dana makes a buble and posts with a picture', async () => {
    await page.getByRole('button', { name: 'Create New Buble' }).click()
    await page.getByLabel('Buble Name').fill(club)
    await page.getByRole('button', { name: 'Create Buble' }).click()
    await expect(page.getByRole('heading', { level: 1, name: club })).toBeVisible()
    await page.getByRole('navigation', { name: 'Buble sections' }).getByRole('link', { name: /^Wall/ }).click()
    await expect(page.getByRole('heading', { name: 'No posts yet' })).toBeVisible()
    // A buble made a moment ago may not be on the server yet, and until then it cannot own an upload.
    const fileInput = page.getByRole('form', { name: 'New post' }).locator('input[type=file]')
    await expect(fileInput).toBeEnabled()
    const picture = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#aa6622' } })
      .png()
      .toBuffer()
    await fileInput.setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: picture })
    await expect(page.getByAltText('Preview of what you are posting')).toBeVisible()
    await page.getByRole('textbox', { name: 'Write a post' }).fill('Exported thoughts')
    await page.getByRole('form', { name: 'New post' }).getByRole('button', { name: 'Post' }).click()
    await expect(page.getByRole('article', { name: 'Post by Dana Download' })).toContainText('Exported thoughts')
    // Posting is offline-first: wait until the server has it.
    await expect
      .poll(() =>
        page.evaluate(async () => {
          const token = JSON.parse(localStorage.getItem('auth-storage') ?? '{}').state?.token
          const headers = { authorization: `Bearer ${token}` }
          const [buble] = (await (await fetch('/api/bubles', { headers })).json()) as { id: string }[]
          const answer = await fetch(`/api/wall/${buble?.id}/posts?page=1&limit=10`, { headers })
          const { posts } = (await answer.json()) as { posts: { content: string; image_url: string | null }[] }
          return posts.map((post) => [post.content, post.image_url !== null])
        }),
      )
      .toEqual([['Exported thoughts', true]])
  })

  await test.step('the profile downloads the ZIP, by keyboard', async () => {
    await page.goto('/profile')
    const section = page.getByRole('region', { name: 'Download my data' })
    const button = section.getByRole('button', { name: 'Download my data' })
    await expect(button).toBeEnabled()
    await button.focus()
    const downloading = page.waitForEvent('download')
    await page.keyboard.press('Enter')
    const download = await downloading
    expect(download.suggestedFilename()).toMatch(/^buble-data-\d{4}-\d{2}-\d{2}\.zip$/)
    await expect(section.getByText('Your data has been downloaded.')).toBeVisible()

    const archive = unzipSync(new Uint8Array(await readFile(await download.path())))
    const read = (name: string) => JSON.parse(new TextDecoder().decode(archive[name]))
    expect(Object.keys(archive)).toEqual(expect.arrayContaining(['README.txt', 'profile.json', 'posts.json']))
    expect(read('profile.json')).toMatchObject({ email: dana.email, name: 'Dana Download' })
    const posts = read('posts.json') as { content: string; image_url: string }[]
    expect(posts.map((post) => post.content)).toEqual(['Exported thoughts'])
    expect(read('memberships.json')).toEqual([expect.objectContaining({ name: club, role: 'owner' })])
    const image = posts[0]!.image_url.split('/').pop()
    expect(archive[`files/${image}`]?.length).toBeGreaterThan(0)
  })

  expect(dana.problems).toEqual([])
  await dana.close()
})
