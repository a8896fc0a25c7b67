import { EmailBody, MessageResponse } from '@buble/shared/auth'
import { type FormEvent, useState } from 'react'
import { Link } from 'react-router-dom'
import { messageOf } from '../../session/api-client.ts'
import { useApi } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { Field } from '../../ui/field.tsx'
import { useDocumentTitle } from '../../ui/use-document-title.ts'
import { AuthCard } from './auth-card.tsx'

export function ForgotPasswordScreen() {
  useDocumentTitle('Reset your password')
  const api = useApi()
  const [email, setEmail] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [sent, setSent] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    const body = EmailBody.safeParse({ email })
    if (!body.success) return setError(body.error.issues[0]?.message ?? 'Failed to send reset instructions')
    setError(null)
    setBusy(true)
    try {
      const answer = MessageResponse.safeParse(await api.post('/auth/forgot-password', body.data))
      setSent(answer.success ? answer.data.message : 'Check your inbox for reset instructions.')
    } catch (err) {
      setError(messageOf(err, 'Failed to send reset instructions'))
    } finally {
      setBusy(false)
    }
  }

  return (
    <AuthCard
      title="Forgot your password?"
      subtitle="Enter your email and we will send you a link to choose a new one."
      footer={
        <p>
          Remembered it? <Link to="/login">Back to sign in</Link>
        </p>
      }
    >
      {sent ? (
        <Alert kind="success">{sent}</Alert>
      ) : (
        <form onSubmit={submit} noValidate>
          {error && <Alert kind="error">{error}</Alert>}
          <Field
            label="Email"
            type="email"
            name="email"
            autoComplete="email"
            required
            value={email}
            onValue={setEmail}
          />
          <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
            {busy ? 'Sending…' : 'Send reset instructions'}
          </button>
        </form>
      )}
    </AuthCard>
  )
}
