/** The platform admin area (spec part 2 §2, route /admin): admins only, one tab at a time, the tab in the URL. */

import { Link, useSearchParams } from 'react-router-dom'
import { useSession } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { lazyPart } from '../../ui/lazy-part.ts'
import { Spinner } from '../../ui/spinner.tsx'
import { useDocumentTitle } from '../../ui/use-document-title.ts'
import { AdminTabs, panelId, tabId } from './admin-tabs.tsx'
import { ADMIN_TEXTS, type AdminTabKey, isAdminTab } from './admin-texts.ts'
import { AuditTab } from './audit-tab.tsx'
import { HealthTab } from './health-tab.tsx'
import { ListTab } from './list-tab.tsx'
import { OverviewTab } from './overview-tab.tsx'
import './admin.css'

// Loaded when opened: its labels stay out of the first load of every page (the router names the admin's chunks).
const ReportsTab = lazyPart(() => import('./reports-tab.tsx'), 'ReportsTab', {
  fallback: <Spinner label="Loading reports…" />,
})

export function AdminScreen() {
  useDocumentTitle('Admin')
  const role = useSession((state) => state.user?.role)
  if (role !== 'admin') {
    return (
      <div className="page-narrow">
        <Alert kind="error">{ADMIN_TEXTS.accessDenied}</Alert>
        <Link to="/dashboard">Back to your bubles</Link>
      </div>
    )
  }
  return <AdminArea />
}

function AdminArea() {
  const [params, setParams] = useSearchParams()
  const requested = params.get('tab')
  const current: AdminTabKey = isAdminTab(requested) ? requested : 'overview'
  const select = (key: AdminTabKey) => setParams(key === 'overview' ? {} : { tab: key })

  return (
    <div className="admin">
      <div className="page-head">
        <h1>Admin Dashboard</h1>
      </div>
      <AdminTabs current={current} onSelect={select} />
      <section role="tabpanel" id={panelId(current)} aria-labelledby={tabId(current)} className="admin-panel">
        <TabBody tab={current} onOpenTab={select} />
      </section>
    </div>
  )
}

function TabBody({ tab, onOpenTab }: { tab: AdminTabKey; onOpenTab: (key: AdminTabKey) => void }) {
  switch (tab) {
    case 'overview':
      return <OverviewTab onOpenTab={onOpenTab} />
    case 'health':
      return <HealthTab />
    case 'audit':
      return <AuditTab />
    case 'reports':
      return <ReportsTab />
    default:
      // A key per tab: a new tab starts on page 1 with an empty search.
      return <ListTab key={tab} tab={tab} />
  }
}
