import { expect, test } from 'vitest'
import { paypalUrl } from './paypal-link.ts'

const gift = { amount: 10, currency: 'EUR', origin: 'https://buble.example' }

test('adds amount, currency_code, return and cancel_return to a bare link', () => {
  const url = new URL(paypalUrl('https://www.paypal.com/donate', gift))
  expect(url.origin + url.pathname).toBe('https://www.paypal.com/donate')
  expect(Object.fromEntries(url.searchParams)).toEqual({
    amount: '10.00',
    currency_code: 'EUR',
    return: 'https://buble.example/donate?success=true',
    cancel_return: 'https://buble.example/donate?cancelled=true',
  })
})

test("keeps the configured link's own parameters and its fragment", () => {
  const url = new URL(
    paypalUrl('https://www.paypal.com/cgi-bin/webscr?cmd=_donations&business=give%40buble.example#top', {
      ...gift,
      amount: 12.5,
      currency: 'SEK',
    }),
  )
  expect(url.searchParams.get('cmd')).toBe('_donations')
  expect(url.searchParams.get('business')).toBe('give@buble.example')
  expect(url.searchParams.get('amount')).toBe('12.50')
  expect(url.searchParams.get('currency_code')).toBe('SEK')
  expect(url.hash).toBe('#top')
})

test('replaces an amount or currency the configured link already names, without repeating it', () => {
  const url = new URL(paypalUrl('https://www.paypal.com/donate?amount=1&currency_code=USD&hosted_button_id=X', gift))
  expect(url.searchParams.getAll('amount')).toEqual(['10.00'])
  expect(url.searchParams.getAll('currency_code')).toEqual(['EUR'])
  expect(url.searchParams.get('hosted_button_id')).toBe('X')
})

test('the way back is encoded, so its own query survives the trip', () => {
  const href = paypalUrl('https://www.paypal.com/donate', { ...gift, origin: 'http://127.0.0.1:8080' })
  expect(href).toContain(`return=${encodeURIComponent('http://127.0.0.1:8080/donate?success=true')}`)
})
