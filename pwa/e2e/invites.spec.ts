import { expect, type Page, test } from '@playwright/test'
import { expectAccessible, openInviteDialog, PASSWORD, person, registerByApi, watchConsole } from './helpers.ts'
import { linkFromMail } from './mailbox.ts'

/** Issue 21 §4, "Invites that read well", on a phone: the invite link from send to join, and the e-mail invite's sign-up. */

test.use({ viewport: { width: 360, height: 740 } })

const PHONE = { width: 360, height: 740 }

async function createSyncedBuble(page: Page, name: string) {
  await page.getByRole('button', { name: 'Create New Buble' }).click()
  const dialog = page.getByRole('dialog', { name: 'Create New Buble' })
  await dialog.getByLabel('Buble Name').fill(name)
  await dialog.getByRole('button', { name: 'Create Buble' }).click()
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
  // Only a buble the server holds can hand out codes.
  await expect(page).toHaveURL(/\/bubles\/[a-z0-9-]+$/)
  await expect(page.getByText('Not synced yet')).toHaveCount(0)
}

test('an invite link from send to join', async ({ browser }) => {
  const owner = await person(browser, 'Olga Owner')
  await owner.page.setViewportSize(PHONE)
  const gardenClub = `Garden Club ${Date.now()}`
  let link = ''
  let code = ''

  await test.step('the owner opens the invite dialog: the code, and its link beside it', async () => {
    await owner.page.goto('/dashboard')
    await createSyncedBuble(owner.page, gardenClub)
    await openInviteDialog(owner.page)
    const dialog = owner.page.getByRole('dialog', { name: 'Invite code generated' })
    await expect(dialog).toBeVisible()
    code = (await dialog.locator('.invite-code').textContent())?.trim() ?? ''
    expect(code).toMatch(/^[2-9A-Z]{10}$/)
    link = await dialog.getByLabel('Invite link').inputValue()
    expect(link).toBe(new URL(`/join/${code}`, owner.page.url()).href)
    await expect(dialog.getByRole('button', { name: 'Copy link' })).toBeVisible()
    await expectAccessible(owner.page, 'the invite dialog')
    await dialog.getByRole('button', { name: 'Done' }).click()
  })

  const context = await browser.newContext({ viewport: PHONE })
  const invitee = await context.newPage()
  const problems = watchConsole(invitee)
  const email = await registerByApi(invitee, 'Ivy Invitee')

  await test.step('a second person opens the link signed out: the buble, its avatar and who invited them', async () => {
    await invitee.goto(link)
    await expect(invitee.getByRole('heading', { level: 1, name: 'Join a Buble' })).toBeVisible()
    await expect(invitee.locator('.invite-preview-name')).toHaveText(gardenClub)
    await expect(invitee.locator('.invite-preview .avatar')).toBeVisible()
    await expect(invitee.getByText('Olga Owner invited you')).toBeVisible()
    await expectAccessible(invitee, 'the join page, signed out')
  })

  await test.step('they sign in and come back to the join page', async () => {
    await invitee.getByRole('link', { name: 'Sign in to join' }).click()
    await invitee.getByLabel('Email').fill(email)
    await invitee.getByLabel('Password').fill(PASSWORD)
    await invitee.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expect(invitee).toHaveURL(new RegExp(`/join/${code}$`))
    await expect(invitee.locator('.invite-preview-name')).toHaveText(gardenClub)
  })

  await test.step('they confirm and land in the buble', async () => {
    await invitee.getByRole('button', { name: 'Join', exact: true }).click()
    const confirm = invitee.getByRole('dialog', { name: 'Join this Buble?' })
    await expect(confirm).toContainText(`You are about to join ${gardenClub}`)
    await expect(confirm.getByText('Olga Owner invited you')).toBeVisible()
    await expectAccessible(invitee, 'the join confirmation')
    await confirm.getByRole('button', { name: 'Join Buble' }).click()
    await expect(invitee.getByRole('heading', { level: 1, name: gardenClub })).toBeVisible()
    await expect(invitee).toHaveURL(/\/bubles\/garden-club-\d+/)
  })

  await test.step('the link is spent: opened again, it says so and reveals nothing', async () => {
    await invitee.goto(link)
    await expect(invitee.getByRole('alert')).toHaveText('Invalid invite code or code has expired')
    await expect(invitee.getByText(gardenClub)).toHaveCount(0)
    await expectAccessible(invitee, 'the join page of a spent code')
  })

  // The browser logs the 410 of the spent code's preview itself (a network line, not the app's error): that one only.
  const spent = problems.filter((problem) =>
    new RegExp(`status of 410 \\(Gone\\) \\(http:[^)]*/api/bubles/invites/${code}\\)$`).test(problem),
  )
  expect(spent).toHaveLength(1)
  expect(problems.filter((problem) => !spent.includes(problem))).toEqual([])
  expect(owner.problems).toEqual([])
  await context.close()
  await owner.close()
})

test("an e-mail invite's sign-up names the buble and the inviter, and lands the new member inside it", async ({
  browser,
}) => {
  const owner = await person(browser, 'Iris Inviter')
  await owner.page.setViewportSize(PHONE)
  const bookClub = `Book Club ${Date.now()}`
  const stranger = `stranger-${Date.now()}@example.com`

  await test.step('the owner mails an invite: it is confirmed, and the code on screen stays', async () => {
    await owner.page.goto('/dashboard')
    await createSyncedBuble(owner.page, bookClub)
    await openInviteDialog(owner.page)
    const dialog = owner.page.getByRole('dialog', { name: 'Invite code generated' })
    const shown = (await dialog.locator('.invite-code').textContent())?.trim()
    await dialog.getByLabel('E-mail address').fill(stranger)
    await dialog.getByRole('button', { name: 'Send invite' }).click()
    await expect(dialog.getByRole('status').filter({ hasText: `Invite sent to ${stranger}` })).toBeVisible()
    await expect(dialog.locator('.invite-code')).toHaveText(shown!)
    await expect(dialog.getByText(`For ${stranger}`)).toBeVisible()
    await expectAccessible(owner.page, 'the invite dialog after an e-mail invite')
  })

  const context = await browser.newContext({ viewport: PHONE })
  const page = await context.newPage()
  const problems = watchConsole(page)

  await test.step('the sign-up page of the mail names the buble and who invited', async () => {
    await page.goto(await linkFromMail(stranger, '/complete-registration?token='))
    await expect(page.getByRole('heading', { name: 'Welcome to Buble' })).toBeVisible()
    await expect(page.locator('.invite-preview-name')).toHaveText(bookClub)
    await expect(page.getByText('Iris Inviter invited you')).toBeVisible()
    await expect(page.getByText(stranger)).toBeVisible()
    await expectAccessible(page, 'the sign-up page of an e-mail invite')
  })

  await test.step('choosing a password lands the new member inside the buble', async () => {
    await page.getByLabel('New password', { exact: true }).fill(PASSWORD)
    await page.getByLabel('Confirm new password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Complete registration' }).click()
    await expect(page).toHaveURL(/\/bubles\/book-club-\d+$/)
    await expect(page.getByRole('heading', { level: 1, name: bookClub })).toBeVisible()
  })

  expect(problems).toEqual([])
  expect(owner.problems).toEqual([])
  await context.close()
  await owner.close()
})
