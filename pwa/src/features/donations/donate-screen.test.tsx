import type { DonationConfig } from '@buble/shared/donations'
import { screen, waitFor, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import { deferred } from '../../test/deferred.ts'
import { json, type Reply } from '../../test/fake-fetch.ts'
import { alice } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'

const CONFIG = 'GET /api/donations/config'
const PLEDGE = 'POST /api/donations/pledge'

const configured: DonationConfig = {
  currency: 'EUR',
  stripeLink: 'https://donate.stripe.com/test_buble',
  paypalLink: 'https://www.paypal.com/donate?hosted_button_id=BUBLE',
  bankIban: 'DE89 3704 0044 0532 0130 00',
  bankBic: 'COBADEFFXXX',
  suggestedAmounts: [5, 10, 20, 50],
}

function open(api: Record<string, Reply | Reply[]> = {}, route = '/donate', signedIn = false) {
  return renderApp({ route, api: { [CONFIG]: json(200, configured), ...api }, ...(signedIn ? { user: alice } : {}) })
}

const paypalParams = () =>
  new URL(screen.getByRole('link', { name: 'Donate with PayPal' }).getAttribute('href') ?? '').searchParams

async function fillPledge(app: ReturnType<typeof open>, message = 'Keep going') {
  await app.user.type(screen.getByLabelText('Name'), 'Ada Lovelace')
  await app.user.type(screen.getByLabelText('Email'), 'ada@example.com')
  if (message) await app.user.type(screen.getByLabelText('Message (optional)'), message)
  await app.user.click(screen.getByRole('button', { name: 'Send pledge' }))
}

test('while the options load a spinner shows; then the card link, PayPal, the bank details and the pledge form', async () => {
  const answer = deferred<Response>()
  open({ [CONFIG]: () => answer.promise })
  expect(screen.getByRole('heading', { name: 'Support Buble' })).toBeInTheDocument()
  expect(screen.getByRole('status')).toHaveTextContent('Loading donation options…')
  answer.resolve(json(200, configured))
  expect(await screen.findByRole('link', { name: 'Donate by card' })).toHaveAttribute(
    'href',
    'https://donate.stripe.com/test_buble',
  )
  const bank = screen.getByRole('region', { name: 'Bank transfer' })
  expect(within(bank).getByText('DE89 3704 0044 0532 0130 00')).toBeInTheDocument()
  expect(within(bank).getByText('COBADEFFXXX')).toBeInTheDocument()
  expect(within(bank).getByText('EUR')).toBeInTheDocument()
  expect(screen.getByRole('form', { name: 'Pledge a donation' })).toBeInTheDocument()
})

test('the PayPal link carries the amount, currency_code, return and cancel_return and keeps its own parameters', async () => {
  open()
  await screen.findByRole('link', { name: 'Donate with PayPal' })
  const href = new URL(screen.getByRole('link', { name: 'Donate with PayPal' }).getAttribute('href') ?? '')
  expect(href.origin + href.pathname).toBe('https://www.paypal.com/donate')
  expect(Object.fromEntries(href.searchParams)).toEqual({
    hosted_button_id: 'BUBLE',
    amount: '10.00',
    currency_code: 'EUR',
    return: `${window.location.origin}/donate?success=true`,
    cancel_return: `${window.location.origin}/donate?cancelled=true`,
  })
})

test('10 is chosen by default; choosing 20 moves the PayPal link and the pledge to 20', async () => {
  const app = open({ [PLEDGE]: json(201, { id: 'p1', message: 'Thank you, Ada Lovelace!' }) })
  const ten = await screen.findByRole('radio', { name: '€10' })
  expect(ten).toBeChecked()
  expect(screen.getAllByRole('radio').map((radio) => radio.getAttribute('value'))).toEqual(['5', '10', '20', '50'])
  await app.user.click(screen.getByRole('radio', { name: '€20' }))
  expect(screen.getByRole('radio', { name: '€20' })).toBeChecked()
  expect(ten).not.toBeChecked()
  expect(paypalParams().get('amount')).toBe('20.00')
  expect(screen.getByText('€20.00')).toBeInTheDocument()
  await fillPledge(app)
  await screen.findByText('Thank you, Ada Lovelace!')
  expect(app.callsTo(PLEDGE)[0]?.body).toEqual({
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    amount: 20,
    currency: 'EUR',
    message: 'Keep going',
  })
})

test('another amount can be typed; one below 1 or with 3 decimals is refused before PayPal or a pledge', async () => {
  const app = open()
  const other = await screen.findByLabelText('Other amount (EUR)')
  await app.user.type(other, '12,5')
  expect(screen.getByRole('radio', { name: '€10' })).not.toBeChecked()
  expect(paypalParams().get('amount')).toBe('12.50')
  await app.user.clear(other)
  await app.user.type(other, '0.5')
  expect(screen.getByText('Amount must be at least 1')).toBeInTheDocument()
  expect(other).toHaveAttribute('aria-invalid', 'true')
  expect(screen.queryByRole('link', { name: 'Donate with PayPal' })).not.toBeInTheDocument()
  expect(screen.getByRole('button', { name: 'Donate with PayPal' })).toBeDisabled()
  await app.user.clear(other)
  await app.user.type(other, '10.005')
  expect(screen.getByText('Amount can have at most 2 decimals')).toBeInTheDocument()
  await fillPledge(app)
  expect(app.callsTo(PLEDGE)).toHaveLength(0)
  await app.user.clear(other)
  expect(screen.getByRole('radio', { name: '€10' })).toBeChecked()
})

test('sections that are not configured are left out', async () => {
  open({
    [CONFIG]: json(200, { ...configured, stripeLink: null, paypalLink: null, bankIban: null, bankBic: null }),
  })
  expect(await screen.findByRole('form', { name: 'Pledge a donation' })).toBeInTheDocument()
  expect(screen.queryByRole('heading', { name: 'Give now' })).not.toBeInTheDocument()
  expect(screen.queryByRole('heading', { name: 'Bank transfer' })).not.toBeInTheDocument()
  expect(screen.queryByRole('link', { name: /Donate/ })).not.toBeInTheDocument()
})

test('only PayPal configured: the card link is left out, the PayPal link shows', async () => {
  open({ [CONFIG]: json(200, { ...configured, stripeLink: null, bankIban: null }) })
  expect(await screen.findByRole('link', { name: 'Donate with PayPal' })).toBeInTheDocument()
  expect(screen.queryByRole('link', { name: 'Donate by card' })).not.toBeInTheDocument()
  const bank = screen.getByRole('region', { name: 'Bank transfer' })
  expect(within(bank).queryByText('IBAN')).not.toBeInTheDocument()
  expect(within(bank).getByText('COBADEFFXXX')).toBeInTheDocument()
})

test('?success=true shows the thank-you banner, which can be dismissed', async () => {
  const app = open({}, '/donate?success=true')
  expect(screen.getByText('Thank you for your donation! Your support keeps Buble running.')).toBeInTheDocument()
  expect(screen.queryByText(/was cancelled/)).not.toBeInTheDocument()
  await app.user.click(screen.getByRole('button', { name: 'Dismiss' }))
  expect(screen.queryByText(/Thank you for your donation/)).not.toBeInTheDocument()
  expect(screen.getByRole('heading', { name: 'Support Buble' })).toHaveFocus()
  await screen.findByRole('form', { name: 'Pledge a donation' })
})

test('?cancelled=true shows the cancelled banner, which can be dismissed', async () => {
  const app = open({}, '/donate?cancelled=true')
  expect(
    screen.getByText('Your donation was cancelled. Nothing was charged; you can try again whenever you like.'),
  ).toBeInTheDocument()
  expect(screen.queryByText(/Thank you for your donation/)).not.toBeInTheDocument()
  await app.user.click(screen.getByRole('button', { name: 'Dismiss' }))
  expect(screen.queryByText(/was cancelled/)).not.toBeInTheDocument()
})

test('without either query there is no banner', async () => {
  open({}, '/donate?success=false')
  await screen.findByRole('form', { name: 'Pledge a donation' })
  expect(screen.queryByRole('button', { name: 'Dismiss' })).not.toBeInTheDocument()
})

test('a failed config load shows "Failed to load", and Try again asks again', async () => {
  const app = open({
    [CONFIG]: [json(500, { message: 'Something went wrong', code: 'INTERNAL_ERROR' }), json(200, configured)],
  })
  expect(await screen.findByRole('alert')).toHaveTextContent(/^Failed to load$/)
  expect(screen.queryByRole('form', { name: 'Pledge a donation' })).not.toBeInTheDocument()
  await app.user.click(screen.getByRole('button', { name: 'Try again' }))
  expect(await screen.findByRole('form', { name: 'Pledge a donation' })).toBeInTheDocument()
  expect(app.callsTo(CONFIG)).toHaveLength(2)
})

test('no answer at all (offline) is "Failed to load" too', async () => {
  open({ [CONFIG]: new TypeError('Failed to fetch') })
  expect(await screen.findByRole('alert')).toHaveTextContent(/^Failed to load$/)
})

test('a pledge shows its thank-you; another can be made after it', async () => {
  const app = open({
    [PLEDGE]: json(201, { id: 'p1', message: 'Thank you, Ada Lovelace! Your pledge of €10.00 has been recorded.' }),
  })
  await screen.findByRole('form', { name: 'Pledge a donation' })
  await fillPledge(app, '')
  expect(await screen.findByText('Thank you, Ada Lovelace! Your pledge of €10.00 has been recorded.')).toHaveAttribute(
    'role',
    'status',
  )
  expect(app.callsTo(PLEDGE)[0]?.body).toMatchObject({ amount: 10, currency: 'EUR' })
  await app.user.click(screen.getByRole('button', { name: 'Make another pledge' }))
  expect(screen.getByLabelText('Name')).toHaveValue('Ada Lovelace')
})

test('a failed pledge shows "Failed to submit pledge" and keeps what was typed', async () => {
  const app = open({ [PLEDGE]: json(500, { message: 'Something went wrong', code: 'INTERNAL_ERROR' }) })
  await screen.findByRole('form', { name: 'Pledge a donation' })
  await fillPledge(app)
  expect(await screen.findByRole('alert')).toHaveTextContent(/^Failed to submit pledge$/)
  expect(screen.getByLabelText('Message (optional)')).toHaveValue('Keep going')
  expect(screen.getByRole('button', { name: 'Send pledge' })).toBeEnabled()
})

test('too many pledges: "Failed to submit pledge" with the server saying when to come back', async () => {
  const app = open({
    [PLEDGE]: json(429, { message: 'Too many requests. Please try again later.', code: 'RATE_LIMITED' }),
  })
  await screen.findByRole('form', { name: 'Pledge a donation' })
  await fillPledge(app)
  expect(await screen.findByRole('alert')).toHaveTextContent(
    'Failed to submit pledge Too many requests. Please try again later.',
  )
})

test("the server's field problems show under their fields", async () => {
  const app = open({
    [PLEDGE]: json(400, {
      message: 'Please enter a valid email address',
      code: 'VALIDATION_ERROR',
      issues: [{ path: 'email', message: 'Please enter a valid email address' }],
    }),
  })
  await screen.findByRole('form', { name: 'Pledge a donation' })
  await fillPledge(app)
  await waitFor(() => expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true'))
  expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Please enter a valid email address')
})

test('missing name and a bad email are caught before any request', async () => {
  const app = open()
  await screen.findByRole('form', { name: 'Pledge a donation' })
  await app.user.type(screen.getByLabelText('Email'), 'ada@localhost')
  await app.user.click(screen.getByRole('button', { name: 'Send pledge' }))
  expect(screen.getByLabelText('Name')).toHaveAccessibleDescription('Name is required')
  expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Please enter a valid email address')
  expect(app.callsTo(PLEDGE)).toHaveLength(0)
})

test('the message counts its characters up to 1,000', async () => {
  const app = open()
  const message = await screen.findByLabelText('Message (optional)')
  expect(message).toHaveAttribute('maxlength', '1000')
  expect(message).toHaveAccessibleDescription('0 / 1,000')
  await app.user.type(message, 'Hello')
  expect(message).toHaveAccessibleDescription('5 / 1,000')
})

test('signed in, the page works the same and leads back to the bubles', async () => {
  open({}, '/donate', true)
  expect(await screen.findByRole('form', { name: 'Pledge a donation' })).toBeInTheDocument()
  expect(screen.getByRole('link', { name: 'Back to your bubles' })).toHaveAttribute('href', '/dashboard')
  expect(screen.getByRole('link', { name: 'Privacy policy' })).toHaveAttribute('href', '/privacy')
})
