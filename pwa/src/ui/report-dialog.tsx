import './report-dialog.css'
import { REASON_LABELS } from '@buble/shared/report-labels'
import { REPORT_NOTE_MAX, REPORT_REASONS, type ReportReason } from '@buble/shared/reports'
import { useId, useState } from 'react'
import { useSendReport } from '../data/reports.ts'
import { Field } from './field.tsx'
import { FormModal } from './form-modal.tsx'
import type { ReportButtonProps } from './report-button.tsx'
import { REASON_HINTS, REPORT_TEXTS } from './report-texts.ts'

/** The dialog of a report: the reason (required) and a note; sending queues `report.create`. */
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
      <Field label={REPORT_TEXTS.noteLabel} rows={3} maxLength={REPORT_NOTE_MAX} value={note} onValue={setNote} />
    </FormModal>
  )
}
