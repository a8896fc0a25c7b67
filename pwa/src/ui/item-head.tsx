import type { ReactNode } from 'react'
import { ReportButton, type ReportButtonProps } from './report-button.tsx'

interface ItemHeadProps {
  /** The heading's id, which names the card. */
  id: string
  title: string
  /** Lines under the title (time, place). */
  children?: ReactNode
  creatorName: string | undefined
  pending: boolean
  /** 'event', 'poll': completes the buttons' names for screen readers ('Edit event'). */
  kind: string
  /** Edit and Delete, for those who may manage the item; left out otherwise. */
  manage?: { onEdit: () => void; onDelete: () => void }
  /** Someone else's item: its "Report" (issue 24 §1). */
  report?: Omit<ReportButtonProps, 'className'> | undefined
}

/** The head of an event or poll card: title, who made it, 'Sending…' while pending, Edit and Delete, Report. */
export function ItemHead({ id, title, children, creatorName, pending, kind, manage, report }: ItemHeadProps) {
  return (
    <header className="event-head">
      <div className="event-title-block">
        <h3 id={id} className="clamp-2" title={title}>
          {title}
        </h3>
        {children}
        <p className="event-meta">
          <span className="clamp-1" title={creatorName}>
            Created by {creatorName}
          </span>
          {pending && <span className="pending-mark">Sending…</span>}
        </p>
      </div>
      {(manage || report) && (
        <div className="item-actions">
          {report && <ReportButton {...report} />}
          {manage && (
            <>
              <button type="button" className="link-button" aria-haspopup="dialog" onClick={manage.onEdit}>
                Edit <span className="visually-hidden">{kind}</span>
              </button>
              <button
                type="button"
                className="link-button link-button-danger"
                aria-haspopup="dialog"
                onClick={manage.onDelete}
              >
                Delete <span className="visually-hidden">{kind}</span>
              </button>
            </>
          )}
        </div>
      )}
    </header>
  )
}
