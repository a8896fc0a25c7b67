import { ChangePasswordResponse } from '@buble/shared/auth'
import { newPasswordProblem } from '@buble/shared/password'
import { useState } from 'react'
import { messageOf } from '../../session/api-client.ts'
import { useServices } from '../../session/session-context.tsx'
import { Field } from '../../ui/field.tsx'
import { FormModal, FormProblem } from '../../ui/form-modal.tsx'
import { NewPasswordFields } from '../../ui/new-password-fields.tsx'

const FAILURE = 'Failed to change password'

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

  async function submit(): Promise<boolean> {
    const problem = current ? newPasswordProblem(next, confirm) : 'Current password is required'
    if (problem) throw new FormProblem(problem)
    let answer: ChangePasswordResponse
    try {
      answer = ChangePasswordResponse.parse(
        await api.post('/users/change-password', { currentPassword: current, newPassword: next }),
      )
    } catch (err) {
      throw new FormProblem(messageOf(err, FAILURE))
    }
    // The server revoked every older token; keep the session alive with the new one.
    session.replaceToken(answer.access_token)
    onChanged(answer.message)
    return true
  }

  return (
    <FormModal
      title="Change Password"
      size="small"
      submitLabel="Change Password"
      busyLabel="Changing…"
      failure={FAILURE}
      onSubmit={submit}
      onClose={onClose}
    >
      <Field
        label="Current password"
        type="password"
        autoComplete="current-password"
        required
        value={current}
        onValue={setCurrent}
      />
      <NewPasswordFields password={next} onPassword={setNext} confirm={confirm} onConfirm={setConfirm} />
    </FormModal>
  )
}
