/** One confirmation at a time for a list of actions (an RSVP, a vote, a delete): ask, then run on confirm. */

import { type ReactNode, useState } from 'react'
import { ConfirmDialog } from './confirm-dialog.tsx'
import { ERROR_TEXTS } from './error-texts.ts'

export interface ConfirmRequest {
  title: string
  body: ReactNode
  confirmLabel: string
  busyLabel: string
  danger?: boolean
  /** What the confirm button does; a failure keeps the dialog open with `failure` (default 'Failed to perform action'). */
  run: () => Promise<unknown>
  failure?: string
}

/** `ask` opens the dialog; render `dialog` where it belongs. Cancel changes nothing. */
export function useConfirm(): { ask: (request: ConfirmRequest) => void; dialog: ReactNode } {
  const [request, setRequest] = useState<ConfirmRequest | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const ask = (next: ConfirmRequest) => {
    setError(null)
    setRequest(next)
  }

  async function confirm(current: ConfirmRequest) {
    setBusy(true)
    try {
      await current.run()
      setRequest(null)
    } catch (err) {
      const failure = current.failure ?? ERROR_TEXTS.performAction
      console.error(failure, err)
      setError(failure)
    } finally {
      setBusy(false)
    }
  }

  const dialog = request && (
    <ConfirmDialog
      title={request.title}
      confirmLabel={request.confirmLabel}
      busyLabel={request.busyLabel}
      danger={request.danger}
      busy={busy}
      error={error}
      onCancel={() => setRequest(null)}
      onConfirm={() => void confirm(request)}
    >
      {request.body}
    </ConfirmDialog>
  )
  return { ask, dialog }
}
