import type { Invite } from '@buble/shared/bubles'
import { useState } from 'react'
import { Alert } from '../../ui/alert.tsx'
import { formatMoment } from '../../ui/format.ts'
import { Modal } from '../../ui/modal.tsx'
import { COPY_FAILED, useCopy } from '../../ui/use-copy.ts'
import { InviteEmailForm } from './invite-email-form.tsx'

export function InviteCodeModal({
  invite,
  buble,
  onClose,
}: {
  invite: Invite
  buble: { id: string; name: string }
  onClose: () => void
}) {
  const { copied, failed, copy } = useCopy()
  const [sent, setSent] = useState<{ email: string; invite: Invite } | null>(null)
  const shown = sent?.invite ?? invite
  return (
    <Modal
      title="Invite code generated"
      onClose={onClose}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Done
          </button>
          <button type="button" className="btn btn-primary" onClick={() => void copy(shown.code)} data-autofocus>
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
      <p className="invite-code">{shown.code}</p>
      <p className="muted">Expires {formatMoment(shown.expires_at)}</p>
      {failed && <Alert kind="error">{COPY_FAILED}</Alert>}
      <InviteEmailForm bubleId={buble.id} onSent={(email, next) => setSent({ email, invite: next })} />
    </Modal>
  )
}
