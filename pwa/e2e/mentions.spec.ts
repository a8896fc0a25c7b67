/**
 * Mentions at phone size (issue 23 §1): `@` suggests members in a post (keyboard) and in the chat
 * (touch), a pick writes a mention, the member sees it by name and the `@` mark until they read it.
 */

import { expect, test } from '@playwright/test'
import { bubleTabs, bubleWith, expectAccessible, person } from './helpers.ts'

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true })

test('Ann types @, picks Ben and posts; Ben sees the @ mark on the wall tab and his name highlighted; his chat answer, Ann tapped in the list, marks her Chat button', async ({
  browser,
}) => {
  const ann = await person(browser, 'Ann Mention')
  const ben = await person(browser, 'Ben Mention')
  const buble = await bubleWith(ann, 'Book club', [ben])

  await test.step('Ann types @ in the post composer, filters, picks Ben with the keyboard, and posts', async () => {
    await ann.page.goto(`/bubles/${buble.slug}/wall`)
    const field = ann.page.getByRole('textbox', { name: 'Write a post' })
    await field.click()
    await field.pressSequentially('Chapter 3 tonight, @b')
    const list = ann.page.getByRole('listbox', { name: 'Members to mention' })
    await expect(list.getByRole('option')).toHaveText(['@Ben Mention'])
    await expectAccessible(ann.page, 'the wall with the mention list open')
    await field.press('Enter')
    await expect(list).toBeHidden()
    await field.pressSequentially('bring tea')
    await expect(field).toHaveValue('Chapter 3 tonight, @Ben Mention bring tea')
    await ann.page.getByRole('form', { name: 'New post' }).getByRole('button', { name: 'Post' }).click()
    await expect(ann.page.locator('.post-content .mention')).toHaveText('@Ben Mention')
  })

  await test.step('Ben sees the @ mark on the Wall tab, then his highlighted name; reading clears the mark', async () => {
    await ben.page.goto(`/bubles/${buble.slug}`)
    const wall = bubleTabs(ben.page).getByRole('link', { name: /^Wall/ })
    await expect(wall).toContainText('you were mentioned')
    await expect(wall.locator('.tab-mention')).toHaveText('@you were mentioned')
    await expectAccessible(ben.page, 'the buble page with the @ mark')
    await wall.click()
    await expect(ben.page.locator('.post-content .mention')).toHaveText('@Ben Mention')
    await expect(ben.page.locator('.post-content')).toHaveText('Chapter 3 tonight, @Ben Mention bring tea')
    await bubleTabs(ben.page)
      .getByRole('link', { name: /^Events/ })
      .click()
    await expect(bubleTabs(ben.page).getByRole('link', { name: /^Wall/ })).not.toContainText('you were mentioned')
  })

  await test.step('Ben answers in the chat, tapping Ann in the list; her Chat button shows @ until she opens it', async () => {
    await ben.page.getByRole('button', { name: /^Chat/ }).click()
    const field = ben.page.getByRole('textbox', { name: 'Write a message' })
    await expect(field).toBeFocused()
    await field.pressSequentially('See you there @an')
    await ben.page
      .getByRole('listbox', { name: 'Members to mention' })
      .getByRole('option', { name: '@Ann Mention' })
      .tap()
    await expect(field).toHaveValue('See you there @Ann Mention ')
    await expect(field).toBeFocused()
    await field.press('Enter')
    await expect(field).toHaveValue('')

    const chat = ann.page.getByRole('button', { name: /^Chat/ })
    await expect(chat.locator('.tab-mention')).toHaveText('@you were mentioned')
    await chat.click()
    await expect(ann.page.locator('.chat-text .mention')).toHaveText('@Ann Mention')
    await ann.page.getByRole('button', { name: 'Close chat' }).click()
    await expect(ann.page.getByRole('button', { name: 'Chat', exact: true })).toBeVisible()
  })

  expect(ann.problems).toEqual([])
  expect(ben.problems).toEqual([])
  await ann.close()
  await ben.close()
})
