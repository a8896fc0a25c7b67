import { useState } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router-dom'
import { ApiError, messageOf } from '../../session/api-client.ts'
import { useServices } from '../../session/session-context.tsx'
import { useDocumentTitle } from '../../ui/use-document-title.ts'
import { AuthCard } from './auth-card.tsx'
import { NewPasswordForm } from './new-password-form.tsx'

function InvalidRegistrationLink({ detail }: { detail: string }) {
  return (
    <AuthCard title="Invalid registration link" subtitle={detail}>
      <p>Ask the owner of the buble that invited you to send a new invite.</p>
      <Link to="/login" className="btn btn-primary btn-block">
        Back to sign in
      </Link>
    </AuthCard>
  )
}

export function CompleteRegistrationScreen() {
  useDocumentTitle('Complete your registration')
  const { api, session } = useServices()
  const navigate = useNavigate()
  const token = useSearchParams()[0].get('token')?.trim()
  const [error, setError] = useState<string | null>(null)
  const [invalid, setInvalid] = useState<string | null>(null)

  if (!token) return <InvalidRegistrationLink detail="This page needs the link from your invitation email." />
  if (invalid) return <InvalidRegistrationLink detail={invalid} />

  async function complete(password: string) {
    setError(null)
    try {
      session.signIn(await api.post('/bubles/complete-registration', { token, password }))
      navigate('/dashboard', { replace: true })
    } catch (err) {
      if (err instanceof ApiError && err.code === 'TOKEN_INVALID') {
        setInvalid(err.message || 'This invitation link is invalid or has expired.')
      } else setError(messageOf(err, 'Failed to complete registration'))
    }
  }

  return (
    <AuthCard title="Welcome to Buble" subtitle="Choose a password to finish setting up your account.">
      <NewPasswordForm submitLabel="Complete registration" busyLabel="Saving…" onSubmit={complete} error={error} />
    </AuthCard>
  )
}
