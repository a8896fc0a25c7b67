import { useEffect, useId, useState } from 'react'
import { type Rejection, useRejectionActions } from '../../data/sync-status.ts'
import { Alert } from '../../ui/alert.tsx'
import { ERROR_TEXTS } from '../../ui/error-texts.ts'
import { formatMoment } from '../../ui/format.ts'
import { COPY_FAILED, useCopy } from '../../ui/use-copy.ts'
import { describeRejection, rejectionReason, tryAgainText } from './sync-texts.ts'

// setTimeout's longest delay; a later time is checked again when it fires.
const LONGEST_TIMER = 2 ** 31 - 1

/** Now, read again when `until` comes (and not before): enough for a text that changes at that moment. */
function useNowUntil(until: string | undefined): number {
  const [now, setNow] = useState(Date.now)
  useEffect(() => {
    const left = until ? Date.parse(until) - now : Number.NaN
    if (!(left > 0)) return
    const timer = setTimeout(() => setNow(Date.now()), Math.min(left, LONGEST_TIMER))
    return () => clearTimeout(timer)
  }, [until, now])
  return now
}

export interface RejectionItemProps {
  rejection: Rejection
  /** Told before Retry or Discard takes the item off the list (the list moves focus on). */
  onLeaving?: (id: string) => void
  /** Told when Retry or Discard failed and the item stays. */
  onStayed?: (id: string) => void
}

/**
 * One change that was not saved: what it was, why, and the text the user typed, to copy; Retry
 * sends it again as it was, Discard forgets it. A change refused for coming too often says when it
 * may go again, and Retry waits until then: sent earlier it would only be refused again.
 */
export function RejectionItem({ rejection, onLeaving, onStayed }: RejectionItemProps) {
  const headlineId = useId()
  const waitId = useId()
  const { retry, discard } = useRejectionActions()
  const { copied, failed, copy } = useCopy()
  const [busy, setBusy] = useState(false)
  const [actionFailed, setActionFailed] = useState(false)
  const now = useNowUntil(rejection.retryAt)
  const { headline, text } = describeRejection(rejection)
  const reason = rejectionReason(rejection)
  const wait = tryAgainText(rejection.retryAt, now)

  async function act(action: (id: string) => Promise<void>) {
    setBusy(true)
    setActionFailed(false)
    onLeaving?.(rejection.id)
    try {
      await action(rejection.id)
    } catch {
      // Its args no longer pass this version's checks, or the session ended: the item stays.
      setActionFailed(true)
      setBusy(false)
      onStayed?.(rejection.id)
    }
  }

  return (
    <li className="rejection" aria-labelledby={headlineId}>
      <p className="rejection-headline" id={headlineId}>
        {headline}
      </p>
      {reason && <p className="rejection-message">{reason}</p>}
      {wait && (
        <p className="rejection-wait" id={waitId}>
          {wait}
        </p>
      )}
      {text !== null && (
        <>
          <p className="kept-label">What you wrote</p>
          <p className="kept-text">{text}</p>
        </>
      )}
      {failed && <Alert kind="error">{COPY_FAILED}</Alert>}
      {actionFailed && <Alert kind="error">{ERROR_TEXTS.performAction}</Alert>}
      <div className="rejection-foot">
        <span className="muted">{formatMoment(rejection.at)}</span>
        <span className="rejection-actions">
          {text !== null && (
            <button type="button" className="btn btn-small btn-secondary" onClick={() => void copy(text)}>
              {copied ? 'Copied!' : 'Copy text'}
            </button>
          )}
          <button
            type="button"
            className="btn btn-small btn-secondary"
            disabled={busy}
            onClick={() => void act(discard)}
          >
            Discard
          </button>
          <button
            type="button"
            className="btn btn-small btn-primary"
            disabled={busy || wait !== null}
            aria-describedby={wait ? waitId : undefined}
            onClick={() => void act(retry)}
          >
            Retry
          </button>
        </span>
      </div>
    </li>
  )
}
