import { MessageResponse } from '@buble/shared/auth'
import { useState } from 'react'
import { Link, useSearchParams } from 'react-router-dom'
import { ApiError, messageOf } from '../../session/api-client.ts'
import { useApi } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { AuthCard } from '../../ui/auth-card.tsx'
import { useDocumentTitle } from '../../ui/use-document-title.ts'
import { NewPasswordForm } from './new-password-form.tsx'

const askAgain = (
  <p>
    <Link to="/forgot-password" className="btn btn-primary btn-block">
      Request a new reset link
    </Link>
  </p>
)

export function ResetPasswordScreen() {
  useDocumentTitle('Choose a new password')
  const api = useApi()
  const token = useSearchParams()[0].get('token')?.trim()
  const [error, setError] = useState<string | null>(null)
  const [invalid, setInvalid] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)

  if (!token) {
    return (
      <AuthCard title="Invalid reset token" subtitle="This page needs the link from your reset email.">
        {askAgain}
      </AuthCard>
    )
  }
  if (invalid) {
    return (
      <AuthCard title="Invalid reset token" subtitle={invalid}>
        {askAgain}
      </AuthCard>
    )
  }
  if (done) {
    return (
      <AuthCard title="Password changed">
        <Alert kind="success">{done}</Alert>
        <Link to="/login" className="btn btn-primary btn-block">
          Sign in
        </Link>
      </AuthCard>
    )
  }

  async function reset(newPassword: string) {
    setError(null)
    try {
      const answer = MessageResponse.safeParse(await api.post('/auth/reset-password', { token, newPassword }))
      setDone(answer.success ? answer.data.message : 'Your password has been reset.')
    } catch (err) {
      if (err instanceof ApiError && err.code === 'TOKEN_INVALID') {
        setInvalid(err.message || 'This reset link is invalid or has expired.')
      } else setError(messageOf(err, 'Failed to reset password'))
    }
  }

  return (
    <AuthCard title="Choose a new password" subtitle="Pick something you have not used here before.">
      <NewPasswordForm submitLabel="Reset password" busyLabel="Saving…" onSubmit={reset} error={error} />
    </AuthCard>
  )
}
