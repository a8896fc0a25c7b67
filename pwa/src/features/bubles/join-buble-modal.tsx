import { BUBLE_MESSAGES, Buble, InviteCode } from '@buble/shared/bubles'
import { type FormEvent, useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { bubleChange, bublePath } from '../../data/bubles.ts'
import { useOnlineCall } from '../../data/online.ts'
import { ApiError, messageOf } from '../../session/api-client.ts'
import { useApi } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx'
import { Field } from '../../ui/field.tsx'
import { Modal } from '../../ui/modal.tsx'

const FORM_ID = 'join-buble-form'
const JOIN_OFFLINE = 'You are offline. Joining a Buble needs a connection.'

const joinFailure = (err: unknown): string =>
  err instanceof ApiError && err.status === 410
    ? BUBLE_MESSAGES.inviteInvalid
    : messageOf(err, BUBLE_MESSAGES.inviteInvalid)

/** Asks for an invite code, then for a confirmation, then accepts it with the server (online only). */
export function JoinBubleModal({ onClose }: { onClose: () => void }) {
  const api = useApi()
  const navigate = useNavigate()
  const call = useOnlineCall(JOIN_OFFLINE)
  const [code, setCode] = useState('')
  const [codeError, setCodeError] = useState<string | null>(null)
  /** The normalised code being confirmed; null while the code is being typed. */
  const [confirming, setConfirming] = useState<string | null>(null)

  function review(event: FormEvent) {
    event.preventDefault()
    const parsed = InviteCode.safeParse(code)
    if (!parsed.success) return setCodeError(parsed.error.issues[0]?.message ?? BUBLE_MESSAGES.codeRequired)
    setCodeError(null)
    call.setError(null)
    setConfirming(parsed.data)
  }

  async function join(normalized: string) {
    const outcome = await call.run(
      async () => Buble.parse(await api.post(`/bubles/invites/${encodeURIComponent(normalized)}/accept`)),
      joinFailure,
      // The members and content come with the pull that follows.
      { synced: (buble) => [bubleChange(buble)] },
    )
    if (outcome.ok) navigate(bublePath(outcome.value))
    else setConfirming(null)
  }

  if (confirming !== null) {
    return (
      <ConfirmDialog
        title="Join this Buble?"
        confirmLabel="Join Buble"
        busyLabel="Joining…"
        busy={call.busy}
        onConfirm={() => void join(confirming)}
        onCancel={() => setConfirming(null)}
      >
        <p>
          You are about to join the Buble of invite code <code className="invite-code-inline">{confirming}</code>. Its
          members will see your name and e-mail address.
        </p>
      </ConfirmDialog>
    )
  }

  return (
    <Modal
      title="Join Buble"
      onClose={onClose}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form={FORM_ID} className="btn btn-primary">
            Join
          </button>
        </>
      }
    >
      <form id={FORM_ID} onSubmit={review} noValidate>
        {call.error && <Alert kind="error">{call.error}</Alert>}
        <Field
          label="Invite code"
          value={code}
          onValue={setCode}
          error={codeError}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          hint="Ask a member of the Buble for a code."
          required
        />
      </form>
    </Modal>
  )
}
