import { useId } from 'react'
import { type Rejection, useDismissRejection } from '../../data/sync-status.ts'
import { Alert } from '../../ui/alert.tsx'
import { formatMoment } from '../../ui/format.ts'
import { COPY_FAILED, useCopy } from '../../ui/use-copy.ts'
import { describeRejection } from './sync-texts.ts'

/** One change the server refused: what it was, why, and the text the user typed, to copy and try again. */
export function RejectionItem({ rejection }: { rejection: Rejection }) {
  const headlineId = useId()
  const dismiss = useDismissRejection()
  const { copied, failed, copy } = useCopy()
  const { headline, text } = describeRejection(rejection)
  return (
    <li className="rejection" aria-labelledby={headlineId}>
      <p className="rejection-headline" id={headlineId}>
        {headline}
      </p>
      {rejection.message && <p className="rejection-message">{rejection.message}</p>}
      {text !== null && (
        <>
          <p className="kept-label">What you wrote</p>
          <p className="kept-text">{text}</p>
        </>
      )}
      {failed && <Alert kind="error">{COPY_FAILED}</Alert>}
      <div className="rejection-foot">
        <span className="muted">{formatMoment(rejection.at)}</span>
        <span className="rejection-actions">
          {text !== null && (
            <button type="button" className="btn btn-small btn-secondary" onClick={() => void copy(text)}>
              {copied ? 'Copied!' : 'Copy text'}
            </button>
          )}
          <button type="button" className="btn btn-small btn-secondary" onClick={() => void dismiss(rejection.id)}>
            Dismiss
          </button>
        </span>
      </div>
    </li>
  )
}
