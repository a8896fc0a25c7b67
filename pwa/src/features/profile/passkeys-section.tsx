/**
 * The profile's Passkeys section (decision 102): add one with a name, the list with when each was
 * added and last used, rename, remove; and the password beside them (remove it, or set one by e-mail).
 * Online only: passkeys live on the server.
 */

import { MessageResponse } from '@buble/shared/auth'
import { Passkey, PasskeyName, PasskeysResponse } from '@buble/shared/passkeys'
import { type FormEvent, useState } from 'react'
import { useOnlineQuery } from '../../data/online.ts'
import { ApiError, messageOf } from '../../session/api-client.ts'
import { createPasskey, passkeyFailureOf } from '../../session/passkey-ceremonies.ts'
import { browserHasPasskeys } from '../../session/passkey-support.ts'
import { useApi } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { Field } from '../../ui/field.tsx'
import { FormModal, FormProblem } from '../../ui/form-modal.tsx'
import { formatDay } from '../../ui/format.ts'
import { Spinner } from '../../ui/spinner.tsx'
import { useConfirm } from '../../ui/use-confirm.tsx'
import { useFlash } from '../../ui/use-flash.ts'
import { PASSKEY_TEXTS as TEXTS } from './passkey-texts.ts'
import './passkeys.css'

export default function PasskeysSection({ email }: { email: string }) {
  const api = useApi()
  const load = useOnlineQuery(
    'passkeys',
    async (signal) => PasskeysResponse.parse(await api.get('/users/passkeys', signal)),
    { failure: TEXTS.failed, offline: TEXTS.offline, retryOnce: true },
  )
  return (
    <section className="card passkeys-section" aria-label={TEXTS.title}>
      <h2>{TEXTS.title}</h2>
      <p className="field-hint">{TEXTS.intro}</p>
      {load.status === 'loading' && <Spinner label={TEXTS.loading} />}
      {load.status === 'failed' && (
        <>
          <Alert kind="error">{load.message}</Alert>
          <button type="button" className="btn btn-secondary" onClick={load.reload}>
            {TEXTS.tryAgain}
          </button>
        </>
      )}
      {load.status === 'ready' && <Passkeys email={email} state={load.data} onChange={(next) => load.update(next)} />}
    </section>
  )
}

type Change = (state: PasskeysResponse) => PasskeysResponse

function Passkeys({
  email,
  state,
  onChange,
}: {
  email: string
  state: PasskeysResponse
  onChange: (c: Change) => void
}) {
  const api = useApi()
  const { ask, dialog } = useConfirm()
  const [notice, showNotice] = useFlash()
  const [problem, setProblem] = useState<string | null>(null)
  const [renaming, setRenaming] = useState<string | null>(null)
  const [removingPassword, setRemovingPassword] = useState(false)
  const [sending, setSending] = useState(false)

  const remove = (passkey: Passkey) =>
    ask({
      title: TEXTS.removeTitle,
      body: <p>{TEXTS.removeBody(passkey.name)}</p>,
      confirmLabel: TEXTS.removeConfirm,
      busyLabel: TEXTS.removeBusy,
      danger: true,
      failure: TEXTS.removeFailed,
      run: async () => {
        setProblem(null)
        try {
          const done = MessageResponse.parse(await api.delete(`/users/passkeys/${passkey.id}`))
          onChange((s) => ({ ...s, passkeys: s.passkeys.filter((p) => p.id !== passkey.id) }))
          showNotice(done.message)
        } catch (err) {
          // A refusal (the last way to sign in) is the server's to word; shown here, the dialog closes.
          if (!(err instanceof ApiError) || err.status >= 500) throw err
          setProblem(messageOf(err, TEXTS.removeFailed))
        }
      },
    })

  async function sendPasswordLink() {
    setProblem(null)
    setSending(true)
    try {
      showNotice(MessageResponse.parse(await api.post('/auth/forgot-password', { email })).message)
    } catch (err) {
      setProblem(messageOf(err, TEXTS.setPasswordFailed))
    } finally {
      setSending(false)
    }
  }

  return (
    <>
      {notice && <Alert kind="success">{notice}</Alert>}
      {problem && <Alert kind="error">{problem}</Alert>}
      {state.passkeys.length === 0 ? (
        <p className="muted">{TEXTS.empty}</p>
      ) : (
        <ul className="passkey-list">
          {state.passkeys.map((passkey) => (
            <li key={passkey.id} className="passkey-item">
              {renaming === passkey.id ? (
                <RenameForm
                  passkey={passkey}
                  onCancel={() => setRenaming(null)}
                  onSaved={(saved) => {
                    onChange((s) => ({ ...s, passkeys: s.passkeys.map((p) => (p.id === saved.id ? saved : p)) }))
                    setRenaming(null)
                    showNotice(TEXTS.renamed)
                  }}
                />
              ) : (
                <>
                  <div className="passkey-about">
                    <strong>{passkey.name}</strong>
                    <span className="muted">
                      {TEXTS.created} {formatDay(passkey.created_at)} ·{' '}
                      {passkey.last_used_at ? `${TEXTS.lastUsed} ${formatDay(passkey.last_used_at)}` : TEXTS.neverUsed}
                    </span>
                  </div>
                  <div className="passkey-actions">
                    <button
                      type="button"
                      className="btn btn-secondary btn-small"
                      aria-label={`${TEXTS.rename} ${passkey.name}`}
                      onClick={() => setRenaming(passkey.id)}
                    >
                      {TEXTS.rename}
                    </button>
                    <button
                      type="button"
                      className="btn btn-danger btn-small"
                      aria-label={`${TEXTS.remove} ${passkey.name}`}
                      onClick={() => remove(passkey)}
                    >
                      {TEXTS.remove}
                    </button>
                  </div>
                </>
              )}
            </li>
          ))}
        </ul>
      )}

      <AddPasskeyForm onAdded={(added) => onChange((s) => ({ ...s, passkeys: [...s.passkeys, added] }))} />

      <h3 className="passkey-password-title">{TEXTS.passwordTitle}</h3>
      {state.has_password ? (
        <>
          <p className="field-hint">{TEXTS.hasPassword}</p>
          <button type="button" className="btn btn-secondary" onClick={() => setRemovingPassword(true)}>
            {TEXTS.removePassword}
          </button>
        </>
      ) : (
        <>
          <p className="field-hint">{TEXTS.noPassword}</p>
          <button
            type="button"
            className="btn btn-secondary"
            disabled={sending}
            onClick={() => void sendPasswordLink()}
          >
            {sending ? TEXTS.setPasswordBusy : TEXTS.setPassword}
          </button>
        </>
      )}

      {dialog}
      {removingPassword && (
        <RemovePasswordModal
          onClose={() => setRemovingPassword(false)}
          onRemoved={(message) => {
            onChange((s) => ({ ...s, has_password: false }))
            showNotice(message)
          }}
        />
      )}
    </>
  )
}

