import { expect, type Page, test } from '@playwright/test'
import { bubleMenuItems, inviteCode, join, openInviteDialog, PASSWORD, person, watchConsole } from './helpers.ts'
import { linkFromMail } from './mailbox.ts'

const membersTab = (page: Page) =>
  page.getByRole('navigation', { name: 'Buble sections' }).getByRole('link', { name: /^Members/ })

async function openMembers(page: Page) {
  await membersTab(page).click()
  await expect(page.getByRole('region', { name: 'Members' })).toBeVisible()
}

const manage = (page: Page, name: string) => page.getByRole('button', { name: `Manage ${name}` })

test('roles: promote to moderator, what a moderator may do, transfer ownership, remove a member, invite by e-mail', async ({
  browser,
}) => {
  const olga = await person(browser, 'Olga Owner')
  const mira = await person(browser, 'Mira Mod')
  const teo = await person(browser, 'Teo Plain')
  const team = `Team ${Date.now()}`

  await test.step('the owner creates a buble; two people join with codes', async () => {
    await olga.page.getByRole('button', { name: 'Create New Buble' }).click()
    await olga.page.getByLabel('Buble Name').fill(team)
    await olga.page.getByRole('button', { name: 'Create Buble' }).click()
    // On the server: the address moves to the slug it chose.
    await expect(olga.page).toHaveURL(/\/bubles\/team-\d+$/)
    await join(mira.page, await inviteCode(olga.page), team)
    await join(teo.page, await inviteCode(olga.page), team)
    // Two joined since the owner last looked at the members tab: its red counter says so.
    await expect(membersTab(olga.page)).toContainText('2 unread')
    await openMembers(olga.page)
    await expect(membersTab(olga.page)).not.toContainText('unread')
  })

  await test.step('the owner promotes a member to moderator and sees the success text', async () => {
    await expect(manage(olga.page, 'Olga Owner')).toHaveCount(0)
    await manage(olga.page, 'Mira Mod').click()
    const dialog = olga.page.getByRole('dialog', { name: 'Manage Member' })
    await dialog.getByLabel('Role', { exact: true }).selectOption('moderator')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect(dialog.getByText('Member role updated successfully')).toBeVisible()
    // It closes by itself 1.5 s later.
    await expect(dialog).toHaveCount(0)
    await expect(
      olga.page.getByRole('region', { name: 'Members' }).getByRole('listitem').filter({ hasText: 'Mira Mod' }),
    ).toContainText('Moderator')
  })

  await test.step("the moderator's Manage offers only what a moderator may do", async () => {
    await mira.page.reload()
    await openMembers(mira.page)
    // Not the owner, not themselves: only the plain member.
    await expect(manage(mira.page, 'Olga Owner')).toHaveCount(0)
    await expect(manage(mira.page, 'Mira Mod')).toHaveCount(0)
    await manage(mira.page, 'Teo Plain').click()
    const dialog = mira.page.getByRole('dialog', { name: 'Manage Member' })
    await expect(dialog.getByLabel('Role', { exact: true }).locator('option')).toHaveText(['Member'])
    await expect(dialog.getByRole('button', { name: 'Transfer Ownership' })).toHaveCount(0)
    await expect(dialog.getByRole('button', { name: 'Remove Member' })).toBeVisible()
    // A moderator holds no manage_members: the permissions follow the role.
    for (const box of await dialog.getByRole('checkbox').all()) await expect(box).toBeDisabled()
    await dialog.getByRole('button', { name: 'Cancel' }).click()
  })

  await test.step('the owner transfers ownership, after confirming, and now may only leave', async () => {
    await manage(olga.page, 'Mira Mod').click()
    const dialog = olga.page.getByRole('dialog', { name: 'Manage Member' })
    await dialog.getByRole('button', { name: 'Transfer Ownership' }).click()
    await olga.page
      .getByRole('dialog', { name: 'Transfer Ownership' })
      .getByRole('button', { name: 'Transfer Ownership' })
      .click()
    await expect(olga.page.getByText('Ownership transferred successfully')).toBeVisible()
    await expect.poll(() => bubleMenuItems(olga.page)).not.toContain('Delete Buble')
    expect(await bubleMenuItems(olga.page)).toContain('Leave Buble')
    await expect.poll(() => bubleMenuItems(mira.page)).toContain('Delete Buble')
  })

  await test.step('the new owner removes a member, who loses the buble without a reload', async () => {
    await teo.page.goto('/dashboard')
    await expect(teo.page.getByRole('article').filter({ hasText: team })).toBeVisible()
    await manage(mira.page, 'Teo Plain').click()
    await mira.page
      .getByRole('dialog', { name: 'Manage Member' })
      .getByRole('button', { name: 'Remove Member' })
      .click()
    await mira.page
      .getByRole('dialog', { name: 'Remove Member' })
      .getByRole('button', { name: 'Remove Member' })
      .click()
    await expect(mira.page.getByText('Member removed successfully')).toBeVisible()
    // Poke, pull, del: gone from Teo's dashboard, which was never reloaded.
    await expect(teo.page.getByRole('article').filter({ hasText: team })).toHaveCount(0)
    await expect(teo.page.getByRole('heading', { name: 'No bubles yet' })).toBeVisible()
  })

  await test.step('an e-mail invite to a new address ends signed in and a member', async () => {
    const ines = `ines-${Date.now()}@example.com`
    await openInviteDialog(mira.page)
    const dialog = mira.page.getByRole('dialog', { name: 'Invite code generated' })
    await dialog.getByLabel('E-mail address').fill(ines)
    await dialog.getByRole('button', { name: 'Send invite' }).click()
    await expect(dialog.getByRole('status')).toHaveText(`Invite sent to ${ines}`)
    await dialog.getByRole('button', { name: 'Done' }).click()

    const link = await linkFromMail(ines, '/complete-registration?token=')
    const context = await browser.newContext()
    const page = await context.newPage()
    const problems = watchConsole(page)
    await page.goto(link)
    await expect(page.getByRole('heading', { name: 'Welcome to Buble' })).toBeVisible()
    await page.getByLabel('New password', { exact: true }).fill(PASSWORD)
    await page.getByLabel('Confirm new password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Complete registration' }).click()
    // Straight into the buble that invited them (issue 21 §4), and it is on their dashboard.
    await expect(page.getByRole('heading', { level: 1, name: team })).toBeVisible()
    await page.goto('/dashboard')
    await expect(page.getByRole('heading', { name: 'Your Bubles' })).toBeVisible()
    await expect(page.getByRole('article').filter({ hasText: team })).toBeVisible()
    // Verified by the link itself: no banner asking to verify.
    await expect(page.getByRole('region', { name: 'Email verification' })).toHaveCount(0)
    expect(problems).toEqual([])
    await context.close()
  })

  for (const { problems } of [olga, mira, teo]) expect(problems).toEqual([])
  await Promise.all([olga.close(), mira.close(), teo.close()])
})
