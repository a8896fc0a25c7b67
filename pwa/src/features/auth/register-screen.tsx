import { RegisterBody } from '@buble/shared/auth'
import { type FormEvent, useState } from 'react'
import { Link, useNavigate } from 'react-router-dom'
import { messageOf } from '../../session/api-client.ts'
import { landAfterSignIn, takeReturn } from '../../session/return-to.ts'
import { useServices } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { AuthCard } from '../../ui/auth-card.tsx'
import { Field } from '../../ui/field.tsx'
import { PASSWORD_HINT } from '../../ui/password-hint.ts'
import { useDocumentTitle } from '../../ui/use-document-title.ts'

type Problems = Partial<Record<'name' | 'email' | 'password', string>>

export function RegisterScreen() {
  useDocumentTitle('Create your account')
  const { api, session } = useServices()
  const navigate = useNavigate()
  const [form, setForm] = useState({ name: '', email: '', password: '' })
  const [problems, setProblems] = useState<Problems>({})
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const edit = (key: keyof typeof form) => (value: string) => setForm((current) => ({ ...current, [key]: value }))

  async function submit(event: FormEvent) {
    event.preventDefault()
    setError(null)
    const body = RegisterBody.safeParse(form)
    if (!body.success) {
      const found: Problems = {}
      for (const issue of body.error.issues) {
        const key = issue.path[0] as keyof Problems
        found[key] ??= issue.message
      }
      return setProblems(found)
    }
    setProblems({})
    setBusy(true)
    try {
      const answer = await api.post('/auth/register', body.data)
      // A join link opened signed out brings the visitor back to it.
      const landing = landAfterSignIn(takeReturn() ?? '/dashboard')
      session.signIn(answer)
      navigate(landing, { replace: true })
    } catch (err) {
      setError(messageOf(err, 'Registration failed'))
      setBusy(false)
    }
  }

  return (
    <AuthCard
      title="Create your Buble account"
      subtitle="A private place for the people who matter."
      footer={
        <p>
          Already have an account? <Link to="/login">Sign in</Link>
        </p>
      }
    >
      <form onSubmit={submit} noValidate>
        {error && <Alert kind="error">{error}</Alert>}
        <Field
          label="Full name"
          name="name"
          autoComplete="name"
          required
          value={form.name}
          onValue={edit('name')}
          error={problems.name}
        />
        <Field
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          required
          value={form.email}
          onValue={edit('email')}
          error={problems.email}
        />
        <Field
          label="Password"
          type="password"
          name="password"
          autoComplete="new-password"
          required
          value={form.password}
          onValue={edit('password')}
          hint={PASSWORD_HINT}
          error={problems.password}
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? 'Creating account…' : 'Create account'}
        </button>
        <p className="form-aside">
          By creating an account you agree to our <Link to="/privacy">privacy policy</Link>. You must be 13 or older.
        </p>
      </form>
    </AuthCard>
  )
}
