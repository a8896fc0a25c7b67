/** The audit trail: who did what to which row, and when; newest first, searchable and paged. */

import { AdminTable, ListToolbar, Pager } from './list-parts.tsx'
import { COLUMNS } from './row-fields.tsx'
import { usePagedList } from './use-paged-list.ts'

export function AuditTab() {
  const list = usePagedList('audit')
  const { query } = list
  const pagination = query.status !== 'failed' ? query.data?.pagination : undefined
  return (
    <div className="admin-list">
      <ListToolbar
        label="Audit"
        searchText={list.searchText}
        onSearch={list.setSearchText}
        onRefresh={list.query.reload}
      />
      <AdminTable
        label="Audit entries"
        columns={COLUMNS.audit}
        query={query}
        searching={list.search !== ''}
        onRetry={list.query.reload}
      />
      {pagination && <Pager pagination={pagination} onPage={list.setPage} />}
    </div>
  )
}
