import { useLayoutEffect, useRef } from 'react'
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
  const heading = useRef<HTMLHeadingElement>(null)
  const list = useRef<HTMLUListElement>(null)
  // The item whose Retry or Discard has focus while it leaves the list, and where it stood.
  const leaving = useRef<{ id: string; index: number } | null>(null)

  // Once it is gone, focus goes to the item that took its place (or the one before), else the
  // heading: it would otherwise fall to the page behind the dialog. Before paint, in the same commit.
  useLayoutEffect(() => {
    const gone = leaving.current
    if (!gone || !rejections || rejections.some((rejection) => rejection.id === gone.id)) return
    leaving.current = null
    const items = list.current?.querySelectorAll<HTMLElement>(':scope > li') ?? []
    const next = items[Math.min(gone.index, items.length - 1)]
    ;(next?.querySelector<HTMLElement>('button:not([disabled])') ?? heading.current)?.focus()
  }, [rejections])

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
      <h3 className="section-title" ref={heading} tabIndex={-1}>
        Not saved
      </h3>
      {rejections === undefined ? (
        <Spinner />
      ) : rejections.length === 0 ? (
        <p className="muted">The server has accepted every change made here.</p>
      ) : (
        <>
          <p className="muted">
            The server did not save these changes, so they were undone on this device. Retry sends one again as it was;
            Discard drops it.
          </p>
          <ul className="rejection-list" ref={list}>
            {rejections.map((rejection, index) => (
              <RejectionItem
                key={rejection.id}
                rejection={rejection}
                onLeaving={(id) => {
                  leaving.current = { id, index }
                }}
                onStayed={(id) => {
                  if (leaving.current?.id === id) leaving.current = null
                }}
              />
            ))}
          </ul>
        </>
      )}
    </Modal>
  )
}
