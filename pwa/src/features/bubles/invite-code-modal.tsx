import type { ActiveInvite, Invite } from '@buble/shared/bubles'
import { useState } from 'react'
import { useOnlineCall } from '../../data/online.ts'
import { useApi } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx'
import { ERROR_TEXTS } from '../../ui/error-texts.ts'
import { formatMoment } from '../../ui/format.ts'
import { Modal } from '../../ui/modal.tsx'
import { COPY_FAILED, useCopy } from '../../ui/use-copy.ts'
import { ActiveInviteList, useActiveInvites } from './active-invites.tsx'
import { InviteEmailForm } from './invite-email-form.tsx'

const REVOKE_OFFLINE = 'You are offline. Revoking a code needs a connection.'

/**
 * The code just generated, a form to mail one, and the buble's active codes with a Revoke for each:
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
  const { copied, failed, copy } = useCopy()
  const [sent, setSent] = useState<{ email: string; invite: Invite } | null>(null)
  const codes = useActiveInvites(buble.id)
  const revoking = useOnlineCall(REVOKE_OFFLINE)
  const [confirming, setConfirming] = useState<ActiveInvite | null>(null)
  const [revoked, setRevoked] = useState<string[]>([])
  const shown = sent?.invite ?? invite
  const shownRevoked = revoked.includes(shown.code)

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
      title="Invite code generated"
      size="medium"
      onClose={onClose}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Done
          </button>
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => void copy(shown.code)}
            disabled={shownRevoked}
            data-autofocus
          >
            {copied ? 'Copied!' : 'Copy code'}
          </button>
        </>
      }
    >
      {sent ? (
        <>
          <Alert kind="success">{`Invite sent to ${sent.email}`}</Alert>
          <p>
            We e-mailed them this code for <strong>{buble.name}</strong>. It works once.
          </p>
        </>
      ) : (
        <p>
          Give this code to the person you want in <strong>{buble.name}</strong>. They enter it under Join Buble. It
          works once.
        </p>
      )}
      <p className={shownRevoked ? 'invite-code invite-code-revoked' : 'invite-code'}>{shown.code}</p>
      {shownRevoked ? (
        <p className="muted">Revoked: this code no longer works.</p>
      ) : (
        <p className="muted">Expires {formatMoment(shown.expires_at)}</p>
      )}
      {failed && <Alert kind="error">{COPY_FAILED}</Alert>}
      <InviteEmailForm
        bubleId={buble.id}
        onSent={(email, next) => {
          setSent({ email, invite: next })
          void codes.reload()
        }}
      />
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
