/**
 * Reports and the moderation queue at phone size (issue 24 §1, decision 101): a member reports
 * another's post; the owner opens Reports, sees the grouped report and mutes the author for an hour;
 * the author sees the muted banner, and a post they then try is refused with the mute's end.
 */

import { expect, test } from '@playwright/test'
import {
  accessToken,
  api,
  bubleTabs,
  bubleWith,
  expectAccessible,
  person,
  postBy,
  serviceWorkerReady,
} from './helpers.ts'

test.use({ viewport: { width: 390, height: 844 } })

const MUTED = /^You are muted in this buble until .+/

test('A reports B’s post; the owner sees it grouped in Reports and mutes B for an hour; B is muted', async ({
  browser,
}) => {
  const owner = await person(browser, 'Olga Owner')
  const ann = await person(browser, 'Ann Reporter')
  const ben = await person(browser, 'Ben Loud')
  const buble = await bubleWith(owner, 'Moderated', [ann, ben])
  await api(ben.page, 'POST', `/wall/${buble.id}/posts`, { content: 'Buy cheap watches here' })

  await test.step('Ann reports Ben’s post as spam, with a note, and sees it is reported', async () => {
    await ann.page.goto(`/bubles/${buble.slug}/wall`)
    const post = postBy(ann.page, 'Ben Loud', 'Buy cheap watches here')
    await post.getByRole('button', { name: 'Report post' }).click()
    const dialog = ann.page.getByRole('dialog', { name: 'Report this post' })
    await dialog.getByRole('radio', { name: /Spam/ }).check()
    await dialog.getByRole('textbox', { name: 'Note for the moderators (optional)' }).fill('Third time this week')
    await expectAccessible(ann.page, 'the report dialog')
    await dialog.getByRole('button', { name: 'Send report' }).click()
    await expect(dialog).toBeHidden()
    await expect(post.getByRole('status')).toHaveText('Thanks. Your report goes to the moderators of this Buble.')
    await expect(post.getByText(/^Reported/)).toBeVisible()
    // Members without moderate_content have no Reports tab.
    await expect(bubleTabs(ann.page).getByRole('link', { name: /^Reports/ })).toHaveCount(0)
  })

  await test.step('the owner sees the Reports counter, opens Reports, and finds the grouped report', async () => {
    await expect
      .poll(
        async () => (await api<{ groups: unknown[] }>(owner.page, 'GET', `/bubles/${buble.id}/reports`)).groups.length,
      )
      .toBe(1)
    await owner.page.goto(`/bubles/${buble.slug}`)
    const reports = bubleTabs(owner.page).getByRole('link', { name: /^Reports/ })
    await expect(reports).toContainText('1 unread')
    await reports.click()
    const group = owner.page.getByRole('article', { name: /Post by Ben Loud/ })
    await expect(group.getByText('Buy cheap watches here')).toBeVisible()
    await expect(group.getByRole('list', { name: 'Reasons' })).toHaveText('Spam × 1')
    await expect(group.getByRole('list', { name: 'Reports' })).toContainText('Ann Reporter')
    await expect(group.getByRole('list', { name: 'Reports' })).toContainText('Third time this week')
    await expectAccessible(owner.page, 'the Reports queue')
  })

  await test.step('the owner mutes Ben for 1 hour from the report; the action is in the history', async () => {
    const group = owner.page.getByRole('article', { name: /Post by Ben Loud/ })
    await group.getByRole('combobox', { name: 'Mute the author for' }).selectOption({ label: '1 hour' })
    await group.getByRole('button', { name: 'Mute author' }).click()
    await expect(owner.page.getByRole('status').filter({ hasText: 'Ben Loud is muted for 1 hour.' })).toBeVisible()
    await expect(group).toBeHidden()
    await expect(owner.page.getByRole('list', { name: 'History' })).toContainText(
      'Olga Owner muted Ben Loud for 1 hour over a post (1 report)',
    )
  })

  await test.step('Ben sees the muted banner and his composer gives way; a post he tries is refused', async () => {
    await ben.page.goto(`/bubles/${buble.slug}/wall`)
    await expect(ben.page.locator('.muted-banner')).toContainText(MUTED)
    await expect(ben.page.getByRole('note')).toHaveText(MUTED)
    await expect(ben.page.getByRole('textbox', { name: 'Write a post' })).toHaveCount(0)
    const refused = await ben.page.request.post(`/api/wall/${buble.id}/posts`, {
      data: { content: 'Still here' },
      headers: { authorization: `Bearer ${await accessToken(ben.page)}` },
    })
    expect(refused.status()).toBe(403)
    expect((await refused.json()).message).toMatch(MUTED)
    // His notice about the post names no reporter.
    await ben.page.goto(`/bubles/${buble.slug}/reports`)
    const section = ben.page.getByRole('region', { name: 'Reports' })
    await expect(section.getByText('A moderator muted you for 1 hour after your post was reported.')).toBeVisible()
    await expect(section).not.toContainText('Ann Reporter')
  })

  expect(owner.problems).toEqual([])
  expect(ann.problems).toEqual([])
  expect(ben.problems).toEqual([])
  await Promise.all([owner.close(), ann.close(), ben.close()])
})

