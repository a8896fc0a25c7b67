import { expect, type Page, test } from '@playwright/test'
import {
  countOnServer,
  expectAccessible,
  inviteCode,
  join,
  PASSWORD,
  person,
  postBy,
  serviceWorkerReady,
  wallTab,
  writePost,
} from './helpers.ts'

/** Issue 21 §5, no dead ends: a moderator's Delete, and a session that survives an offline reload. */

test.use({ viewport: { width: 360, height: 740 } })

const tokenOf = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('auth-storage') ?? '{}').state?.token as string)

/** The focused control's ring (an outline, or a box-shadow spread) lies inside every box around it that clips. */
async function expectRingUnclipped(page: Page) {
  const clipped = await page.evaluate(() => {
    const focused = document.activeElement as HTMLElement | null
    if (!focused || focused === document.body) return 'nothing focused'
    const style = getComputedStyle(focused)
    // The ring is an outline, or a box-shadow spread (the buttons' `--focus`).
    const outline =
      style.outlineStyle === 'none'
        ? null
        : Number.parseFloat(style.outlineOffset) + Number.parseFloat(style.outlineWidth)
    const spread = style.boxShadow === 'none' ? null : Number.parseFloat(style.boxShadow.split(/px\s+/)[3] ?? '')
    if (outline === null && (spread === null || Number.isNaN(spread))) return 'no ring'
    const reach = Math.max(outline ?? 0, style.boxShadow.includes('inset') ? 0 : (spread ?? 0))
    const box = focused.getBoundingClientRect()
    const ring = { left: box.left - reach, top: box.top - reach, right: box.right + reach, bottom: box.bottom + reach }
    for (let at = focused.parentElement; at && at !== document.body; at = at.parentElement) {
      const { overflowX, overflowY } = getComputedStyle(at)
      if (overflowX === 'visible' && overflowY === 'visible') continue
      const clip = at.getBoundingClientRect()
      const inside =
        (overflowX === 'visible' || (ring.left >= clip.left - 0.5 && ring.right <= clip.right + 0.5)) &&
        (overflowY === 'visible' || (ring.top >= clip.top - 0.5 && ring.bottom <= clip.bottom + 0.5))
      if (!inside) return `${focused.outerHTML.slice(0, 80)} clipped by .${at.className}`
    }
    return null
  })
  expect(clipped).toBeNull()
}

async function createBuble(page: Page, name: string): Promise<string> {
  await page.getByRole('button', { name: 'Create New Buble' }).click()
  await page.getByLabel('Buble Name').fill(name)
  await page.getByRole('button', { name: 'Create Buble' }).click()
  // On the server: the address moves to the slug it chose.
  await expect(page).toHaveURL(new RegExp(`/bubles/${name.toLowerCase().replace(/\s+/g, '-')}$`))
  const token = await tokenOf(page)
  const res = await page.request.get('/api/bubles', { headers: { authorization: `Bearer ${token}` } })
  const id = ((await res.json()) as { id: string; name: string }[]).find((buble) => buble.name === name)?.id
  expect(id).toBeTruthy()
  return id!
}

