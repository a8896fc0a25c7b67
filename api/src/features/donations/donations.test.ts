import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { donationPledges } from '../../db/schema.ts'
import { backends } from '../../testing/databases.ts'
import { createHarness, type Harness } from '../../testing/harness.ts'

/**
 * Donations (CONTRACT §3.5, §6, §7): the page's config from the environment, pledges stored in
 * cents, the validation table, 10 pledges per hour per IP, and no token needed anywhere.
 */

const CONFIGURED = {
  DONATION_CURRENCY: 'SEK',
  DONATION_STRIPE_LINK: 'https://donate.stripe.com/test_buble',
  DONATION_PAYPAL_LINK: 'https://www.paypal.com/donate?hosted_button_id=BUBLE',
  DONATION_BANK_IBAN: 'SE45 5000 0000 0583 9825 7466',
  DONATION_BANK_BIC: 'ESSESESS',
  DONATION_SUGGESTED_AMOUNTS: '50, 100,200',
  // Tests tell callers apart by X-Forwarded-For.
  TRUST_PROXY: '1',
}

const pledge = (body: Record<string, unknown> = {}) => ({
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  amount: 25,
  currency: 'SEK',
  message: 'Keep it up',
  ...body,
})

let ipCounter = 0
const freshIp = () => `203.0.113.${++ipCounter}`

