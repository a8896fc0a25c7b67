import { useState } from 'react'
import { Alert } from '../../ui/alert.tsx'
import { ERROR_TEXTS } from '../../ui/error-texts.ts'
import { Modal } from '../../ui/modal.tsx'
import { EVENT_TEXTS } from './event-texts.ts'

/** Before editing a repeating event: this event alone, or it and the ones after it (decision 97). */
export function EditScopeDialog({
  onChoose,
  onCancel,
}: {
  onChoose: (scope: 'this' | 'following') => void
  onCancel: () => void
}) {
  return (
    <Modal
      title={EVENT_TEXTS.editScopeTitle}
      onClose={onCancel}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={onCancel}>
            {EVENT_TEXTS.cancel}
          </button>
          <button type="button" className="btn btn-secondary" onClick={() => onChoose('following')}>
            {EVENT_TEXTS.editFollowing}
          </button>
          <button type="button" className="btn btn-primary" data-autofocus onClick={() => onChoose('this')}>
            {EVENT_TEXTS.editThis}
          </button>
        </>
      }
    >
      <p>{EVENT_TEXTS.editScopeBody}</p>
    </Modal>
  )
}

/** Deleting a repeating event: only this occurrence, or every one; Cancel takes the focus. */
export function DeleteScopeDialog({
  title,
  onDelete,
  onCancel,
}: {
  title: string
  onDelete: (scope: 'this' | 'all') => Promise<unknown>
  onCancel: () => void
}) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const run = async (scope: 'this' | 'all') => {
    setBusy(true)
    setError(null)
    try {
      await onDelete(scope)
      onCancel()
    } catch (err) {
      console.error(ERROR_TEXTS.performAction, err)
      setError(ERROR_TEXTS.performAction)
      setBusy(false)
    }
  }
  return (
    <Modal
      title={EVENT_TEXTS.deleteScopeTitle}
      onClose={busy ? undefined : onCancel}
      actions={
        <>
          <button type="button" className="btn btn-secondary" data-autofocus disabled={busy} onClick={onCancel}>
            {EVENT_TEXTS.cancel}
          </button>
          <button type="button" className="btn btn-danger" disabled={busy} onClick={() => void run('this')}>
            {EVENT_TEXTS.deleteThis}
          </button>
          <button type="button" className="btn btn-danger" disabled={busy} onClick={() => void run('all')}>
            {EVENT_TEXTS.deleteAll}
          </button>
        </>
      }
    >
      <p>
        {title}: {EVENT_TEXTS.deleteScopeBody}
      </p>
      {error && <Alert kind="error">{error}</Alert>}
    </Modal>
  )
}
