/** The user modals of the admin area: add a user, edit one, and reset a password. */

import { AdminPassword, Email, UserName } from '@buble/shared/auth'
import { type FormEvent, useState } from 'react'
import { messageOf } from '../../session/api-client.ts'
import { Alert } from '../../ui/alert.tsx'
import { Field } from '../../ui/field.tsx'
import { FormModal } from '../../ui/form-modal.tsx'
import { Modal } from '../../ui/modal.tsx'
import { SelectField } from '../../ui/select-field.tsx'
import type { AdminApi } from './admin-api.ts'
import { ADMIN_TEXTS, ROLE_LABELS } from './admin-texts.ts'
import type { AdminUser } from './admin-types.ts'
import { callOrProblem, problemOf } from './call-or-problem.ts'

type Role = AdminUser['role']
const ROLE_OPTIONS = (Object.keys(ROLE_LABELS) as Role[]).map((value) => ({ value, label: ROLE_LABELS[value] }))

interface ModalProps {
  admin: AdminApi
  onClose: () => void
  /** After a successful save, with the message to flash. */
  onSaved: (message: string) => void
}

type Problems = Partial<Record<'name' | 'email' | 'password', string | null>>

export function CreateUserModal({ admin, onClose, onSaved }: ModalProps) {
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [role, setRole] = useState<Role>('user')
  const [problems, setProblems] = useState<Problems>({})

  async function submit(): Promise<boolean> {
    const found = {
      name: problemOf(UserName, name),
      email: problemOf(Email, email),
      password: problemOf(AdminPassword, password),
    }
    setProblems(found)
    if (found.name || found.email || found.password) return false
    const body = { name: UserName.parse(name), email: Email.parse(email), password, role }
    await callOrProblem(() => admin.createUser(body), ADMIN_TEXTS.createUser)
    onSaved('User created successfully')
    return true
  }

  return (
    <FormModal
      title="Add New User"
      submitLabel="Create User"
      busyLabel="Creating…"
      failure={ADMIN_TEXTS.createUser}
      onSubmit={submit}
      onClose={onClose}
    >
      <Field label="Name" value={name} onValue={setName} error={problems.name} autoComplete="off" required />
      <Field label="Email" type="email" value={email} onValue={setEmail} error={problems.email} required />
      <Field
        label="Password"
        type="password"
        autoComplete="new-password"
        value={password}
        onValue={setPassword}
        error={problems.password}
        hint="At least 6 characters."
        required
      />
      <SelectField label="Role" value={role} options={ROLE_OPTIONS} onValue={(value) => setRole(value as Role)} />
    </FormModal>
  )
}

export function EditUserModal({ admin, user, onClose, onSaved }: ModalProps & { user: AdminUser }) {
  const [name, setName] = useState(user.name)
  const [email, setEmail] = useState(user.email)
  const [role, setRole] = useState<Role>(user.role)
  const [problems, setProblems] = useState<Problems>({})

  async function submit(): Promise<boolean> {
    const found = { name: problemOf(UserName, name), email: problemOf(Email, email) }
    setProblems(found)
    if (found.name || found.email) return false
    const body = { name: UserName.parse(name), email: Email.parse(email), role }
    await callOrProblem(() => admin.updateUser(user.id, body), ADMIN_TEXTS.updateUser)
    onSaved('User updated successfully')
    return true
  }

  return (
    <FormModal
      title="Edit User"
      submitLabel="Save Changes"
      busyLabel="Saving…"
      failure={ADMIN_TEXTS.updateUser}
      onSubmit={submit}
      onClose={onClose}
    >
      {user.role === 'admin' && <Alert kind="warning">{ADMIN_TEXTS.editAdminWarning}</Alert>}
      <Field label="Name" value={name} onValue={setName} error={problems.name} required />
      <Field label="Email" type="email" value={email} onValue={setEmail} error={problems.email} required />
      <SelectField label="Role" value={role} options={ROLE_OPTIONS} onValue={(value) => setRole(value as Role)} />
    </FormModal>
  )
}

type Outcome = { kind: 'error' | 'success'; text: string } | null

/** Sets a new password, or mails a temporary one; the temporary password stays in view until the modal closes. */
export function ResetPasswordModal({ admin, user, onClose }: ModalProps & { user: AdminUser }) {
  const [password, setPassword] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const [outcome, setOutcome] = useState<Outcome>(null)
  const [busy, setBusy] = useState<'reset' | 'email' | null>(null)

  async function reset(event: FormEvent) {
    event.preventDefault()
    const found = problemOf(AdminPassword, password)
    setProblem(found)
    setOutcome(null)
    if (found) return
    setBusy('reset')
    try {
      await admin.resetPassword(user.id, password)
      // The dialog stays open and says what happened, where the admin is looking; the password field empties.
      setPassword('')
      setOutcome({ kind: 'success', text: ADMIN_TEXTS.passwordResetDone(user.name) })
      setBusy(null)
    } catch (err) {
      console.warn(ADMIN_TEXTS.resetPassword, err)
      setOutcome({ kind: 'error', text: messageOf(err, ADMIN_TEXTS.resetPassword) })
      setBusy(null)
    }
  }

  async function sendEmail() {
    setOutcome(null)
    setBusy('email')
    try {
      const answer = await admin.sendResetEmail(user.id)
      setOutcome({
        kind: 'success',
        text: `Password reset email sent to ${user.email}. Temporary password: ${answer.temporaryPassword}`,
      })
    } catch (err) {
      console.warn(ADMIN_TEXTS.sendResetEmail, err)
      setOutcome({ kind: 'error', text: messageOf(err, ADMIN_TEXTS.sendResetEmail) })
    }
    setBusy(null)
  }

  return (
    <Modal
      title="Reset Password"
      size="medium"
      onClose={busy ? undefined : onClose}
      actions={
        <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy !== null}>
          Close
        </button>
      }
    >
      <p>
        For <strong>{user.name}</strong> ({user.email}). Either way, the user is signed out everywhere.
      </p>
      {outcome && <Alert kind={outcome.kind}>{outcome.text}</Alert>}
      <form onSubmit={(event) => void reset(event)} noValidate className="admin-reset-form">
        <Field
          label="New password"
          type="password"
          autoComplete="new-password"
          value={password}
          onValue={setPassword}
          error={problem}
          hint="At least 6 characters."
          required
        />
        <button type="submit" className="btn btn-primary" disabled={busy !== null}>
          {busy === 'reset' ? 'Resetting…' : 'Reset Password'}
        </button>
      </form>
      <div className="admin-reset-email">
        <p className="muted">Or set a temporary password and send it by e-mail.</p>
        <button type="button" className="btn btn-secondary" onClick={() => void sendEmail()} disabled={busy !== null}>
          {busy === 'email' ? 'Sending…' : 'Send Reset Email'}
        </button>
      </div>
    </Modal>
  )
}
