/**
 * The phone layout of issue 21 §2: at 360×740 a buble opens with its newest post in view (verification
 * banner showing), a long name is cut in the title bar, the overflow menu works from the keyboard, chat is
 * one tap away from every tab; at 1280×800 an admin table keeps every column inside its box.
 */

import { expect, type Locator, type Page, test } from '@playwright/test'
import {
  ADMIN_EMAIL,
  bubleMenuButton,
  ensureAdmin,
  expectAccessible,
  PASSWORD,
  postBy,
  registerByApi,
  signIn,
  wallTab,
  watchConsole,
  writePost,
} from './helpers.ts'

const PHONE = { width: 360, height: 740 }

/** Whether the element lies wholly inside the viewport as it is now. */
async function inViewport(page: Page, element: Locator) {
  const box = await element.boundingBox()
  expect(box, 'the element has a box').not.toBeNull()
  const { width, height } = page.viewportSize() ?? PHONE
  return box !== null && box.x >= 0 && box.y >= 0 && box.x + box.width <= width && box.y + box.height <= height
}

const scrollY = (page: Page) => page.evaluate(() => window.scrollY)

const tab = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Buble sections' }).getByRole('link', { name: new RegExp(`^${name}`) })

test.describe('on a phone', () => {
  test.use({ viewport: PHONE })

  test('a buble opens with its newest post in view; a long name is cut; the menu by keyboard; chat from every tab', async ({
    page,
  }) => {
    const problems = watchConsole(page)
    const email = await registerByApi(page, 'Lena Layout')
    await signIn(page, email)
    // Not verified yet: the banner shows, and must not push the wall out of view.
    await expect(page.getByRole('region', { name: 'Email verification' })).toBeVisible()

    // 80 characters at most (LIMITS.bubleName).
    const name = `The Saturday Morning Climbing, Hiking and Long Names Society ${Date.now()}`
    await page.getByRole('button', { name: 'Create New Buble' }).click()
    const create = page.getByRole('dialog', { name: 'Create New Buble' })
    await create.getByLabel('Buble Name').fill(name)
    await create.getByRole('button', { name: 'Create Buble' }).click()
    const title = page.getByRole('heading', { level: 1, name })
    await expect(title).toBeVisible()
    await expect(page).toHaveURL(/\/bubles\/the-saturday-[a-z0-9-]+$/)
    const address = page.url()

    await test.step('the long name is cut with an ellipsis in the title bar, whole in its title', async () => {
      await expect(title).toHaveAttribute('title', name)
      const cut = await title.evaluate((node) => ({
        overflows: node.scrollWidth > node.clientWidth,
        ellipsis: getComputedStyle(node).textOverflow,
        lines: Math.round(node.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(node).lineHeight)),
      }))
      expect(cut).toEqual({ overflows: true, ellipsis: 'ellipsis', lines: 1 })
      // The page itself never scrolls sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    })

    await test.step('two posts on the wall', async () => {
      await wallTab(page).click()
      await writePost(page, 'First up: the bouldering gym at nine.')
      await expect(postBy(page, 'Lena Layout', 'bouldering gym')).toBeVisible()
      await writePost(page, 'Newest: bring chalk and a snack!')
      await expect(postBy(page, 'Lena Layout', 'bring chalk')).toBeVisible()
    })

    await test.step('opening the buble shows the newest post without scrolling, banner and all', async () => {
      await page.goto(address)
      await expect(title).toBeVisible()
      await expect(page.getByRole('region', { name: 'Email verification' })).toBeVisible()
      const latest = page.getByRole('region', { name: 'Latest posts' }).getByRole('listitem').first()
      await expect(latest).toContainText('bring chalk and a snack!')
      expect(await scrollY(page)).toBe(0)
      expect(await inViewport(page, latest)).toBe(true)
      await expectAccessible(page, 'buble overview, phone')
    })

    await test.step('on the Wall tab, the first post is in view without scrolling', async () => {
      await page.goto(`${address}/wall`)
      const first = page.getByRole('article', { name: 'Post by Lena Layout' }).first()
      await expect(first).toContainText('bring chalk and a snack!')
      expect(await scrollY(page)).toBe(0)
      expect(await inViewport(page, first)).toBe(true)
      await expectAccessible(page, 'buble wall, phone')
    })

    await test.step('the overflow menu works from the keyboard, Escape gives the focus back', async () => {
      const button = bubleMenuButton(page)
      await expect(button).toHaveAttribute('aria-haspopup', 'menu')
      await button.focus()
      await page.keyboard.press('ArrowDown')
      const menu = page.getByRole('menu', { name: 'Buble actions' })
      await expect(menu.getByRole('menuitem', { name: 'Generate Invite' })).toBeFocused()
      await page.keyboard.press('ArrowDown')
      // The second item: Mute notifications where the browser has Web Push, else Rename.
      await expect(menu.getByRole('menuitem').nth(1)).toBeFocused()
      await page.keyboard.press('ArrowUp')
      await expect(menu.getByRole('menuitem', { name: 'Generate Invite' })).toBeFocused()
      await page.keyboard.press('End')
      const remove = menu.getByRole('menuitem', { name: 'Delete Buble' })
      await expect(remove).toBeFocused()
      // The dangerous action looks it: red.
      expect(await remove.evaluate((node) => getComputedStyle(node).color)).toBe('rgb(185, 28, 28)')
      expect(await inViewport(page, menu)).toBe(true)
      await expectAccessible(page, 'buble menu open, phone')
      await page.keyboard.press('Escape')
      await expect(menu).toHaveCount(0)
      await expect(button).toBeFocused()

      // Enter on an item acts: Generate Invite opens its dialog; closing it returns to the menu button.
      await page.keyboard.press('Enter')
      await expect(menu.getByRole('menuitem', { name: 'Generate Invite' })).toBeFocused()
      await page.keyboard.press('Enter')
      const dialog = page.getByRole('dialog', { name: 'Invite code generated' })
      await expect(dialog).toBeVisible()
      await dialog.getByRole('button', { name: 'Done' }).click()
      await expect(button).toBeFocused()
    })

    await test.step('every tab passes axe, and chat is one tap away from each, even scrolled down', async () => {
      for (const name of ['Overview', 'Wall', 'Events', 'Polls', 'Members']) {
        await tab(page, name).click()
        await expect(tab(page, name)).toHaveAttribute('aria-current', 'page')
        await expectAccessible(page, `buble ${name}, phone`)
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
        const chat = page.getByRole('button', { name: /^Chat/ })
        expect(await inViewport(page, chat), `Chat in view on ${name}`).toBe(true)
        expect(await inViewport(page, tab(page, name)), `tabs in view on ${name}`).toBe(true)
      }
      await page.getByRole('button', { name: /^Chat/ }).click()
      await expect(page.getByRole('textbox', { name: 'Write a message' })).toBeVisible()
    })

    expect(problems).toEqual([])
  })
})

test.describe('on a laptop', () => {
  test.use({ viewport: { width: 1280, height: 800 } })

  test('an admin table keeps every column inside its box', async ({ page }) => {
    const problems = watchConsole(page)
    await ensureAdmin(page.request)
    // A user with a long name and address, so the table has something to cut.
    const longName = `Maximiliana Bartholomew-Featherstonehaugh Wolfeschlegelsteinhausenberger ${Date.now() % 1e6}`
    const longEmail = await registerByApi(page, longName)
    // And a buble of theirs, so the Bubles table has a row whatever ran before.
    const login = await page.request.post('/api/auth/login', { data: { email: longEmail, password: PASSWORD } })
    const { access_token: token } = await login.json()
    const made = await page.request.post('/api/bubles', {
      headers: { authorization: `Bearer ${token}` },
      data: { name: `A buble with a name long enough to be cut in its cell ${Date.now() % 1e6}` },
    })
    expect(made.status()).toBe(201)
    await signIn(page, ADMIN_EMAIL)
    await page.goto('/admin')
    await expectAccessible(page, 'admin overview, laptop')

    for (const [name, key] of [
      ['Users', 'users'],
      ['Bubles', 'bubles'],
    ] as const) {
      await page.getByRole('tab', { name }).click()
      await expect(page).toHaveURL(new RegExp(`/admin\\?tab=${key}$`))
      const box = page.getByRole('region', { name }).first()
      await expect(box.getByRole('table')).toBeVisible()
      const fit = await box.evaluate((wrap) => {
        const table = wrap.querySelector('table')!
        const page = document.documentElement
        const heads = [...table.querySelectorAll('th')]
        return {
          pageScrollsSideways: page.scrollWidth > page.clientWidth,
          boxInsidePage: wrap.getBoundingClientRect().right <= page.clientWidth,
          // At 1280 px the table fits its box; narrower, it would scroll inside it (overflow-x: auto).
          fits: table.scrollWidth <= wrap.clientWidth,
          scrollsInside: getComputedStyle(wrap).overflowX === 'auto',
          hidden: heads
            .filter((th) => th.getBoundingClientRect().width < 20 || getComputedStyle(th).display === 'none')
            .map((th) => th.textContent),
          clippedHeads: heads.filter((th) => th.scrollWidth > th.clientWidth).map((th) => th.textContent),
        }
      })
      expect(fit).toEqual({
        pageScrollsSideways: false,
        boxInsidePage: true,
        fits: true,
        scrollsInside: true,
        hidden: [],
        clippedHeads: [],
      })
      await expectAccessible(page, `admin ${name}, laptop`)
    }

    // The long name is cut to two lines at most, whole in its title.
    await page.getByRole('tab', { name: 'Users' }).click()
    await page.getByRole('searchbox', { name: 'Search users' }).fill(longName)
    const long = page.getByRole('region', { name: 'Users' }).first().getByTitle(longName, { exact: true })
    await expect(long).toBeVisible()
    expect(await long.evaluate((node) => node.scrollHeight > node.clientHeight)).toBe(true)
    const lines = await long.evaluate(
      (node) => node.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(node).lineHeight),
    )
    expect(Math.round(lines)).toBeLessThanOrEqual(2)
    expect(problems).toEqual([])
  })
})
