/** Donations (CONTRACT §3.5, spec part 2 §3, §5, §9): the page's config and the pledge form's body. */

import { z } from 'zod'
import { Email, UserName } from './auth.ts'
import { LIMITS } from './constants.ts'

/** Spec part 2 §9. */
export const DONATION_DEFAULTS = {
  currency: 'EUR',
  suggestedAmounts: [5, 10, 20, 50],
  amount: 10,
  minAmount: 1,
} as const

/** The largest pledge accepted: far beyond any real one, and well inside exact cents. */
export const MAX_PLEDGE_AMOUNT = 1_000_000

export const DONATION_MESSAGES = {
  amountRequired: 'Amount is required',
  amountNotNumber: 'Amount must be a number',
  amountMin: `Amount must be at least ${DONATION_DEFAULTS.minAmount}`,
  amountMax: `Amount must be at most ${MAX_PLEDGE_AMOUNT.toLocaleString('en')}`,
  amountDecimals: 'Amount can have at most 2 decimals',
  currencyInvalid: 'Currency must be a 3-letter ISO 4217 code',
  currencyOther: (currency: string) => `Pledges are taken in ${currency}`,
  messageTooLong: `Message must be at most ${LIMITS.pledgeMessage.toLocaleString('en')} characters`,
} as const

/** GET /api/donations/config: unset links and bank details are null, and the page hides their section. */
export const DonationConfig = z.object({
  currency: z.string(),
  stripeLink: z.string().nullable(),
  paypalLink: z.string().nullable(),
  bankIban: z.string().nullable(),
  bankBic: z.string().nullable(),
  suggestedAmounts: z.array(z.number()),
})
export type DonationConfig = z.infer<typeof DonationConfig>

/** True when a number has at most two decimals, judged by its shortest decimal form (10.1 yes, 10.005 no). */
export const hasAtMostTwoDecimals = (amount: number): boolean => /^\d+(\.\d{1,2})?$/.test(String(amount))

/** An amount in whole cents (minor units); exact for any amount with at most two decimals. */
export const toCents = (amount: number): number => Math.round(amount * 100)

export const PledgeAmount = z
  .number({
    error: (issue) =>
      issue.input === undefined ? DONATION_MESSAGES.amountRequired : DONATION_MESSAGES.amountNotNumber,
  })
  .min(DONATION_DEFAULTS.minAmount, DONATION_MESSAGES.amountMin)
  .max(MAX_PLEDGE_AMOUNT, DONATION_MESSAGES.amountMax)
  .refine(hasAtMostTwoDecimals, DONATION_MESSAGES.amountDecimals)

/**
 * POST /api/donations/pledge for a page whose currency is `currency`: a pledge is a promise to pay
 * through that page's channels, which all take that currency, so another one is refused.
 */
export const pledgeBody = (currency: string) =>
  z.object({
    // Blank is "required" (spec part 2 §5), not "too short".
    name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').pipe(UserName),
    email: Email,
    amount: PledgeAmount,
    currency: z
      .string({ error: DONATION_MESSAGES.currencyInvalid })
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{3}$/, DONATION_MESSAGES.currencyInvalid)
      .refine((code) => code === currency, DONATION_MESSAGES.currencyOther(currency)),
    message: z
      .string()
      .trim()
      .max(LIMITS.pledgeMessage, DONATION_MESSAGES.messageTooLong)
      .nullish()
      .transform((message) => (message ? message : null)),
  })
export type PledgeBody = z.infer<ReturnType<typeof pledgeBody>>
/** What a form sends, before trimming and defaults. */
export type PledgeInput = z.input<ReturnType<typeof pledgeBody>>

export const PledgeResponse = z.object({ id: z.string(), message: z.string() })
export type PledgeResponse = z.infer<typeof PledgeResponse>

/** Formats an amount in a currency for people ("€10.00"); an unknown code falls back to "10.00 XYZ". */
export function formatAmount(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).format(amount)
  } catch {
    return `${amount.toFixed(2)} ${currency}`
  }
}

/** The thank-you the pledge call answers with. */
export const pledgeThanks = (name: string, amount: number, currency: string): string =>
  `Thank you, ${name}! Your pledge of ${formatAmount(amount, currency)} has been recorded.`
