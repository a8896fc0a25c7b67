import { ALREADY_VERIFIED_MESSAGE, VerifyEmailResponse } from '@buble/shared/auth'
import { useEffect, useRef, useState } from 'react'
import { Link, useSearchParams } from 'react-router-dom'
import { ApiError, messageOf } from '../../session/api-client.ts'
import { useServices, useSession } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { AuthCard } from '../../ui/auth-card.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { useDocumentTitle } from '../../ui/use-document-title.ts'
import { AUTH_TEXTS } from './auth-texts.ts'
import { ResendVerificationForm } from './resend-verification-form.tsx'

type Outcome =
  | { kind: 'verifying' }
  | { kind: 'verified'; message: string }
  | { kind: 'already' }
  | { kind: 'failed'; message: string }

export function VerifyEmailScreen() {
  useDocumentTitle('Verify your email')
  const { api, session } = useServices()
  const signedIn = useSession((state) => state.isAuthenticated)
  const email = useSession((state) => state.user?.email ?? '')
  const token = useSearchParams()[0].get('token')?.trim()
  const [outcome, setOutcome] = useState<Outcome>(
    token ? { kind: 'verifying' } : { kind: 'failed', message: 'No verification token provided' },
  )
  // A token works once: never post it twice (StrictMode runs effects twice in development).
  const posted = useRef<string | null>(null)

  useEffect(() => {
    if (!token || posted.current === token) return
    posted.current = token
    api
      .post('/auth/verify-email', { token })
      .then((answer) => {
        const parsed = VerifyEmailResponse.safeParse(answer)
        const current = session.getState().user
        if (current && (!parsed.success || parsed.data.user.id === current.id)) {
          // The banner goes away at once, without waiting for a profile reload.
          session.updateUser(parsed.success ? parsed.data.user : { ...current, email_verified: true })
        }
        setOutcome({ kind: 'verified', message: parsed.success ? parsed.data.message : 'Your email is verified.' })
      })
      .catch((err: unknown) => {
        // Opened a second time: the link is spent, but the address is verified; nothing to fix, no resend offered.
        if (err instanceof ApiError && err.message === ALREADY_VERIFIED_MESSAGE) {
          const current = session.getState().user
          if (current && !current.email_verified) session.updateUser({ ...current, email_verified: true })
          return setOutcome({ kind: 'already' })
        }
        setOutcome({ kind: 'failed', message: messageOf(err, 'Failed to verify email') })
      })
  }, [api, session, token])

  const next = signedIn ? (
    <Link to="/dashboard" className="btn btn-primary btn-block">
      Go to your bubles
    </Link>
  ) : (
    <Link to="/login" className="btn btn-primary btn-block">
      Sign in
    </Link>
  )

  if (outcome.kind === 'verifying') {
    return (
      <AuthCard title="Verifying your email">
        <Spinner label="Verifying your email…" />
      </AuthCard>
    )
  }
  if (outcome.kind === 'already') {
    return (
      <AuthCard title="Email verified">
        <Alert kind="info">{AUTH_TEXTS.alreadyVerified}</Alert>
        {next}
      </AuthCard>
    )
  }
  if (outcome.kind === 'verified') {
    return (
      <AuthCard title="Email verified">
        <Alert kind="success">{outcome.message}</Alert>
        {next}
      </AuthCard>
    )
  }
  return (
    <AuthCard title="We could not verify your email" footer={next}>
      <Alert kind="error">{outcome.message}</Alert>
      <ResendVerificationForm initialEmail={email} />
    </AuthCard>
  )
}
