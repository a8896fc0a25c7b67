import type { ActiveInvite, Invite } from '@buble/shared/bubles'
import { useState } from 'react'
import { useOnlineCall } from '../../data/online.ts'
import { useApi } from '../../session/session-context.tsx'
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx'
import { ERROR_TEXTS } from '../../ui/error-texts.ts'
import { Modal } from '../../ui/modal.tsx'
import { ActiveInviteList, useActiveInvites } from './active-invites.tsx'
import { InviteEmailForm } from './invite-email-form.tsx'
import { InviteShare } from './invite-share.tsx'
import { INVITE_TEXTS } from './invite-texts.ts'

const REVOKE_OFFLINE = 'You are offline. Revoking a code needs a connection.'

/**
 * The code just generated and its link (copy, share), a form to mail one, and the buble's active codes with a Revoke for each:
 * whoever sees this modal was just allowed to make a code (invite_members), and who may hand out
 * codes may see and withdraw them all.
 */
export function InviteCodeModal({
  invite,
  buble,
  onClose,
}: {
  invite: Invite
  buble: { id: string; name: string }
  onClose: () => void
}) {
  const api = useApi()
  const codes = useActiveInvites(buble.id)
  const revoking = useOnlineCall(REVOKE_OFFLINE)
  const [confirming, setConfirming] = useState<ActiveInvite | null>(null)
  const [revoked, setRevoked] = useState<string[]>([])
  const shownRevoked = revoked.includes(invite.code)

  async function revoke(target: ActiveInvite) {
    const outcome = await revoking.run(
      () => api.delete(`/bubles/${buble.id}/invites/${encodeURIComponent(target.code)}`),
      ERROR_TEXTS.revokeInvite,
    )
    if (!outcome.ok) {
      // Used, expired or revoked elsewhere meanwhile: the list shows what is left.
      void codes.reload()
      return
    }
    codes.drop(target.code)
    setRevoked((earlier) => [...earlier, target.code])
    setConfirming(null)
  }

  function cancelRevoke() {
    revoking.setError(null)
    setConfirming(null)
  }

  if (confirming) {
    return (
      <ConfirmDialog
        title="Revoke Invite Code"
        confirmLabel="Revoke Code"
        busyLabel="Revoking…"
        danger
        busy={revoking.busy}
        error={revoking.error}
        onConfirm={() => void revoke(confirming)}
        onCancel={cancelRevoke}
      >
        <p>
          Revoke the code <code className="invite-code-inline">{confirming.code}</code>
          {confirming.email ? ` sent to ${confirming.email}` : ''}? It stops working at once: nobody can join{' '}
          <strong>{buble.name}</strong> with it.
        </p>
      </ConfirmDialog>
    )
  }

  return (
    <Modal
      title={INVITE_TEXTS.dialogTitle}
      size="medium"
      onClose={onClose}
      actions={
        <button type="button" className="btn btn-secondary" onClick={onClose}>
          Done
        </button>
      }
    >
      <p>
        {INVITE_TEXTS.intro} <strong>{buble.name}</strong>. {INVITE_TEXTS.introEnd}
      </p>
      <InviteShare invite={invite} bubleName={buble.name} revoked={shownRevoked} />
      {/* A mailed code is the addressee's own: it is confirmed beside the form, and the code above stays. */}
      <InviteEmailForm bubleId={buble.id} onSent={() => void codes.reload()} />
      <ActiveInviteList
        state={codes.state}
        onRetry={() => void codes.reload()}
        onRevoke={(target) => {
          revoking.setError(null)
          setConfirming(target)
        }}
        disabled={revoking.busy}
        notice={revoked.length > 0 ? `Code ${revoked[revoked.length - 1]} revoked. It no longer works.` : null}
      />
    </Modal>
  )
}