test('a moderator deletes the owner’s post: the Delete is offered, and the post is gone for both', async ({
  browser,
}) => {
  const olga = await person(browser, 'Olga Owner')
  const mo = await person(browser, 'Mo Moderator')
  const club = `Mods ${Date.now()}`

  await test.step('the skip link is invisible until the keyboard reaches it', async () => {
    await olga.page.reload()
    await expect(olga.page.getByRole('heading', { name: 'Your Bubles' })).toBeVisible()
    const skip = olga.page.getByRole('link', { name: 'Skip to content' })
    const hidden = await skip.evaluate((link) => {
      const box = link.getBoundingClientRect()
      return { width: box.width, height: box.height, shadow: getComputedStyle(link).boxShadow }
    })
    expect(hidden.width * hidden.height).toBeLessThanOrEqual(1)
    expect(hidden.shadow).toBe('none')
    await olga.page.keyboard.press('Tab')
    await expect(skip).toBeFocused()
    const shown = await skip.boundingBox()
    expect(shown!.width).toBeGreaterThan(40)
    expect(shown!.y).toBeGreaterThanOrEqual(0)
  })

  const bubleId = await createBuble(olga.page, club)
  await join(mo.page, await inviteCode(olga.page), club)

  await test.step('the owner makes the member a moderator (delete_others_content comes with the role)', async () => {
    const me = await mo.page.evaluate(() => JSON.parse(localStorage.getItem('auth-storage') ?? '{}').state?.user?.id)
    const res = await olga.page.request.put(`/api/bubles/${bubleId}/members/role`, {
      headers: { authorization: `Bearer ${await tokenOf(olga.page)}` },
      data: { userId: me, role: 'moderator' },
    })
    expect(res.status()).toBe(200)
    expect((await res.json()).member.permissions).toContain('delete_others_content')
  })

  await test.step('the owner posts; the moderator sees Delete (not Edit) on it and deletes it', async () => {
    await wallTab(olga.page).click()
    await writePost(olga.page, 'Owner post to moderate')
    await expect(postBy(olga.page, 'Olga Owner', 'Owner post to moderate')).not.toContainText('Sending…')

    // The moderator is on the buble page since joining; the new role comes with the member row.
    await mo.page.reload()
    // Reached by the keyboard, the section tab's focus ring is whole.
    await wallTab(mo.page).focus()
    await mo.page.keyboard.press('Shift+Tab')
    await mo.page.keyboard.press('Tab')
    await expect(wallTab(mo.page)).toBeFocused()
    await expectRingUnclipped(mo.page)
    await wallTab(mo.page).click()
    const post = postBy(mo.page, 'Olga Owner', 'Owner post to moderate')
    await expect(post).toBeVisible()
    await expect(post.getByRole('button', { name: 'Edit post' })).toHaveCount(0)
    const remove = post.getByRole('button', { name: 'Delete post' })
    await remove.focus()
    await mo.page.keyboard.press('Shift+Tab')
    await mo.page.keyboard.press('Tab')
    await expect(remove).toBeFocused()
    await expectRingUnclipped(mo.page)
    await remove.click()
    const dialog = mo.page.getByRole('dialog', { name: 'Delete post?' })
    await dialog.getByRole('button', { name: 'Delete post' }).click()
    await expect(dialog).toHaveCount(0)
    await expect(post).toHaveCount(0)
  })

  await test.step('gone on the server and, live, on the owner’s screen', async () => {
    await expect.poll(() => countOnServer(olga.page, bubleId, 'Owner post to moderate')).toBe(0)
    await expect(postBy(olga.page, 'Olga Owner', 'Owner post to moderate')).toHaveCount(0)
  })

  expect(olga.problems).toEqual([])
  expect(mo.problems).toEqual([])
  await olga.close()
  await mo.close()
})

