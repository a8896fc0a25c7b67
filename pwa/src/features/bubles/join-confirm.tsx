import type { InvitePreview } from '@buble/shared/bubles'
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx'
import { InvitePreviewCard } from '../../ui/invite-preview-card.tsx'

/** The spec's join confirmation (part 1 §3: "Join via invite: confirmation dialog, then accept"), naming the buble and the inviter. */
export function JoinConfirmDialog({
  code,
  preview,
  busy,
  onConfirm,
  onCancel,
}: {
  code: string
  preview: InvitePreview
  busy: boolean
  onConfirm: () => void
  onCancel: () => void
}) {
  return (
    <ConfirmDialog
      title="Join this Buble?"
      confirmLabel="Join Buble"
      busyLabel="Joining…"
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <InvitePreviewCard bubleName={preview.buble.name} inviterName={preview.invited_by?.name ?? null} />
      <p>
        You are about to join <strong>{preview.buble.name}</strong> with the invite code{' '}
        <code className="invite-code-inline">{code}</code>. Its members will see your name and e-mail address.
      </p>
    </ConfirmDialog>
  )
}
