import { newPasswordProblem } from '@buble/shared/password'
import { type FormEvent, useState } from 'react'
import { Alert } from '../../ui/alert.tsx'
import { NewPasswordFields } from '../../ui/new-password-fields.tsx'

interface NewPasswordFormProps {
  submitLabel: string
  busyLabel: string
  /** Resolves when done; a rejection's message is not shown here, the caller passes `error`. */
  onSubmit: (password: string) => Promise<void>
  error: string | null
}

/** New password + confirmation, checked with the shared rules: the mismatch first, then the strong rules. */
export function NewPasswordForm({ submitLabel, busyLabel, onSubmit, error }: NewPasswordFormProps) {
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    const found = newPasswordProblem(password, confirm)
    setProblem(found)
    if (found) return
    setBusy(true)
    try {
      await onSubmit(password)
    } finally {
      setBusy(false)
    }
  }

  const shown = problem ?? error
  return (
    <form onSubmit={submit} noValidate>
      {shown && <Alert kind="error">{shown}</Alert>}
      <NewPasswordFields password={password} onPassword={setPassword} confirm={confirm} onConfirm={setConfirm} />
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        {busy ? busyLabel : submitLabel}
      </button>
    </form>
  )
}
