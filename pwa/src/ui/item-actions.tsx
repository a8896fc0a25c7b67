import type { Ref } from 'react'
import { ReportButton, type ReportButtonProps } from './report-button.tsx'

/**
 * An item's Edit, Delete and Report (a post, a comment), each shown only to whom it is allowed; nothing when none
 * is. `what` completes their names for screen readers ("Edit post"). Delete opens its confirmation.
 */
export function ItemActions({
  what,
  mayEdit,
  mayDelete,
  editRef,
  onEdit,
  onDelete,
  report,
  className = 'item-actions',
}: {
  what: string
  mayEdit: boolean
  mayDelete: boolean
  /** The Edit button, to take the focus back when an edit ends. */
  editRef?: Ref<HTMLButtonElement>
  onEdit: () => void
  onDelete: () => void
  /** Someone else's item: its "Report" (issue 24 §1). */
  report?: Omit<ReportButtonProps, 'className'> | undefined
  className?: string
}) {
  if (!mayEdit && !mayDelete && !report) return null
  return (
    <div className={className}>
      {mayEdit && (
        <button ref={editRef} type="button" className="link-button" onClick={onEdit}>
          Edit <span className="visually-hidden">{what}</span>
        </button>
      )}
      {mayDelete && (
        <button type="button" className="link-button link-button-danger" aria-haspopup="dialog" onClick={onDelete}>
          Delete <span className="visually-hidden">{what}</span>
        </button>
      )}
      {report && <ReportButton {...report} />}
    </div>
  )
}
