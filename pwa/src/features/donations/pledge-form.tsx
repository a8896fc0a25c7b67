import { LIMITS } from '@buble/shared/constants'
import { formatAmount, type PledgeResponse, pledgeBody } from '@buble/shared/donations'
import { type FormEvent, useState } from 'react'
import { ApiError } from '../../session/api-client.ts'
import { useApi } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { Field } from '../../ui/field.tsx'
import { DONATE_TEXTS } from './donate-texts.ts'

type FieldName = 'name' | 'email' | 'amount' | 'message'
type FieldErrors = Partial<Record<FieldName, string>>

/** The first problem of each field, from zod's or the server's issues. */
function errorsOf(issues: readonly { path: string; message: string }[]): FieldErrors {
  const errors: FieldErrors = {}
  for (const issue of issues) {
    const field = (issue.path.split('.')[0] ?? '') as FieldName
    if (['name', 'email', 'amount', 'message'].includes(field)) errors[field] ??= issue.message
  }
  return errors
}

const counter = (length: number) => `${length.toLocaleString('en')} / ${LIMITS.pledgeMessage.toLocaleString('en')}`

/**
 * A pledge to give: name, e-mail and a message, for the amount chosen above it. Problems with the
 * amount are shown there (`onAmountProblem`), the rest under their fields.
 */
export function PledgeForm({
  amount,
  amountProblem,
  currency,
  onAmountProblem,
}: {
  amount: number | null
  amountProblem: string | null
  currency: string
  onAmountProblem: (message: string) => void
}) {
  const api = useApi()
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [message, setMessage] = useState('')
  const [errors, setErrors] = useState<FieldErrors>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [thanks, setThanks] = useState<string | null>(null)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setFailure(null)
    const parsed = pledgeBody(currency).safeParse({ name, email, amount: amount ?? undefined, currency, message })
    if (!parsed.success || amountProblem) {
      const found = parsed.success
        ? {}
        : errorsOf(parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })))
      if (amountProblem) found.amount = amountProblem
      setErrors(found)
      if (found.amount) onAmountProblem(found.amount)
      return
    }
    setErrors({})
    setBusy(true)
    try {
      const answer = await api.post<PledgeResponse>('/donations/pledge', parsed.data)
      setThanks(answer.message)
      setMessage('')
    } catch (err) {
      const found = err instanceof ApiError && err.code === 'VALIDATION_ERROR' ? errorsOf(err.issues ?? []) : {}
      setErrors(found)
      if (found.amount) onAmountProblem(found.amount)
      // Spec part 2 §8's text, with the server's words when no field shows them (too many pledges, another currency).
      const unshown =
        err instanceof ApiError &&
        (err.code === 'RATE_LIMITED' || (err.code === 'VALIDATION_ERROR' && Object.keys(found).length === 0))
      setFailure(unshown ? err.message : '')
    } finally {
      setBusy(false)
    }
  }

  if (thanks !== null) {
    return (
      <div className="donate-thanks">
        <Alert kind="success">{thanks}</Alert>
        <button type="button" className="btn btn-secondary" onClick={() => setThanks(null)}>
          {DONATE_TEXTS.pledgeAgain}
        </button>
      </div>
    )
  }

  return (
    <form onSubmit={submit} noValidate aria-label={DONATE_TEXTS.pledge}>
      {failure !== null && (
        <Alert kind="error">
          {DONATE_TEXTS.pledgeFailed}
          {failure && <span className="donate-failure-detail"> {failure}</span>}
        </Alert>
      )}
      <p className="donate-pledge-amount">
        You pledge <strong>{amount === null ? '—' : formatAmount(amount, currency)}</strong>{' '}
        <a href="#donation-amount">Change the amount</a>
      </p>
      <Field
        label="Name"
        name="name"
        autoComplete="name"
        required
        value={name}
        onValue={setName}
        error={errors.name}
        maxLength={LIMITS.userNameMax}
      />
      <Field
        label="Email"
        type="email"
        name="email"
        autoComplete="email"
        required
        value={email}
        onValue={setEmail}
        error={errors.email}
      />
      <Field
        label="Message (optional)"
        name="message"
        rows={4}
        value={message}
        onValue={setMessage}
        error={errors.message}
        maxLength={LIMITS.pledgeMessage}
        hint={<span className="donate-counter">{counter(message.length)}</span>}
      />
      <div className="form-actions form-actions-start">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? DONATE_TEXTS.pledgeSending : DONATE_TEXTS.pledgeSubmit}
        </button>
      </div>
    </form>
  )
}
