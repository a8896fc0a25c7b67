import './report.css'
import { TARGET_LABELS } from '@buble/shared/report-labels'
import type { ReportTargetType } from '@buble/shared/reports'
import { useState } from 'react'
import { useReported } from '../data/reports.ts'
import { useOnline } from '../data/sync-status.ts'
import { lazyPart } from './lazy-part.ts'
import { REPORT_TEXTS } from './report-texts.ts'

// The dialog, its form and its texts load when a report is begun, not with every post and card.
const ReportDialog = lazyPart(() => import('./report-dialog.tsx'), 'ReportDialog', { fallback: null })

export interface ReportButtonProps {
  bubleId: string
  targetType: ReportTargetType
  targetId: string
  className?: string
}

/**
 * Reporting one item: whether this device reported it, `open()` for its dialog, and the dialog and
 * the confirmation to render where they stay mounted (a menu that hides when the focus leaves it
 * must not hold them).
 */
export function useReportFlow({ bubleId, targetType, targetId }: Omit<ReportButtonProps, 'className'>) {
  const reported = useReported(bubleId, targetId)
  const online = useOnline()
  const [open, setOpen] = useState(false)
  const [confirmation, setConfirmation] = useState<string | null>(null)
  return {
    reported,
    open: () => setOpen(true),
    dialog: open ? (
      <ReportDialog
        bubleId={bubleId}
        targetType={targetType}
        targetId={targetId}
        onClose={() => setOpen(false)}
        onSent={() => setConfirmation(online ? REPORT_TEXTS.sent : REPORT_TEXTS.queued)}
      />
    ) : null,
    confirmation: confirmation ? (
      <p role="status" className="report-confirmation">
        {confirmation}
      </p>
    ) : null,
  }
}

/** The "Report" button of an item, or its "Reported" state (`what` completes its name for screen readers). */
export function ReportToggle({
  reported,
  what,
  onOpen,
  className = 'link-button',
}: {
  reported: boolean
  what: string
  onOpen: () => void
  className?: string
}) {
  if (reported)
    return (
      <span className="report-state">
        {REPORT_TEXTS.reported}
        <span className="visually-hidden"> {what}</span>
      </span>
    )
  return (
    <button type="button" className={className} aria-haspopup="dialog" onClick={onOpen}>
      {REPORT_TEXTS.report} <span className="visually-hidden">{what}</span>
    </button>
  )
}

/**
 * "Report" on a piece of someone else's content: a dialog to pick the reason and add a note, queued
 * like any write (so it works offline), then "Reported" with a confirmation. Callers leave it out
 * for one's own content.
 */
export function ReportButton({ className, ...target }: ReportButtonProps) {
  const flow = useReportFlow(target)
  return (
    <>
      <ReportToggle
        reported={flow.reported}
        what={TARGET_LABELS[target.targetType]}
        onOpen={flow.open}
        {...(className ? { className } : {})}
      />
      {flow.confirmation}
      {flow.dialog}
    </>
  )
}
