import { Link } from 'react-router-dom'
import { Alert } from '../../ui/alert.tsx'
import { AuthCard } from '../../ui/auth-card.tsx'
import { Field } from '../../ui/field.tsx'
import { useDocumentTitle } from '../../ui/use-document-title.ts'
import { useEmailRequest } from './use-email-request.ts'

export function ForgotPasswordScreen() {
  useDocumentTitle('Reset your password')
  const { email, setEmail, error, sent, busy, submit } = useEmailRequest('/auth/forgot-password', {
    failure: 'Failed to send reset instructions',
    success: 'Check your inbox for reset instructions.',
  })

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
