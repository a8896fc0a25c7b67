/** The admin Overview (spec part 2 §2): the platform's totals, and the newest users and bubles with view and delete. */

import { useMemo, useState } from 'react'
import { useApi } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { formatDay } from '../../ui/format.ts'
import { Spinner } from '../../ui/spinner.tsx'
import { useFlash } from '../../ui/use-flash.ts'
import { type AdminApi, adminApi } from './admin-api.ts'
import { ADMIN_TEXTS, type AdminTabKey } from './admin-texts.ts'
import type { AdminBuble, AdminDashboard, AdminUser } from './admin-types.ts'
import { DetailsModal } from './details-modal.tsx'
import { RowAction } from './list-parts.tsx'
import { roleLabel } from './row-fields.tsx'
import { deletedText, useAdminDelete } from './use-admin-delete.tsx'
import { useAdminQuery } from './use-admin-query.ts'

const STATS: [keyof AdminDashboard['stats'], string][] = [
  ['totalUsers', 'Total Users'],
  ['totalBubles', 'Total Bubles'],
  ['totalEvents', 'Total Events'],
  ['totalPolls', 'Total Polls'],
  ['activeInvites', 'Active Invites'],
]

type Viewing = { tab: 'users'; row: AdminUser } | { tab: 'bubles'; row: AdminBuble } | null

export function OverviewTab({ onOpenTab }: { onOpenTab: (key: AdminTabKey) => void }) {
  const api = useApi()
  const admin = useMemo(() => adminApi(api), [api])
  const query = useAdminQuery('dashboard', (signal) => admin.dashboard(signal), ADMIN_TEXTS.loadAdminData)
  const [viewing, setViewing] = useState<Viewing>(null)
  const [flash, showFlash] = useFlash()
  const confirm = useAdminDelete()

  const remove = (tab: 'users' | 'bubles', id: string, name: string) => {
    const type = tab === 'users' ? 'user' : 'buble'
    confirm.ask({
      type,
      name,
      run: () => admin.remove(tab, id),
      onDone: () => {
        showFlash(deletedText(type))
        query.reload()
      },
    })
  }

  if (query.status === 'failed' && !query.data) {
    return (
      <div className="admin-failed">
        <Alert kind="error">{query.message}</Alert>
        <button type="button" className="btn btn-secondary btn-small" onClick={query.reload}>
          Try Again
        </button>
      </div>
    )
  }
  if (!query.data) return <Spinner label="Loading admin data…" />
  const { stats, recentUsers, recentBubles } = query.data

  return (
    <div className="admin-overview">
      {query.status === 'failed' && <Alert kind="error">{query.message}</Alert>}
      {flash && <Alert kind="success">{flash}</Alert>}
      <ul className="admin-cards" aria-label="Totals">
        {STATS.map(([key, label]) => (
          <li key={key} className="card admin-stat">
            <span className="admin-stat-label">{label}</span>
            <span className="admin-stat-value">{stats[key]}</span>
          </li>
        ))}
      </ul>
      <div className="admin-recent">
        <RecentList
          title="Recent Users"
          empty="No users yet."
          onAll={() => onOpenTab('users')}
          items={recentUsers.map((user) => ({
            id: user.id,
            name: user.name,
            detail: `${user.email} · ${roleLabel(user.role)} · ${formatDay(user.created_at)}`,
            what: `user ${user.name}`,
            onView: () => setViewing({ tab: 'users', row: user }),
            onDelete: () => remove('users', user.id, user.name),
          }))}
        />
        <RecentList
          title="Recent Bubles"
          empty="No bubles yet."
          onAll={() => onOpenTab('bubles')}
          items={recentBubles.map((buble) => ({
            id: buble.id,
            name: buble.name,
            detail: `${buble.owner.name} · ${formatDay(buble.created_at)}`,
            what: `buble ${buble.name}`,
            onView: () => setViewing({ tab: 'bubles', row: buble }),
            onDelete: () => remove('bubles', buble.id, buble.name),
          }))}
        />
      </div>
      {viewing && <ViewModal admin={admin} viewing={viewing} onClose={() => setViewing(null)} />}
      {confirm.dialog}
    </div>
  )
}

function ViewModal({
  admin,
  viewing,
  onClose,
}: {
  admin: AdminApi
  viewing: NonNullable<Viewing>
  onClose: () => void
}) {
  return viewing.tab === 'users' ? (
    <DetailsModal admin={admin} tab="users" row={viewing.row} onClose={onClose} />
  ) : (
    <DetailsModal admin={admin} tab="bubles" row={viewing.row} onClose={onClose} />
  )
}

interface RecentItem {
  id: string
  name: string
  detail: string
  what: string
  onView: () => void
  onDelete: () => void
}

function RecentList({
  title,
  empty,
  items,
  onAll,
}: {
  title: string
  empty: string
  items: RecentItem[]
  onAll: () => void
}) {
  const headingId = `admin-${title.toLowerCase().replace(/\s+/g, '-')}`
  return (
    <section className="card admin-recent-list" aria-labelledby={headingId}>
      <div className="card-head">
        <h2 className="section-title" id={headingId}>
          {title}
        </h2>
        <button type="button" className="link-button" onClick={onAll}>
          View all
        </button>
      </div>
      {items.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="admin-recent-items">
          {items.map((item) => (
            <li key={item.id}>
              <span className="admin-person">
                <span className="clamp-1" title={item.name}>
                  {item.name}
                </span>
                <span className="muted admin-small clamp-1" title={item.detail}>
                  {item.detail}
                </span>
              </span>
              <span className="admin-row-actions">
                <RowAction label="View" what={item.what} onClick={item.onView} />
                <RowAction label="Delete" what={item.what} danger onClick={item.onDelete} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
