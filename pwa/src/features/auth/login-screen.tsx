import { LoginBody } from '@buble/shared/auth'
import { type FormEvent, lazy, Suspense, useState } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router-dom'
import { messageOf } from '../../session/api-client.ts'
import { landAfterSignIn, takeReturn } from '../../session/return-to.ts'
import { useServices } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { AuthCard } from '../../ui/auth-card.tsx'
import { Field } from '../../ui/field.tsx'
import { useDocumentTitle } from '../../ui/use-document-title.ts'
import { AUTH_TEXTS, isLoginReason, LOGIN_REASONS } from './auth-texts.ts'

const PasskeySignIn = lazy(() => import('./passkey-sign-in.tsx'))

export function LoginScreen() {
  useDocumentTitle('Sign in')
  const { api, session } = useServices()
  const navigate = useNavigate()
  const reason = useSearchParams()[0].get('reason')
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  function signedIn(answer: unknown) {
    // A join link opened signed out brings the visitor back to it.
    const landing = landAfterSignIn(takeReturn() ?? '/dashboard')
    session.signIn(answer)
    navigate(landing, { replace: true })
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    const body = LoginBody.safeParse({ email, password })
    if (!body.success) return setError(body.error.issues[0]?.message ?? 'Login failed')
    setError(null)
    setBusy(true)
    try {
      signedIn(await api.post('/auth/login', body.data))
    } catch (err) {
      setError(messageOf(err, 'Login failed'))
      setBusy(false)
    }
  }

  return (
    <AuthCard
      title="Sign in to Buble"
      subtitle="Welcome back to your private spaces."
      intro={AUTH_TEXTS.tagline}
      footer={
        <p>
          New to Buble? <Link to="/register">Create an account</Link>
        </p>
      }
    >
      {isLoginReason(reason) && !error && <Alert kind="info">{LOGIN_REASONS[reason]}</Alert>}
      <form onSubmit={submit} noValidate>
        {error && <Alert kind="error">{error}</Alert>}
        <Field
          label="Email"
          type="email"
          name="email"
          // `webauthn`: the browser offers this site's passkeys among the field's suggestions (conditional UI).
          autoComplete="username webauthn"
          required
          value={email}
          onValue={setEmail}
        />
        <Field
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onValue={setPassword}
        />
        <p className="form-aside">
          <Link to="/forgot-password">Forgot your password?</Link>
        </p>
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <Suspense fallback={null}>
        <PasskeySignIn onSignedIn={signedIn} passwordBusy={busy} />
      </Suspense>
    </AuthCard>
  )
}
