/** The PayPal donation link of the donate page: the configured link with the chosen gift and the way back. */

export interface PaypalGift {
  amount: number
  currency: string
  /** Where the page lives (window.location.origin): PayPal sends the donor back there. */
  origin: string
}

/**
 * Adds `amount`, `currency_code`, `return` and `cancel_return` (spec part 2 §2) to the configured
 * link, keeping its own parameters (a `hosted_button_id`, a `business`…); ours replace same-named ones.
 */
export function paypalUrl(link: string, { amount, currency, origin }: PaypalGift): string {
  const url = new URL(link)
  const params = new URLSearchParams(url.search)
  params.set('amount', amount.toFixed(2))
  params.set('currency_code', currency)
  params.set('return', new URL('/donate?success=true', origin).href)
  params.set('cancel_return', new URL('/donate?cancelled=true', origin).href)
  url.search = params.toString()
  return url.href
}
