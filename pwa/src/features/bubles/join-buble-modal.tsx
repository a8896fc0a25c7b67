import { BUBLE_MESSAGES, Buble, InviteCode, type InvitePreview } from '@buble/shared/bubles'
import { type FormEvent, useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { bubleChange, bublePath } from '../../data/bubles.ts'
import { useOnlineCall } from '../../data/online.ts'
import { ApiError, messageOf } from '../../session/api-client.ts'
import { useApi } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { Field } from '../../ui/field.tsx'
import { Modal } from '../../ui/modal.tsx'
import { JOIN_TEXTS } from './invite-texts.ts'
import { JoinConfirmDialog } from './join-confirm.tsx'
import { checkInvite } from './join-invite.ts'

const FORM_ID = 'join-buble-form'

const joinFailure = (err: unknown): string =>
  err instanceof ApiError && err.status === 410
    ? BUBLE_MESSAGES.inviteInvalid
    : messageOf(err, BUBLE_MESSAGES.inviteInvalid)

/**
 * Asks for an invite code, checks it with the server (which buble, who invited; a dead code is said
 * at once), then asks for the confirmation, then accepts it (online only).
 */
export function JoinBubleModal({ onClose }: { onClose: () => void }) {
  const api = useApi()
  const navigate = useNavigate()
  const call = useOnlineCall(JOIN_TEXTS.joinOffline)
  const [code, setCode] = useState('')
  const [codeError, setCodeError] = useState<string | null>(null)
  /** The normalised code being confirmed, and what it leads to; null while the code is being typed. */
  const [confirming, setConfirming] = useState<{ code: string; preview: InvitePreview } | null>(null)
  const [checking, setChecking] = useState(false)

  async function review(event: FormEvent) {
    event.preventDefault()
    if (checking) return
    const parsed = InviteCode.safeParse(code)
    if (!parsed.success) return setCodeError(parsed.error.issues[0]?.message ?? BUBLE_MESSAGES.codeRequired)
    setCodeError(null)
    call.setError(null)
    setChecking(true)
    const checked = await checkInvite(api, parsed.data)
    setChecking(false)
    if (!checked.ok) return call.setError(checked.message)
    setConfirming({ code: parsed.data, preview: checked.preview })
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
      <JoinConfirmDialog
        code={confirming.code}
        preview={confirming.preview}
        busy={call.busy}
        onConfirm={() => void join(confirming.code)}
        onCancel={() => setConfirming(null)}
      />
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
          <button type="submit" form={FORM_ID} className="btn btn-primary" disabled={checking}>
            {checking ? JOIN_TEXTS.checking : 'Join'}
          </button>
        </>
      }
    >
      <form id={FORM_ID} onSubmit={(event) => void review(event)} noValidate>
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