describe.each(backends())('donations on %s', (backend) => {
  let h: Harness
  let plain: Harness
  beforeAll(async () => {
    h = await createHarness(backend, CONFIGURED)
    plain = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
  })
  afterAll(async () => {
    await h?.close()
    await plain?.close()
  })

  const send = (body: unknown, ip = freshIp(), harness = h) =>
    harness.call('POST', '/api/donations/pledge', { body, headers: { 'x-forwarded-for': ip } })

  test('the config answers the configured currency, links, bank details and amounts, without a token', async () => {
    const res = await h.call('GET', '/api/donations/config')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      currency: 'SEK',
      stripeLink: 'https://donate.stripe.com/test_buble',
      paypalLink: 'https://www.paypal.com/donate?hosted_button_id=BUBLE',
      bankIban: 'SE45 5000 0000 0583 9825 7466',
      bankBic: 'ESSESESS',
      suggestedAmounts: [50, 100, 200],
    })
  })

  test('unset, the config answers EUR, null links and bank details, and 5, 10, 20, 50', async () => {
    const res = await plain.call('GET', '/api/donations/config')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      currency: 'EUR',
      stripeLink: null,
      paypalLink: null,
      bankIban: null,
      bankBic: null,
      suggestedAmounts: [5, 10, 20, 50],
    })
  })

  test('a pledge answers 201 with an id and a thank-you, and is stored in cents', async () => {
    const res = await send(
      pledge({ name: '  Ada Lovelace ', email: ' ADA@Example.com', amount: 12.5, currency: 'sek' }),
    )
    expect(res.status).toBe(201)
    const body = await res.json()
    expect(body).toEqual({ id: expect.any(String), message: expect.stringContaining('Thank you, Ada Lovelace!') })
    expect(body.message).toContain('SEK')
    expect(body.message).toContain('12.50')
    const rows = await h.database.db.select().from(donationPledges).where(eq(donationPledges.id, body.id))
    expect(rows).toEqual([
      {
        id: body.id,
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        amountCents: 1250,
        currency: 'SEK',
        message: 'Keep it up',
        createdAt: h.clock.now,
      },
    ])
  })

  test('a pledge without a message, or with a blank one, stores null; whole amounts are exact', async () => {
    const { message: _message, ...withoutMessage } = pledge({ amount: 1 })
    const first = await send(withoutMessage)
    const second = await send(pledge({ message: '   ', amount: 999_999.99 }))
    expect([first.status, second.status]).toEqual([201, 201])
    const ids = [(await first.json()).id, (await second.json()).id]
    const rows = await Promise.all(
      ids.map(async (id) => (await h.database.db.select().from(donationPledges).where(eq(donationPledges.id, id)))[0]),
    )
    expect(rows.map((row) => [row?.amountCents, row?.message])).toEqual([
      [100, null],
      [99_999_999, null],
    ])
  })

  test.each([
    ['a missing name', { name: undefined }, 'name', 'Name is required'],
    ['a blank name', { name: '   ' }, 'name', 'Name is required'],
    ['a one-letter name', { name: 'A' }, 'name', 'Name must be at least 2 characters'],
    ['a name with a line break', { name: 'Ada\nLovelace' }, 'name', 'Name must not contain control characters'],
    ['a name with a bidi override', { name: 'Ada\u202eLovelace' }, 'name', 'Name must not contain control characters'],
    ['a missing email', { email: undefined }, 'email', 'Email is required'],
    ['a bad email', { email: 'ada@localhost' }, 'email', 'Please enter a valid email address'],
    ['a missing amount', { amount: undefined }, 'amount', 'Amount is required'],
    ['amount 0', { amount: 0 }, 'amount', 'Amount must be at least 1'],
    ['amount 0.5', { amount: 0.5 }, 'amount', 'Amount must be at least 1'],
    ['a negative amount', { amount: -10 }, 'amount', 'Amount must be at least 1'],
    ['amount "abc"', { amount: 'abc' }, 'amount', 'Amount must be a number'],
    ['amount "10" as text', { amount: '10' }, 'amount', 'Amount must be a number'],
    ['three decimals', { amount: 10.005 }, 'amount', 'Amount can have at most 2 decimals'],
    ['an absurd amount', { amount: 1e9 }, 'amount', 'Amount must be at most 1,000,000'],
    [
      'a message of 1,001 characters',
      { message: 'x'.repeat(1001) },
      'message',
      'Message must be at most 1,000 characters',
    ],
    ['a currency that is not a code', { currency: 'EURO' }, 'currency', 'Currency must be a 3-letter ISO 4217 code'],
    ['digits as a currency', { currency: '123' }, 'currency', 'Currency must be a 3-letter ISO 4217 code'],
    ['a missing currency', { currency: undefined }, 'currency', 'Currency must be a 3-letter ISO 4217 code'],
    ['another currency than the page takes', { currency: 'USD' }, 'currency', 'Pledges are taken in SEK'],
  ])('%s is a 400 naming the field', async (_what, change, path, message) => {
    const before = await h.database.db.select().from(donationPledges)
    const res = await send(pledge(change))
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body).toMatchObject({ code: 'VALIDATION_ERROR', message })
    expect(body.issues).toContainEqual({ path, message })
    expect(await h.database.db.select().from(donationPledges)).toHaveLength(before.length)
  })

  test('a message of exactly 1,000 characters is taken', async () => {
    expect((await send(pledge({ message: 'x'.repeat(1000) }))).status).toBe(201)
  })

  test('a body that is not JSON is a 400', async () => {
    const res = await send('{"name": ')
    expect(res.status).toBe(400)
    expect((await res.json()).code).toBe('VALIDATION_ERROR')
  })

  test('the 11th pledge within an hour from one IP is a 429 with Retry-After; another IP still passes', async () => {
    const ip = freshIp()
    for (let i = 0; i < 10; i++) expect((await send(pledge(), ip)).status).toBe(201)
    const refused = await send(pledge(), ip)
    expect(refused.status).toBe(429)
    expect((await refused.json()).code).toBe('RATE_LIMITED')
    const retryAfter = Number(refused.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(3600)
    expect((await send(pledge(), freshIp())).status).toBe(201)
  })

  test('with BUBLE_RATE_LIMITS=off, pledges are not counted', async () => {
    for (let i = 0; i < 11; i++)
      expect((await send(pledge({ currency: 'EUR' }), '198.51.100.1', plain)).status).toBe(201)
  })

  test('a stale or broken token does not matter: the calls are public', async () => {
    const headers = { authorization: 'Bearer not-a-token', 'x-forwarded-for': freshIp() }
    expect((await h.call('GET', '/api/donations/config', { headers })).status).toBe(200)
    expect((await h.call('POST', '/api/donations/pledge', { body: pledge(), headers })).status).toBe(201)
  })

  test('the OpenAPI document lists both calls as needing no token', async () => {
    const spec = await (await h.call('GET', '/api/openapi.json')).json()
    expect(spec.paths['/api/donations/config'].get.security).toEqual([])
    expect(spec.paths['/api/donations/pledge'].post.security).toEqual([])
  })
})
