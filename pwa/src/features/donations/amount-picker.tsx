import { DONATION_DEFAULTS, DONATION_MESSAGES, PledgeAmount } from '@buble/shared/donations'
import { useId } from 'react'
import { DONATE_TEXTS } from './donate-texts.ts'

/** A suggested amount, or what the donor typed into "Other amount". */
export type AmountChoice = { kind: 'suggested'; amount: number } | { kind: 'custom'; text: string }

/** Spec part 2 §9: 10 when it is on offer, else the first suggestion, else nothing until the donor types. */
export function defaultChoice(suggested: readonly number[]): AmountChoice {
  const amount = suggested.includes(DONATION_DEFAULTS.amount) ? DONATION_DEFAULTS.amount : suggested[0]
  return amount === undefined ? { kind: 'custom', text: '' } : { kind: 'suggested', amount }
}

/** The chosen amount when it is one a donation may have (at least 1, at most 2 decimals), else why not. */
export function amountOf(choice: AmountChoice): { amount: number; problem: null } | { amount: null; problem: string } {
  if (choice.kind === 'suggested') return { amount: choice.amount, problem: null }
  const text = choice.text.trim().replace(',', '.')
  if (text === '') return { amount: null, problem: DONATION_MESSAGES.amountRequired }
  const parsed = PledgeAmount.safeParse(Number(text))
  if (!parsed.success)
    return { amount: null, problem: parsed.error.issues[0]?.message ?? DONATION_MESSAGES.amountNotNumber }
  return { amount: parsed.data, problem: null }
}

// "€5", "€12.50": whole amounts read better without ".00" on a button.
const short = (amount: number, currency: string) => {
  try {
    return new Intl.NumberFormat('en', {
      style: 'currency',
      currency,
      minimumFractionDigits: Number.isInteger(amount) ? 0 : 2,
    }).format(amount)
  } catch {
    return `${amount} ${currency}`
  }
}

/** The suggested amounts as radio buttons, and a field for any other amount. */
export function AmountPicker({
  suggested,
  currency,
  choice,
  error,
  onChoice,
}: {
  suggested: readonly number[]
  currency: string
  choice: AmountChoice
  /** Shown under "Other amount" (a custom amount that cannot be given). */
  error: string | null
  onChoice: (choice: AmountChoice) => void
}) {
  const otherId = useId()
  const errorId = `${otherId}-error`
  return (
    <fieldset className="donate-amounts" id="donation-amount">
      <legend>{DONATE_TEXTS.amountLegend}</legend>
      {suggested.length > 0 && (
        <div className="donate-amount-options">
          {suggested.map((amount) => (
            <label key={amount} className="donate-amount-option">
              <input
                type="radio"
                name="donation-amount"
                value={amount}
                checked={choice.kind === 'suggested' && choice.amount === amount}
                onChange={() => onChoice({ kind: 'suggested', amount })}
              />
              <span>{short(amount, currency)}</span>
            </label>
          ))}
        </div>
      )}
      <div className="field donate-other">
        <label htmlFor={otherId}>
          {DONATE_TEXTS.otherAmount} ({currency})
        </label>
        <input
          id={otherId}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          placeholder={`${DONATION_DEFAULTS.minAmount} or more`}
          value={choice.kind === 'custom' ? choice.text : ''}
          onChange={(event) => {
            const text = event.target.value
            // Emptying the field falls back to the default suggestion, so a gift is always chosen.
            onChoice(text === '' && suggested.length > 0 ? defaultChoice(suggested) : { kind: 'custom', text })
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        {error && (
          <p className="field-error" id={errorId}>
            {error}
          </p>
        )}
      </div>
    </fieldset>
  )
}
