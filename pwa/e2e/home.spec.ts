/** The home screen at phone size: a buble card follows another member's chat message, live. */

import { type Browser, expect, type Page, test } from '@playwright/test'
import { api, expectAccessible, inviteCode, join, person } from './helpers.ts'

test.use({ viewport: { width: 360, height: 740 } })

async function createBuble(page: Page, name: string) {
  await page.goto('/dashboard')
  await page.getByRole('button', { name: 'Create New Buble' }).click()
  await page.getByLabel('Buble Name').fill(name)
  await page.getByRole('button', { name: 'Create Buble' }).click()
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
  // On the server once its address is the slug.
  await expect(page).toHaveURL(/\/bubles\/[a-z0-9-]+-\d+$/)
}

/** Ann makes a buble Ben joins, then a second, newer one of her own. */
async function setUp(browser: Browser) {
  const ann = await person(browser, 'Ann Home')
  const ben = await person(browser, 'Ben Home')
  const stamp = Date.now()
  const club = `Supper Club ${stamp}`
  const solo = `Garden Notes ${stamp}`
  await createBuble(ann.page, club)
  const code = await inviteCode(ann.page)
  await join(ben.page, code, club)
  await createBuble(ann.page, solo)
  const bubles = await api<{ id: string; name: string; slug: string }[]>(ann.page, 'GET', '/bubles')
  const clubRow = bubles.find((b) => b.name === club)
  expect(clubRow).toBeDefined()
  return { ann, ben, club, solo, bubleId: clubRow?.id ?? '', slug: clubRow?.slug ?? '' }
}

const cards = (page: Page) => page.getByRole('list', { name: 'Your bubles' }).getByRole('article')
const card = (page: Page, name: string) => cards(page).filter({ has: page.getByRole('heading', { name }) })
const unreadOf = async (page: Page, name: string) => {
  const count = card(page, name).locator('.buble-card-unread .visually-hidden')
  const text = (await count.count()) > 0 ? ((await count.textContent()) ?? '') : ''
  return Number(/^(\d+) unread$/.exec(text)?.[1] ?? 0)
}

test('the home card follows another member’s chat message: unread count, latest activity, order and title', async ({
  browser,
}) => {
  const { ann, ben, club, solo, bubleId } = await setUp(browser)
  expect(ann.page.viewportSize()).toEqual({ width: 360, height: 740 })

  await test.step('On Ann’s home, the newer buble leads before anything is said', async () => {
    await ann.page.getByRole('link', { name: 'Buble, your bubles' }).click()
    await expect(ann.page.getByRole('heading', { level: 1, name: 'Your Bubles' })).toBeVisible()
    await expect(cards(ann.page).first().getByRole('heading')).toHaveText(solo)
    await expect(card(ann.page, club)).toContainText('Ben Home joined')
    await expectAccessible(ann.page, 'dashboard')
  })

  const before = await unreadOf(ann.page, club)
  const text = 'see you at 7, and bring the big pot for the soup, the long table and every chair you have'
  await test.step('Ben writes in the chat; Ann’s card moves to the top without a reload', async () => {
    await api(ben.page, 'POST', `/chat/${bubleId}/messages`, { content: text })
    const top = cards(ann.page).first()
    await expect(top.getByRole('heading')).toHaveText(club)
    await expect(top).toContainText(`Ben Home in chat: ${text}`)
    await expect(top.getByRole('time')).toHaveText('now')
    await expect(top.locator('.buble-card-unread')).toContainText(`${before + 1} unread`)
    await expect(ann.page).toHaveTitle(`(${before + 1}) Your Bubles · Buble`)
    await expectAccessible(ann.page, 'dashboard with activity')
    // A long line of activity is cut on its card, never widening the page past the phone's screen.
    expect(await ann.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  })

  await test.step('The card opens the buble; its events and polls tabs pass axe', async () => {
    const now = Date.now()
    await api(ann.page, 'POST', `/bubles/${bubleId}/events`, {
      title: 'Harvest supper',
      event_time: new Date(now + 3 * 86_400_000).toISOString(),
    })
    await api(ann.page, 'POST', `/bubles/${bubleId}/events`, {
      title: 'Last week’s picnic',
      event_time: new Date(now - 7 * 86_400_000).toISOString(),
    })
    await api(ann.page, 'POST', `/bubles/${bubleId}/polls`, { question: 'Soup or stew?', options: ['Soup', 'Stew'] })

    await card(ann.page, club).getByRole('link', { name: club }).click()
    await expect(ann.page.getByRole('heading', { level: 1, name: club })).toBeVisible()
    await ann.page.goto(`${new URL(ann.page.url()).pathname}/events`)
    const upcoming = ann.page.getByRole('list', { name: 'Events', exact: true })
    await expect(upcoming.getByRole('heading', { name: 'Harvest supper' })).toBeVisible()
    await expect(upcoming.getByRole('heading', { name: 'Last week’s picnic' })).toHaveCount(0)
    const past = ann.page.getByRole('region', { name: 'Past' })
    const picnic = past.getByRole('article', { name: 'Last week’s picnic' })
    await expect(picnic).toBeVisible()
    await expect(picnic.locator('.badge', { hasText: 'Past' })).toBeVisible()
    await expectAccessible(ann.page, 'events tab')
    // The confirmation before an RSVP, inline: open, checked by axe, then declined with Escape.
    const supper = upcoming.getByRole('article', { name: 'Harvest supper' })
    await supper.getByRole('button', { name: 'Going', exact: true }).click()
    const question = supper.getByRole('group', { name: 'Confirm RSVP' })
    await expect(question).toContainText('Answer “Going” to Harvest supper?')
    await expect(question.getByRole('button', { name: 'Yes' })).toBeFocused()
    await expectAccessible(ann.page, 'events tab, RSVP question')
    await ann.page.keyboard.press('Escape')
    await expect(question).toHaveCount(0)
    await expect(supper.getByRole('button', { name: 'Going', exact: true })).toHaveAttribute('aria-pressed', 'false')

    await ann.page.goto(ann.page.url().replace(/\/events$/, '/polls'))
    await expect(ann.page.getByRole('heading', { name: 'Soup or stew?' })).toBeVisible()
    // Ann votes (the spec's confirmation stays): one vote of one cast, in a buble of two.
    await ann.page.getByRole('list', { name: 'Options of Soup or stew?' }).getByRole('button', { name: 'Soup' }).click()
    await ann.page.getByRole('dialog', { name: 'Confirm vote' }).getByRole('button', { name: 'Vote' }).click()
    const results = ann.page.getByRole('list', { name: 'Results of Soup or stew?' })
    await expect(results.getByText('1 of 1 votes · 100 %')).toBeVisible()
    await expect(results.getByRole('meter', { name: 'Soup: 1 of 2 members' })).toHaveAttribute('value', '50')
    await expectAccessible(ann.page, 'polls tab')
  })

  for (const who of [ann, ben]) {
    expect(who.problems).toEqual([])
    await who.close()
  }
})