function AddPasskeyForm({ onAdded }: { onAdded: (passkey: Passkey) => void }) {
  const api = useApi()
  const [name, setName] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [notice, showNotice] = useFlash()

  async function add(event: FormEvent) {
    event.preventDefault()
    const checked = PasskeyName.safeParse(name)
    if (!checked.success) return setError(checked.error.issues[0]?.message ?? TEXTS.addFailed)
    setError(null)
    setBusy(true)
    try {
      const options = await api.post('/users/passkeys/registration-options')
      const response = await createPasskey(options)
      onAdded(Passkey.parse(await api.post('/users/passkeys', { name: checked.data, response })))
      setName('')
      showNotice(TEXTS.added)
    } catch (err) {
      if (err instanceof ApiError) setError(messageOf(err, TEXTS.addFailed))
      else {
        const failure = passkeyFailureOf(err)
        setError(
          failure === 'cancelled'
            ? TEXTS.cancelled
            : failure === 'exists'
              ? TEXTS.exists
              : failure === 'unsupported'
                ? TEXTS.unsupported
                : TEXTS.addFailed,
        )
      }
    } finally {
      setBusy(false)
    }
  }

  if (!browserHasPasskeys()) return <p className="muted">{TEXTS.unsupported}</p>
  return (
    <form className="passkey-add" onSubmit={(event) => void add(event)} noValidate>
      {notice && <Alert kind="success">{notice}</Alert>}
      <Field
        label={TEXTS.nameLabel}
        hint={TEXTS.nameHint}
        error={error}
        value={name}
        onValue={setName}
        maxLength={60}
        autoComplete="off"
      />
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? TEXTS.adding : TEXTS.add}
      </button>
    </form>
  )
}

function RenameForm({
  passkey,
  onCancel,
  onSaved,
}: {
  passkey: Passkey
  onCancel: () => void
  onSaved: (passkey: Passkey) => void
}) {
  const api = useApi()
  const [name, setName] = useState(passkey.name)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function save(event: FormEvent) {
    event.preventDefault()
    const checked = PasskeyName.safeParse(name)
    if (!checked.success) return setError(checked.error.issues[0]?.message ?? TEXTS.renameFailed)
    setBusy(true)
    try {
      onSaved(Passkey.parse(await api.patch(`/users/passkeys/${passkey.id}`, { name: checked.data })))
    } catch (err) {
      setError(messageOf(err, TEXTS.renameFailed))
      setBusy(false)
    }
  }

  return (
    <form
      className="passkey-rename"
      onSubmit={(event) => void save(event)}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onCancel()
      }}
      noValidate
    >
      <Field
        label={TEXTS.renameLabel}
        error={error}
        value={name}
        onValue={setName}
        maxLength={60}
        autoComplete="off"
        // The field replaced the Rename button the member just pressed.
        autoFocus
      />
      <div className="form-actions form-actions-start">
        <button type="button" className="btn btn-secondary btn-small" onClick={onCancel}>
          {TEXTS.cancel}
        </button>
        <button type="submit" className="btn btn-primary btn-small" disabled={busy}>
          {TEXTS.save}
        </button>
      </div>
    </form>
  )
}

function RemovePasswordModal({ onClose, onRemoved }: { onClose: () => void; onRemoved: (message: string) => void }) {
  const api = useApi()
  const [current, setCurrent] = useState('')

  async function submit(): Promise<boolean> {
    if (!current) throw new FormProblem(TEXTS.currentPasswordRequired)
    try {
      const done = MessageResponse.parse(await api.post('/users/remove-password', { currentPassword: current }))
      onRemoved(done.message)
      return true
    } catch (err) {
      throw new FormProblem(messageOf(err, TEXTS.removePasswordFailed))
    }
  }

  return (
    <FormModal
      title={TEXTS.removePasswordTitle}
      size="small"
      submitLabel={TEXTS.removePassword}
      busyLabel={TEXTS.removePasswordBusy}
      failure={TEXTS.removePasswordFailed}
      onSubmit={submit}
      onClose={onClose}
    >
      <p>{TEXTS.removePasswordBody}</p>
      <Field
        label={TEXTS.currentPassword}
        type="password"
        autoComplete="current-password"
        required
        value={current}
        onValue={setCurrent}
      />
    </FormModal>
  )
}
