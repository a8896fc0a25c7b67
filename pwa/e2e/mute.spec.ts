/**
 * Muting at phone size (issue 24 §2): the owner mutes a member for a day from the members tab; the
 * member's post written offline before they knew is refused with the words and kept as not saved;
 * the banner says until when, the composer gives way; Unmute gives it back.
 */

import { expect, test } from '@playwright/test'
import {
  bubleTabs,
  bubleWith,
  countOnServer,
  expectAccessible,
  type Person,
  person,
  serviceWorkerReady,
  wallTab,
  writePost,
} from './helpers.ts'

test.use({ viewport: { width: 390, height: 844 } })

const MUTED = /^You are muted in this buble until \w{3} \d{1,2} \w{3}( \d{4})?, \d\d:\d\d CES?T$/

/** The browser reports the requests it could not make offline; the app itself logged nothing. */
const forgiveDisconnects = (who: Person) =>
  who.problems.splice(0, who.problems.length, ...who.problems.filter((p) => !/ERR_INTERNET_DISCONNECTED/.test(p)))

test('the owner mutes Ben for a day; his offline post is refused with the words, the banner shows, Unmute gives the composer back', async ({
  browser,
}) => {
  const ann = await person(browser, 'Ann Owner')
  const ben = await person(browser, 'Ben Muted')
  const buble = await bubleWith(ann, 'Quiet club', [ben])

  await test.step('Ben, offline, writes a post: it waits on his device', async () => {
    await ben.page.goto(`/bubles/${buble.slug}/wall`)
    await expect(ben.page.getByRole('textbox', { name: 'Write a post' })).toBeVisible()
    await serviceWorkerReady(ben.page)
    await expect(ben.page.getByRole('button', { name: 'Synced' })).toBeVisible()
    await ben.context.setOffline(true)
    await writePost(ben.page, 'Written before I knew')
    await expect(ben.page.getByRole('button', { name: 'Offline · 1 pending' })).toBeVisible()
  })

  await test.step('Ann opens Ben in the members tab and mutes him for a day', async () => {
    await ann.page.goto(`/bubles/${buble.slug}`)
    await bubleTabs(ann.page)
      .getByRole('link', { name: /^Members/ })
      .click()
    await ann.page.getByRole('button', { name: 'Manage Ben Muted' }).click()
    const dialog = ann.page.getByRole('dialog', { name: 'Manage Member' })
    const mute = dialog.getByRole('region', { name: 'Mute' })
    await mute.getByRole('combobox', { name: 'Mute for' }).selectOption({ label: '1 day' })
    await mute.getByRole('button', { name: 'Mute' }).click()
    await expect(mute.getByText('Member muted')).toBeVisible()
    await expect(mute.getByText(/^Muted until /)).toBeVisible()
    await expectAccessible(ann.page, 'the member modal with Ben muted')
    await expect(ann.page.getByRole('button', { name: 'Synced' })).toBeVisible()
  })

  await test.step('Ben back online: the post is refused with the words and kept as not saved; the banner shows', async () => {
    await ben.context.setOffline(false)
    await expect(ben.page.getByText('Not saved: Failed to create post')).toBeVisible({ timeout: 30_000 })
    const banner = ben.page.locator('.muted-banner')
    await expect(banner).toBeVisible()
    const words = (await banner.locator('strong').textContent())?.replace(/\.$/, '') ?? ''
    expect(words).toMatch(MUTED)
    // No field to write in; the words in its place.
    await expect(ben.page.getByRole('textbox', { name: 'Write a post' })).toHaveCount(0)
    await expect(ben.page.getByRole('note').filter({ hasText: words })).toBeVisible()
    await ben.page.getByRole('button', { name: 'Details' }).click()
    const item = ben.page
      .getByRole('dialog', { name: 'Sync status' })
      .getByRole('listitem', { name: 'Failed to create post' })
    await expect(item.getByText(words)).toBeVisible()
    await expect(item.getByText('Written before I knew')).toBeVisible()
    expect(await ben.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await expectAccessible(ben.page, 'the not-saved list of a muted member')
    await ben.page.keyboard.press('Escape')
    expect(await countOnServer(ben.page, buble.id, 'Written before I knew')).toBe(0)
  })

  await test.step('Ann unmutes Ben: his composer is back, and his post goes through', async () => {
    const dialog = ann.page.getByRole('dialog', { name: 'Manage Member' })
    await dialog.getByRole('region', { name: 'Mute' }).getByRole('button', { name: 'Unmute' }).click()
    await expect(dialog.getByText('Member unmuted')).toBeVisible()
    await expect(ben.page.locator('.muted-banner')).toHaveCount(0, { timeout: 30_000 })
    await wallTab(ben.page).click()
    await writePost(ben.page, 'Back again')
    await expect.poll(() => countOnServer(ben.page, buble.id, 'Back again')).toBe(1)
  })

  forgiveDisconnects(ben)
  expect(ann.problems).toEqual([])
  expect(ben.problems).toEqual([])
  await ann.close()
  await ben.close()
})
