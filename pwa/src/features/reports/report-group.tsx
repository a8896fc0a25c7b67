import { MUTE_DURATION_LABELS } from '@buble/shared/mute-texts'
import { MUTE_DURATIONS, type MuteDuration } from '@buble/shared/mutes'
import { type MemberActor, type MemberTarget, mayResolveReport } from '@buble/shared/permissions'
import type { ReportGroup } from '@buble/shared/reports'
import { useId, useState } from 'react'
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx'
import { RelativeTime } from '../../ui/relative-time.tsx'
import { SelectField } from '../../ui/select-field.tsx'
import { REPORTS_TEXTS } from './reports-texts.ts'

export type GroupAction = { action: 'dismiss' } | { action: 'delete' } | { action: 'mute'; duration: MuteDuration }

interface ReportGroupCardProps {
  group: ReportGroup
  actor: MemberActor
  /** The author as a member of the buble now (null: they left), for the mute rule. */
  author: MemberTarget | null
  now: number
  onAction: (action: GroupAction) => void
}

/** One item's open reports: the content, the reasons counted, each report, and the moderator's actions. */
export function ReportGroupCard({ group, actor, author, now, onAction }: ReportGroupCardProps) {
  const [deleting, setDeleting] = useState(false)
  const [duration, setDuration] = useState<MuteDuration>('1h')
  const headingId = useId()
  const content = { kind: group.target_type, authorId: group.author?.id ?? '' }
  const mayDelete = group.exists && mayResolveReport(actor, 'delete', content, author)
  const mayMute = mayResolveReport(actor, 'mute', content, author)
  return (
    <article className="card report-group" aria-labelledby={headingId}>
      <h3 id={headingId} className="report-group-title">
        {REPORTS_TEXTS.byline(group.target_type, group.author?.name)}
        <span className="badge">{REPORTS_TEXTS.reportsCount(group.reports.length)}</span>
      </h3>
      {group.exists ? (
        <blockquote className="report-excerpt">{group.excerpt}</blockquote>
      ) : (
        <p className="muted">
          {REPORTS_TEXTS.gone} <q>{group.excerpt}</q>
        </p>
      )}
      <ul className="report-reason-counts" aria-label="Reasons">
        {group.reasons.map(({ reason, count }) => (
          <li key={reason} className="badge badge-warning">
            {REPORTS_TEXTS.reason(reason)} × {count}
          </li>
        ))}
      </ul>
      <ul className="report-list" aria-label="Reports">
        {group.reports.map((report) => (
          <li key={report.id}>
            <strong>{report.reporter.name}</strong> · {REPORTS_TEXTS.reason(report.reason)} ·{' '}
            <RelativeTime iso={report.created_at} now={now} className="muted" />
            {report.note && <p className="report-note">{report.note}</p>}
          </li>
        ))}
      </ul>
      <div className="report-actions">
        <button type="button" className="btn btn-secondary" onClick={() => onAction({ action: 'dismiss' })}>
          {REPORTS_TEXTS.dismiss}
        </button>
        {mayDelete && (
          <button type="button" className="btn btn-danger" aria-haspopup="dialog" onClick={() => setDeleting(true)}>
            {REPORTS_TEXTS.delete(group.target_type)}
          </button>
        )}
        {mayMute && (
          <div className="report-mute">
            <SelectField
              label={REPORTS_TEXTS.muteLabel}
              value={duration}
              options={MUTE_DURATIONS.map((value) => ({ value, label: MUTE_DURATION_LABELS[value] }))}
              onValue={(value) => setDuration(value as MuteDuration)}
            />
            <button type="button" className="btn btn-secondary" onClick={() => onAction({ action: 'mute', duration })}>
              {REPORTS_TEXTS.mute}
            </button>
          </div>
        )}
      </div>
      {deleting && (
        <ConfirmDialog
          title={REPORTS_TEXTS.deleteTitle(group.target_type)}
          confirmLabel={REPORTS_TEXTS.delete(group.target_type)}
          busyLabel={REPORTS_TEXTS.deleting}
          danger
          busy={false}
          onCancel={() => setDeleting(false)}
          onConfirm={() => {
            setDeleting(false)
            onAction({ action: 'delete' })
          }}
        >
          <p>{REPORTS_TEXTS.deleteBody}</p>
        </ConfirmDialog>
      )}
    </article>
  )
}
