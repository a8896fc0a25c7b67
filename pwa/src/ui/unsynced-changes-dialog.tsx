import { Modal } from './modal.tsx'

/** Asked before an explicit sign-out would throw away writes the server has not received. */
export function UnsyncedChangesDialog({
  count,
  onStay,
  onSignOut,
}: {
  count: number
  onStay: () => void
  onSignOut: () => void
}) {
  const changes = count === 1 ? '1 change' : `${count} changes`
  return (
    <Modal
      title="Unsaved changes"
      onClose={onStay}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={onStay} data-autofocus>
            Stay signed in
          </button>
          <button type="button" className="btn btn-danger" onClick={onSignOut}>
            Log out anyway
          </button>
        </>
      }
    >
      <p>
        {changes} made on this device {count === 1 ? 'has' : 'have'} not reached the server yet. Logging out removes
        your data from this device, so {count === 1 ? 'it' : 'they'} would be lost.
      </p>
      <p>Stay signed in until you are back online and everything is synced.</p>
    </Modal>
  )
}
