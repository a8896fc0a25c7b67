import type { Ref } from 'react'

/**
 * An item's Edit and Delete (a post, a comment), each shown only to whom it is allowed; nothing when neither
 * is. `what` completes their names for screen readers ("Edit post"). Delete opens its confirmation.
 */
export function ItemActions({
  what,
  mayEdit,
  mayDelete,
  editRef,
  onEdit,
  onDelete,
  className = 'item-actions',
}: {
  what: string
  mayEdit: boolean
  mayDelete: boolean
  /** The Edit button, to take the focus back when an edit ends. */
  editRef?: Ref<HTMLButtonElement>
  onEdit: () => void
  onDelete: () => void
  className?: string
}) {
  if (!mayEdit && !mayDelete) return null
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
    </div>
  )
}
