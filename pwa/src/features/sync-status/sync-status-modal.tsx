import { useDevice } from '../../data/data-context.tsx'
import { type SyncSummary, useOnline, useRejections } from '../../data/sync-status.ts'
import { formatMoment, plural } from '../../ui/format.ts'
import { Modal } from '../../ui/modal.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { RejectionItem } from './rejection-item.tsx'
import { statusDescription, statusLabel } from './sync-texts.ts'

export function SyncStatusModal({ summary, onClose }: { summary: SyncSummary; onClose: () => void }) {
  const { engine } = useDevice()
  const online = useOnline()
  const rejections = useRejections()
  return (
    <Modal
      title="Sync status"
      size="medium"
      onClose={onClose}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Close
          </button>
          <button type="button" className="btn btn-primary" onClick={() => void engine.sync()} disabled={!online}>
            Sync now
          </button>
        </>
      }
    >
      <p className={`sync-state sync-${summary.state}`}>
        <span className="sync-dot" aria-hidden="true" />
        <strong>{statusLabel(summary)}</strong>
      </p>
      <p>{statusDescription(summary)}</p>
      {summary.state === 'error' && summary.error && <p className="muted">Last problem: {summary.error}</p>}
      <dl className="facts">
        <div>
          <dt>Last synced</dt>
          <dd>{summary.lastSyncedAt ? formatMoment(summary.lastSyncedAt) : 'Not yet'}</dd>
        </div>
        <div>
          <dt>Waiting to be sent</dt>
          <dd>{plural(summary.pending, 'change')}</dd>
        </div>
      </dl>
      <h3 className="section-title">Not saved</h3>
      {rejections === undefined ? (
        <Spinner />
      ) : rejections.length === 0 ? (
        <p className="muted">The server has accepted every change made here.</p>
      ) : (
        <>
          <p className="muted">The server refused these changes, so they were undone on this device.</p>
          <ul className="rejection-list">
            {rejections.map((rejection) => (
              <RejectionItem key={rejection.id} rejection={rejection} />
            ))}
          </ul>
        </>
      )}
    </Modal>
  )
}
