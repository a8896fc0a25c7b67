import { ConfirmDialog } from '../../ui/confirm-dialog.tsx'

interface MemberConfirmProps {
  action: 'transfer' | 'remove'
  name: string
  busy: boolean
  error: string | null
  onConfirm: () => void
  onCancel: () => void
}

/** Asks before the two member actions that cannot simply be undone. */
export function MemberConfirm({ action, name, ...dialog }: MemberConfirmProps) {
  if (action === 'transfer') {
    return (
      <ConfirmDialog
        title="Transfer Ownership"
        confirmLabel="Transfer Ownership"
        busyLabel="Transferring…"
        danger
        {...dialog}
      >
        <p>
          Make <strong>{name}</strong> the owner of this Buble? You become a regular member and can no longer manage it.
        </p>
      </ConfirmDialog>
    )
  }
  return (
    <ConfirmDialog title="Remove Member" confirmLabel="Remove Member" busyLabel="Removing…" danger {...dialog}>
      <p>
        Remove <strong>{name}</strong> from this Buble? They lose access to it and need a new invite to come back.
      </p>
    </ConfirmDialog>
  )
}