test('a report offline goes once back online; the owner deletes the post from Reports and it leaves every device', async ({
  browser,
}) => {
  const owner = await person(browser, 'Olga Owner')
  const ann = await person(browser, 'Ann Reporter')
  const ben = await person(browser, 'Ben Loud')
  const buble = await bubleWith(owner, 'Deleted', [ann, ben])
  await api(ben.page, 'POST', `/wall/${buble.id}/posts`, { content: 'Something nasty' })

  await test.step('Ann reports it offline; it is sent once she is back online', async () => {
    await ann.page.goto(`/bubles/${buble.slug}/wall`)
    const post = postBy(ann.page, 'Ben Loud', 'Something nasty')
    await expect(post).toBeVisible()
    await serviceWorkerReady(ann.page)
    // Everything pulled first: a pull cut off by going offline would log a failed request.
    await expect(ann.page.getByRole('button', { name: 'Synced' })).toBeVisible()
    await ann.context.setOffline(true)
    await post.getByRole('button', { name: 'Report post' }).click()
    const dialog = ann.page.getByRole('dialog', { name: 'Report this post' })
    await dialog.getByRole('radio', { name: /Harassment/ }).check()
    await dialog.getByRole('button', { name: 'Send report' }).click()
    await expect(post.getByRole('status')).toHaveText(
      'Thanks. Your report is saved on this device and goes to the moderators when you are back online.',
    )
    await expect(ann.page.getByRole('button', { name: 'Offline · 1 pending' })).toBeVisible()
    await ann.context.setOffline(false)
    await expect
      .poll(
        async () => (await api<{ groups: unknown[] }>(owner.page, 'GET', `/bubles/${buble.id}/reports`)).groups.length,
      )
      .toBe(1)
  })

  await test.step('the owner deletes the post from Reports; it leaves Ann’s wall and Ben is told', async () => {
    await owner.page.goto(`/bubles/${buble.slug}/reports`)
    const group = owner.page.getByRole('article', { name: /Post by Ben Loud/ })
    await expect(group.getByRole('list', { name: 'Reasons' })).toHaveText('Harassment × 1')
    await group.getByRole('button', { name: 'Delete post' }).click()
    const confirm = owner.page.getByRole('dialog', { name: 'Delete this post?' })
    await confirm.getByRole('button', { name: 'Delete post' }).click()
    await expect(owner.page.getByRole('status').filter({ hasText: 'The post was deleted.' })).toBeVisible()
    await expect(owner.page.getByRole('heading', { name: 'No open reports' })).toBeVisible()
    await expect(postBy(ann.page, 'Ben Loud', 'Something nasty')).toHaveCount(0)
    await ben.page.goto(`/bubles/${buble.slug}/reports`)
    const section = ben.page.getByRole('region', { name: 'Reports' })
    await expect(section.getByText('A moderator removed your post after it was reported.')).toBeVisible()
    await expect(section).not.toContainText('Ann Reporter')
  })

  expect(owner.problems).toEqual([])
  // Chromium logs a request that going offline cut short (a pull a poke had just started); nothing else may fail.
  expect(ann.problems.filter((problem) => !problem.includes('net::ERR_INTERNET_DISCONNECTED'))).toEqual([])
  expect(ben.problems).toEqual([])
  await Promise.all([owner.close(), ann.close(), ben.close()])
})
