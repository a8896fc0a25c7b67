import { useState } from 'react'
import { useSyncSummary } from '../../data/sync-status.ts'
import { RejectionToast } from './rejection-toast.tsx'
import { SyncStatusModal } from './sync-status-modal.tsx'
import { statusLabel } from './sync-texts.ts'

/** The header's sync indicator: a few words, a red count of refused changes, and the details on click. */
export function SyncIndicator() {
  const summary = useSyncSummary()
  const [open, setOpen] = useState(false)
  if (!summary) return null
  return (
    <>
      <button
        type="button"
        className={`sync-button sync-${summary.state}`}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        <span className="sync-dot" aria-hidden="true" />
        <span>{statusLabel(summary)}</span>
        {summary.notSaved > 0 && (
          <>
            {' '}
            <span className="sync-not-saved">{summary.notSaved} not saved</span>
          </>
        )}
      </button>
      <RejectionToast hidden={open} onDetails={() => setOpen(true)} />
      {open && <SyncStatusModal summary={summary} onClose={() => setOpen(false)} />}
    </>
  )
}
