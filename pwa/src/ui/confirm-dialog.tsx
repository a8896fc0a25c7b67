import type { ReactNode } from 'react'
import { Alert } from './alert.tsx'
import { Modal } from './modal.tsx'

interface ConfirmDialogProps {
  title: string
  children: ReactNode
  /** The confirming button's label, usually the action's own name ('Delete Buble'). */
  confirmLabel: string
  busyLabel: string
  /** A destructive action: a red button, and Cancel takes the focus so Enter does no harm. */
  danger?: boolean
  busy: boolean
  error?: string | null
  onConfirm: () => void
  onCancel: () => void
}

/** Asks before an action: Cancel, or the action's button; a failure shows inside. */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  busyLabel,
  danger = false,
  busy,
  error = null,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Modal
      title={title}
      onClose={busy ? undefined : onCancel}
      actions={
        <>
          <button
            type="button"
            className="btn btn-secondary"
            onClick={onCancel}
            disabled={busy}
            data-autofocus={danger ? true : undefined}
          >
            Cancel
          </button>
          <button
            type="button"
            className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`}
            onClick={onConfirm}
            disabled={busy}
            data-autofocus={danger ? undefined : true}
          >
            {busy ? busyLabel : confirmLabel}
          </button>
        </>
      }
    >
      {error && <Alert kind="error">{error}</Alert>}
      {children}
    </Modal>
  )
}