test('an offline reload with an expiring or expired token stays signed in; online, the sign-in is asked and the queued post sent once', async ({
  browser,
}) => {
  test.setTimeout(120_000)
  const pat = await person(browser, 'Pat Offline')
  const club = `Offline ${Date.now()}`
  const bubleId = await createBuble(pat.page, club)
  const bublePage = pat.page.url()
  await wallTab(pat.page).click()
  await expect(pat.page.getByRole('heading', { name: 'No posts yet' })).toBeVisible()
  await serviceWorkerReady(pat.page)

  // The stored token's expiry is moved as the page loads, before the app reads it.
  await pat.page.addInitScript(() => {
    const wanted = sessionStorage.getItem('e2e-expiry')
    if (!wanted) return
    const stored = JSON.parse(localStorage.getItem('auth-storage') ?? 'null')
    if (!stored?.state?.token) return
    stored.state.tokenExpiry = Date.now() + Number(wanted)
    localStorage.setItem('auth-storage', JSON.stringify(stored))
  })
  const expiringIn = (ms: number) =>
    pat.page.evaluate((value) => sessionStorage.setItem('e2e-expiry', value), String(ms))

  await test.step('offline, a token about to expire: the reload keeps the dashboard and the buble', async () => {
    await pat.context.setOffline(true)
    await expiringIn(30_000)
    await pat.page.goto('/dashboard')
    await expect(pat.page.getByRole('heading', { name: 'Your Bubles' })).toBeVisible()
    await expect(pat.page.getByText(club).first()).toBeVisible()
    // No expiry dialog offline: nothing could be done about it yet.
    await expect(pat.page.getByRole('dialog')).toHaveCount(0)
  })

  await test.step('offline, a token that has expired: still signed in, a post waits in the queue', async () => {
    await expiringIn(-60_000)
    await pat.page.goto(bublePage)
    await wallTab(pat.page).click()
    await writePost(pat.page, 'Written offline, expired')
    await expect(postBy(pat.page, 'Pat Offline', 'Written offline, expired')).toContainText('Sending…')
    await pat.page.reload()
    await expect(pat.page).not.toHaveURL(/\/login/)
    await expect(postBy(pat.page, 'Pat Offline', 'Written offline, expired')).toContainText('Sending…')
    await expect(pat.page.getByRole('dialog')).toHaveCount(0)
  })

  await test.step('online again: the sign-in is asked, and after it the queued post is sent once', async () => {
    await pat.page.evaluate(() => sessionStorage.removeItem('e2e-expiry'))
    await pat.context.setOffline(false)
    // The expiry dialog says so at once, unless the queue's next try has already gone to the sign-in page.
    const expired = pat.page.getByRole('dialog', { name: 'Session Expired' })
    const signInPage = pat.page.getByRole('heading', { name: 'Sign in to Buble' })
    await expect(expired.or(signInPage)).toBeVisible({ timeout: 30_000 })
    if (await expired.isVisible())
      await expired
        .getByRole('button', { name: 'Sign Out' })
        .click({ timeout: 5_000 })
        .catch(() => {})
    await expect(signInPage).toBeVisible({ timeout: 30_000 })
    await expect(pat.page.getByRole('status').filter({ hasText: 'Your session has expired' })).toBeVisible()
    await expectAccessible(pat.page, 'the sign-in page')
    await pat.page.getByLabel('Email').fill(pat.email)
    await pat.page.getByLabel('Password').fill(PASSWORD)
    await pat.page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expect(pat.page.getByRole('heading', { name: 'Your Bubles' })).toBeVisible()
    await expect.poll(() => countOnServer(pat.page, bubleId, 'Written offline, expired'), { timeout: 20_000 }).toBe(1)
    // Once: a later look still finds one.
    await pat.page.goto(bublePage)
    await wallTab(pat.page).click()
    await expect(postBy(pat.page, 'Pat Offline', 'Written offline, expired')).toHaveCount(1)
    await expect(postBy(pat.page, 'Pat Offline', 'Written offline, expired')).not.toContainText('Sending…')
    expect(await countOnServer(pat.page, bubleId, 'Written offline, expired')).toBe(1)
  })

  await test.step('the profile page passes axe', async () => {
    await pat.page.goto('/profile')
    await expect(pat.page.getByRole('heading', { level: 1 })).toBeVisible()
    await expectAccessible(pat.page, 'the profile page')
  })

  // Offline, Chromium logs each request the network refused.
  expect(pat.problems.filter((problem) => !/ERR_INTERNET_DISCONNECTED/.test(problem))).toEqual([])
  await pat.close()
})

test('a password changed on another device signs this one out, and the sign-in page says why', async ({ browser }) => {
  const ada = await person(browser, 'Ada Twice')
  await test.step('on another device, the password is changed', async () => {
    const other = await browser.newContext()
    const res = await other.request.post('/api/auth/login', { data: { email: ada.email, password: PASSWORD } })
    const { access_token } = (await res.json()) as { access_token: string }
    const changed = await other.request.post('/api/users/change-password', {
      headers: { authorization: `Bearer ${access_token}` },
      data: { currentPassword: PASSWORD, newPassword: 'Another-horse-43' },
    })
    expect(changed.status()).toBe(200)
    await other.close()
  })

  // The revocation ends this device's live stream at once (lib/revocations.ts); its next call is refused and the
  // app goes to the sign-in page with the reason. No reload here: one could land while that navigation is pending
  // and cancel it.
  await test.step('this device’s next call is refused: the sign-in page says the password was changed', async () => {
    await expect(ada.page.getByRole('heading', { name: 'Sign in to Buble' })).toBeVisible()
    await expect(ada.page).toHaveURL(/\/login\?reason=password-changed$/)
    await expect(ada.page.getByRole('status')).toContainText(
      'You were signed out because your password was changed or reset',
    )
    await expect(
      ada.page.getByText(
        'Buble is a private space for your small groups: posts, chat, events and polls, even offline.',
      ),
    ).toBeVisible()
    await expectAccessible(ada.page, 'the sign-in page with its reason')
  })

  // The refused calls are the network's own lines (401 answers), nothing else.
  expect(ada.problems.filter((problem) => !/status of 401 \(Unauthorized\)/.test(problem))).toEqual([])
  await ada.close()
})
