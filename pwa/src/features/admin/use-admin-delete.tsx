import { type ReactNode, useState } from 'react'
import { messageOf } from '../../session/api-client.ts'
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx'
import { ADMIN_TEXTS } from './admin-texts.ts'

export interface DeleteRequest {
  /** 'user', 'buble'…: for the texts. */
  type: string
  name: string
  run: () => Promise<unknown>
  onDone: () => void
}

const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1)

/** Asks before a delete; a failure stays in the dialog as the server's message, else 'Failed to delete {type}'. */
export function useAdminDelete(): { ask: (request: DeleteRequest) => void; dialog: ReactNode } {
  const [request, setRequest] = useState<DeleteRequest | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const ask = (next: DeleteRequest) => {
    setError(null)
    setRequest(next)
  }

  async function confirm(current: DeleteRequest) {
    setBusy(true)
    setError(null)
    try {
      await current.run()
      setRequest(null)
      current.onDone()
    } catch (err) {
      const failure = ADMIN_TEXTS.deleteType(current.type)
      console.warn(failure, err)
      setError(messageOf(err, failure))
    } finally {
      setBusy(false)
    }
  }

  const dialog = request && (
    <ConfirmDialog
      title={`Delete ${capital(request.type)}`}
      confirmLabel="Delete"
      busyLabel="Deleting…"
      danger
      busy={busy}
      error={error}
      onCancel={() => setRequest(null)}
      onConfirm={() => void confirm(request)}
    >
      <p>
        Delete the {request.type} <strong>{request.name}</strong>? This cannot be undone.
      </p>
    </ConfirmDialog>
  )
  return { ask, dialog }
}

export const deletedText = (type: string) => `${capital(type)} deleted successfully`
