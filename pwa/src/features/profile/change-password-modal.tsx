import { ChangePasswordResponse } from '@buble/shared/auth'
import { newPasswordProblem } from '@buble/shared/password'
import { type FormEvent, useState } from 'react'
import { messageOf } from '../../session/api-client.ts'
import { useServices } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { Field } from '../../ui/field.tsx'
import { Modal } from '../../ui/modal.tsx'
import { NewPasswordFields } from '../../ui/new-password-fields.tsx'

const FORM_ID = 'change-password-form'

export function ChangePasswordModal({
  onClose,
  onChanged,
}: {
  onClose: () => void
  onChanged: (message: string) => void
}) {
  const { api, session } = useServices()
  const [current, setCurrent] = useState('')
  const [next, setNext] = useState('')
  const [confirm, setConfirm] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    const problem = current ? newPasswordProblem(next, confirm) : 'Current password is required'
    if (problem) return setError(problem)
    setError(null)
    setBusy(true)
    try {
      const answer = ChangePasswordResponse.parse(
        await api.post('/users/change-password', { currentPassword: current, newPassword: next }),
      )
      // The server revoked every older token; keep the session alive with the new one.
      session.replaceToken(answer.access_token)
      onChanged(answer.message)
    } catch (err) {
      setError(messageOf(err, 'Failed to change password'))
      setBusy(false)
    }
  }

  return (
    <Modal
      title="Change Password"
      onClose={busy ? undefined : onClose}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" form={FORM_ID} className="btn btn-primary" disabled={busy}>
            {busy ? 'Changing…' : 'Change Password'}
          </button>
        </>
      }
    >
      <form id={FORM_ID} onSubmit={submit} noValidate>
        {error && <Alert kind="error">{error}</Alert>}
        <Field
          label="Current password"
          type="password"
          autoComplete="current-password"
          required
          value={current}
          onValue={setCurrent}
        />
        <NewPasswordFields password={next} onPassword={setNext} confirm={confirm} onConfirm={setConfirm} />
      </form>
    </Modal>
  )
}
