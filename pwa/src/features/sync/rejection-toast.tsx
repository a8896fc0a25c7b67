import { useEffect, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import { type Rejection, useRejections } from '../../data/sync-status.ts'
import { describeRejection } from './sync-texts.ts'

/**
 * Speaks up when the server refuses a change while the app is open: the change was already undone
 * here, and a counter in the header alone is easy to miss. Refusals from before the app opened only
 * count in the header.
 */
export function RejectionToast({ onDetails, hidden }: { onDetails: () => void; hidden: boolean }) {
  const rejections = useRejections()
  const seen = useRef<Set<string> | null>(null)
  const [latest, setLatest] = useState<Rejection | null>(null)

  useEffect(() => {
    if (!rejections) return
    if (seen.current === null) {
      seen.current = new Set(rejections.map((rejection) => rejection.id))
      return
    }
    const known = seen.current
    const arrived = rejections.filter((rejection) => !known.has(rejection.id))
    for (const rejection of arrived) known.add(rejection.id)
    if (arrived[0]) setLatest(arrived[0])
  }, [rejections])

  // The details are on screen: the toast has done its job.
  useEffect(() => {
    if (hidden) setLatest(null)
  }, [hidden])

  const showing = latest && rejections?.some((rejection) => rejection.id === latest.id) ? latest : null
  if (!showing || hidden) return null
  // Portalled: the header's backdrop-filter would otherwise become the toast's containing block.
  return createPortal(
    <div className="toast toast-error" role="alert">
      <span className="toast-text">Not saved: {describeRejection(showing).headline}</span>
      <button type="button" className="btn btn-small btn-light" onClick={onDetails}>
        Details
      </button>
      <button type="button" className="toast-close" aria-label="Close" onClick={() => setLatest(null)}>
        <span aria-hidden="true">×</span>
      </button>
    </div>,
    document.body,
  )
}
