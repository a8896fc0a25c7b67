/** The platform admin's Reports tab (issue 24 §1): every buble's open reports, grouped by item, paged. */

import { REASON_LABELS, TARGET_LABELS } from '@buble/shared/report-labels'
import type { AdminReportsPage, ReportGroup } from '@buble/shared/reports'
import { useState } from 'react'
import { useApi } from '../../session/session-context.tsx'
import { formatMoment } from '../../ui/format.ts'
import { AdminTable, Pager } from './list-parts.tsx'
import type { Column } from './row-fields.tsx'
import { useAdminQuery } from './use-admin-query.ts'

type Row = ReportGroup & { id: string }

const COLUMNS: Column<Row>[] = [
  { header: 'Buble', cell: (row) => row.buble_name },
  {
    header: 'Content',
    cell: (row) => (
      <>
        <span className="badge">{TARGET_LABELS[row.target_type]}</span>{' '}
        {row.exists ? row.excerpt : `(removed) ${row.excerpt}`}
      </>
    ),
  },
  { header: 'Author', cell: (row) => row.author?.name ?? 'Former member' },
  {
    header: 'Reasons',
    cell: (row) => row.reasons.map(({ reason, count }) => `${REASON_LABELS[reason]} × ${count}`).join(', '),
  },
  {
    header: 'Reported by',
    cell: (row) => (
      <ul className="admin-report-list">
        {row.reports.map((report) => (
          <li key={report.id}>
            {report.reporter.name}: {REASON_LABELS[report.reason]}
            {report.note ? ` (“${report.note}”)` : ''}
          </li>
        ))}
      </ul>
    ),
  },
  { header: 'Last reported', cell: (row) => formatMoment(row.last_reported_at) },
]

export function ReportsTab() {
  const api = useApi()
  const [page, setPage] = useState(1)
  const query = useAdminQuery(
    `reports|${page}`,
    async (signal) => {
      const answer = await api.get<AdminReportsPage>(`/admin/reports?page=${page}`, signal)
      return {
        rows: answer.reports.map((group) => ({ ...group, id: `${group.target_type}:${group.target_id}` })),
        pagination: answer.pagination,
      }
    },
    'Failed to load reports',
  )
  const pagination = query.status !== 'failed' ? query.data?.pagination : undefined
  return (
    <div className="admin-list">
      <div className="admin-toolbar">
        <p className="muted">Open reports of every Buble, grouped by item; the most recently reported first.</p>
        <button type="button" className="btn btn-secondary btn-small" onClick={query.reload}>
          Refresh
        </button>
      </div>
      <AdminTable label="Reports" columns={COLUMNS} query={query} searching={false} onRetry={query.reload} />
      {pagination && <Pager pagination={pagination} onPage={setPage} />}
    </div>
  )
}
