import { expect, test } from '@playwright/test'
import { person } from './helpers.ts'

test.use({ viewport: { width: 360, height: 740 } })

test('the profile shows the calendar link, copies it, resets it and saves the reminder choice', async ({ browser }) => {
  const cal = await person(browser, 'Cal Endar')
  const { page, context } = cal
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])

  await test.step('a buble with an event, made through the API', async () => {
    const made = await page.evaluate(async () => {
      const token = JSON.parse(localStorage.getItem('auth-storage') ?? '{}').state?.token
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
      const buble = await (
        await fetch('/api/bubles', { method: 'POST', headers, body: JSON.stringify({ name: `Readers ${Date.now()}` }) })
      ).json()
      const event = await fetch(`/api/bubles/${buble.id}/events`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ title: 'Book night', event_time: '2031-03-04T18:00:00Z' }),
      })
      return event.status
    })
    expect(made).toBe(201)
  })

  const section = page.getByRole('region', { name: 'Calendar' })
  const link = section.getByLabel('Your calendar link')
  const feedOf = async (webcal: string) => page.request.get(webcal.replace(/^webcal:\/\/[^/]+/, ''))

  const first = await test.step('the profile shows the link, and the feed has the event', async () => {
    await page.goto('/profile')
    await expect(link).toHaveValue(/^webcal:\/\/127\.0\.0\.1:\d+\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/)
    const url = await link.inputValue()
    const feed = await feedOf(url)
    expect(feed.status()).toBe(200)
    expect(await feed.text()).toContain('SUMMARY:Book night')
    return url
  })

  await test.step('Copy puts the link on the clipboard', async () => {
    await section.getByRole('button', { name: 'Copy' }).click()
    await expect(section.getByRole('button', { name: 'Copied!' })).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first)
  })

  await test.step('the reminder choice is saved', async () => {
    const reminder = section.getByLabel('Remind me of events')
    await expect(reminder).toHaveValue('1h')
    await reminder.selectOption({ label: '1 day before' })
    await expect(section.getByText('Reminder saved')).toBeVisible()
    await page.reload()
    await expect(section.getByLabel('Remind me of events')).toHaveValue('1d')
  })

  await test.step('Reset asks first, then shows a new link; the old one answers 404', async () => {
    await section.getByRole('button', { name: 'Reset link' }).click()
    const dialog = page.getByRole('dialog', { name: 'Reset calendar link?' })
    await dialog.getByRole('button', { name: 'Reset link' }).click()
    await expect(dialog).toBeHidden()
    await expect(link).not.toHaveValue(first)
    await expect(link).toHaveValue(/\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/)
    expect((await feedOf(first)).status()).toBe(404)
    expect((await feedOf(await link.inputValue())).status()).toBe(200)
  })

  // Nothing wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  expect(cal.problems).toEqual([])
  await cal.close()
})
