import type { Invite } from '@buble/shared/bubles'
import { Alert } from '../../ui/alert.tsx'
import { formatMoment } from '../../ui/format.ts'
import { Modal } from '../../ui/modal.tsx'
import { COPY_FAILED, useCopy } from '../../ui/use-copy.ts'

export function InviteCodeModal({
  invite,
  bubleName,
  onClose,
}: {
  invite: Invite
  bubleName: string
  onClose: () => void
}) {
  const { copied, failed, copy } = useCopy()
  return (
    <Modal
      title="Invite code generated"
      onClose={onClose}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Done
          </button>
          <button type="button" className="btn btn-primary" onClick={() => void copy(invite.code)} data-autofocus>
            {copied ? 'Copied!' : 'Copy code'}
          </button>
        </>
      }
    >
      <p>
        Give this code to the person you want in <strong>{bubleName}</strong>. They enter it under Join Buble. It works
        once.
      </p>
      <p className="invite-code">{invite.code}</p>
      <p className="muted">Expires {formatMoment(invite.expires_at)}</p>
      {failed && <Alert kind="error">{COPY_FAILED}</Alert>}
    </Modal>
  )
}
