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
