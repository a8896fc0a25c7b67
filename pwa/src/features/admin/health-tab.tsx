/** System Health (spec part 2 §2): the status, when it was taken, and the counts behind it. */

import { useMemo } from 'react'
import { useApi } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { formatMoment } from '../../ui/format.ts'
import { Spinner } from '../../ui/spinner.tsx'
import { adminApi } from './admin-api.ts'
import { ADMIN_TEXTS } from './admin-texts.ts'
import type { AdminHealth } from './admin-types.ts'
import { useAdminQuery } from './use-admin-query.ts'

const METRICS: [keyof NonNullable<AdminHealth['metrics']>, string][] = [
  ['usersCount', 'Users'],
  ['bublesCount', 'Bubles'],
  ['eventsCount', 'Events'],
  ['pollsCount', 'Polls'],
  ['activeInvitesCount', 'Active Invites'],
  ['expiredInvitesCount', 'Expired Invites'],
]

export function HealthTab() {
  const api = useApi()
  const admin = useMemo(() => adminApi(api), [api])
  const query = useAdminQuery('health', (signal) => admin.health(signal), ADMIN_TEXTS.loadAdminData)

  return (
    <div className="admin-health">
      <div className="admin-toolbar">
        <h2 className="section-title">System Health</h2>
        <button type="button" className="btn btn-secondary btn-small" onClick={query.reload}>
          Refresh
        </button>
      </div>
      {query.status === 'failed' && <Alert kind="error">{query.message}</Alert>}
      {query.status === 'loading' && !query.data && <Spinner label="Loading system health…" />}
      {query.data && <HealthReport health={query.data} />}
    </div>
  )
}

function HealthReport({ health }: { health: AdminHealth }) {
  const healthy = health.status === 'healthy'
  const { metrics } = health
  return (
    <>
      <div className={`card admin-status ${healthy ? 'is-healthy' : 'has-issues'}`}>
        <p className="admin-status-line">
          Status:{' '}
          <strong className={`badge ${healthy ? 'badge-success' : 'badge-warning'}`}>
            {healthy ? 'Healthy' : 'Issues'}
          </strong>
        </p>
        <p className="muted">Last updated: {formatMoment(health.lastUpdated || health.timestamp)}</p>
        {!metrics && <p>The database did not answer, so there are no counts.</p>}
      </div>
      {metrics && (
        <ul className="admin-cards" aria-label="System counts">
          {METRICS.map(([key, label]) => (
            <li key={key} className="card admin-stat">
              <span className="admin-stat-label">{label}</span>
              <span className="admin-stat-value">{metrics[key]}</span>
            </li>
          ))}
        </ul>
      )}
    </>
  )
}
