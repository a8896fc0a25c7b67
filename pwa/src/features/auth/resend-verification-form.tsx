import { EmailBody, MessageResponse } from '@buble/shared/auth'
import { type FormEvent, useState } from 'react'
import { messageOf } from '../../session/api-client.ts'
import { useApi } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { Field } from '../../ui/field.tsx'

/** Asks for a new verification mail for any address (the answer is the same whether or not it exists). */
export function ResendVerificationForm({ initialEmail }: { initialEmail: string }) {
  const api = useApi()
  const [email, setEmail] = useState(initialEmail)
  const [error, setError] = useState<string | null>(null)
  const [sent, setSent] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    const body = EmailBody.safeParse({ email })
    if (!body.success) return setError(body.error.issues[0]?.message ?? 'Failed to resend verification email')
    setError(null)
    setBusy(true)
    try {
      const answer = MessageResponse.safeParse(await api.post('/auth/resend-verification', body.data))
      setSent(answer.success ? answer.data.message : 'Verification email sent! Please check your inbox.')
    } catch (err) {
      setError(messageOf(err, 'Failed to resend verification email'))
    } finally {
      setBusy(false)
    }
  }

  if (sent) return <Alert kind="success">{sent}</Alert>
  return (
    <form onSubmit={submit} noValidate className="resend-form">
      <h2 className="section-title">Need a new link?</h2>
      {error && <Alert kind="error">{error}</Alert>}
      <Field label="Email" type="email" autoComplete="email" required value={email} onValue={setEmail} />
      <button type="submit" className="btn btn-secondary btn-block" disabled={busy}>
        {busy ? 'Sending…' : 'Resend verification email'}
      </button>
    </form>
  )
}
