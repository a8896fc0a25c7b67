import { Alert } from '../../ui/alert.tsx'
import { Field } from '../../ui/field.tsx'
import { useEmailRequest } from './use-email-request.ts'

/** Asks for a new verification mail for any address (the answer is the same whether or not it exists). */
export function ResendVerificationForm({ initialEmail }: { initialEmail: string }) {
  const { email, setEmail, error, sent, busy, submit } = useEmailRequest(
    '/auth/resend-verification',
    { failure: 'Failed to resend verification email', success: 'Verification email sent! Please check your inbox.' },
    initialEmail,
  )

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
