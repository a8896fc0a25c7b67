import './report.css'
import { LIMITS } from '@buble/shared/constants'
import {
  REASON_LABELS,
  REPORT_REASONS,
  type ReportReason,
  type ReportTargetType,
  TARGET_LABELS,
} from '@buble/shared/reports'
import { useId, useState } from 'react'
import { useReported, useSendReport } from '../data/reports.ts'
import { useOnline } from '../data/sync-status.ts'
import { Field } from './field.tsx'
import { FormModal } from './form-modal.tsx'
import { REASON_HINTS, REPORT_TEXTS } from './report-texts.ts'

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

export function ReportDialog({
  bubleId,
  targetType,
  targetId,
  onClose,
  onSent,
}: Omit<ReportButtonProps, 'className'> & { onClose: () => void; onSent: () => void }) {
  const send = useSendReport()
  const [reason, setReason] = useState<ReportReason | null>(null)
  const [note, setNote] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const legendId = useId()
  return (
    <FormModal
      title={REPORT_TEXTS.dialogTitle(targetType)}
      submitLabel={REPORT_TEXTS.send}
      busyLabel={REPORT_TEXTS.sending}
      failure={REPORT_TEXTS.failed}
      onClose={onClose}
      onSubmit={async () => {
        if (!reason) {
          setProblem(REPORT_TEXTS.pickReason)
          return false
        }
        await send({ bubleId, targetType, targetId, reason, note })
        onSent()
        return true
      }}
    >
      <p className="field-hint">{REPORT_TEXTS.intro}</p>
      <fieldset
        className="report-reasons"
        aria-labelledby={legendId}
        aria-describedby={problem ? `${legendId}-error` : undefined}
      >
        <legend id={legendId}>{REPORT_TEXTS.reasonLegend}</legend>
        {REPORT_REASONS.map((value) => (
          <label key={value} className="report-reason">
            <input
              type="radio"
              name={`reason-${targetId}`}
              value={value}
              checked={reason === value}
              onChange={() => {
                setReason(value)
                setProblem(null)
              }}
            />
            <span>
              <strong>{REASON_LABELS[value]}</strong>
              <span className="field-hint">{REASON_HINTS[value]}</span>
            </span>
          </label>
        ))}
        {problem && (
          <p className="field-error" id={`${legendId}-error`}>
            {problem}
          </p>
        )}
      </fieldset>
      <Field label={REPORT_TEXTS.noteLabel} rows={3} maxLength={LIMITS.reportNote} value={note} onValue={setNote} />
    </FormModal>
  )
}
