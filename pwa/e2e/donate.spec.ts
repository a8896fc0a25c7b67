import { expect, test } from '@playwright/test'
import { person, watchConsole } from './helpers.ts'

// The server runs with every way to give configured (playwright.config.ts: DONATION_*).

test('PayPal sends the donor back to a banner that can be dismissed, both ways', async ({ page }) => {
  const problems = watchConsole(page)
  await page.goto('/donate?success=true')
  const thanks = page.getByText('Thank you for your donation! Your support keeps Buble running.')
  await expect(thanks).toBeVisible()
  await page.getByRole('button', { name: 'Dismiss' }).click()
  await expect(thanks).toHaveCount(0)
  expect(new URL(page.url()).search).toBe('')
  await expect(page.getByRole('heading', { name: 'Support Buble' })).toBeFocused()

  await page.goto('/donate?cancelled=true')
  const cancelled = page.getByText(/Your donation was cancelled/)
  await expect(cancelled).toBeVisible()
  await expect(page.getByText(/Thank you for your donation/)).toHaveCount(0)
  await page.getByRole('button', { name: 'Dismiss' }).click()
  await expect(cancelled).toHaveCount(0)
  expect(problems).toEqual([])
})

test('the PayPal link carries the chosen amount and the way back; the card link and bank details show', async ({
  page,
  baseURL,
}) => {
  const problems = watchConsole(page)
  await page.goto('/donate')
  const paypal = page.getByRole('link', { name: 'Donate with PayPal' })
  const params = async () => new URL((await paypal.getAttribute('href')) ?? '').searchParams
  await expect(paypal).toBeVisible()
  await expect(page.getByRole('radio', { name: '€10' })).toBeChecked()
  expect(Object.fromEntries(await params())).toEqual({
    hosted_button_id: 'E2E',
    amount: '10.00',
    currency_code: 'EUR',
    return: `${baseURL}/donate?success=true`,
    cancel_return: `${baseURL}/donate?cancelled=true`,
  })
  expect((await paypal.getAttribute('href'))?.startsWith('https://www.paypal.com/donate?')).toBe(true)

  // Keyboard: the amounts are one radio group, moved through with the arrow keys.
  await page.getByRole('radio', { name: '€10' }).focus()
  await page.keyboard.press('ArrowRight')
  await expect(page.getByRole('radio', { name: '€20' })).toBeChecked()
  expect((await params()).get('amount')).toBe('20.00')

  await page.getByLabel('Other amount (EUR)').fill('7.5')
  expect((await params()).get('amount')).toBe('7.50')

  await expect(page.getByRole('link', { name: 'Donate by card' })).toHaveAttribute(
    'href',
    'https://donate.stripe.com/test_e2e',
  )
  const bank = page.getByRole('region', { name: 'Bank transfer' })
  await expect(bank.getByText('DE89 3704 0044 0532 0130 00')).toBeVisible()
  await expect(bank.getByText('COBADEFFXXX')).toBeVisible()
  expect(problems).toEqual([])
})

test('a visitor who is signed out pledges at 360 px and sees the thank-you', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } })
  const page = await context.newPage()
  const problems = watchConsole(page)
  await page.goto('/donate')
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible()
  await page.getByRole('radio', { name: '€50' }).check()
  const form = page.getByRole('form', { name: 'Pledge a donation' })
  await form.getByLabel('Name').fill('Ada Lovelace')
  await form.getByLabel('Email').fill('ada@example.com')
  const message = form.getByLabel('Message (optional)')
  await message.fill('For the servers')
  await expect(form.getByText('15 / 1,000')).toBeVisible()
  await form.getByRole('button', { name: 'Send pledge' }).click()
  await expect(page.getByText('Thank you, Ada Lovelace! Your pledge of €50.00 has been recorded.')).toBeVisible()
  // Nothing wider than the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  expect(problems).toEqual([])
  await context.close()
})

test('a bad email is refused under its field, without leaving the page', async ({ page }) => {
  const problems = watchConsole(page)
  await page.goto('/donate')
  const form = page.getByRole('form', { name: 'Pledge a donation' })
  await form.getByLabel('Name').fill('Ada Lovelace')
  await form.getByLabel('Email').fill('ada@localhost')
  await form.getByRole('button', { name: 'Send pledge' }).click()
  await expect(form.getByText('Please enter a valid email address')).toBeVisible()
  await expect(form.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true')
  expect(problems).toEqual([])
})

test('signed in, the footer leads to Donate and Privacy', async ({ browser }) => {
  const ada = await person(browser, 'Ada Donor')
  await ada.page.getByRole('contentinfo').getByRole('link', { name: 'Donate' }).click()
  await expect(ada.page).toHaveURL(/\/donate$/)
  await expect(ada.page.getByRole('heading', { name: 'Support Buble' })).toBeVisible()
  await expect(ada.page.getByRole('link', { name: 'Back to your bubles' })).toBeVisible()
  await ada.page.getByRole('link', { name: 'Privacy policy' }).click()
  await expect(ada.page.getByRole('heading', { name: 'Privacy policy', level: 1 })).toBeVisible()
  await expect(ada.page.getByText('You must be at least 13 years old to create an account.')).toBeVisible()
  expect(ada.problems).toEqual([])
  await ada.close()
})
