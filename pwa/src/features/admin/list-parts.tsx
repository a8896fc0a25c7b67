/** The pieces every admin table shares: its toolbar, the table with loading and empty states, and the pager. */

import type { ReactNode } from 'react'
import type { OnlineQuery } from '../../data/online.ts'
import { Alert } from '../../ui/alert.tsx'
import { EmptyState } from '../../ui/empty-state.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { ADMIN_TEXTS } from './admin-texts.ts'
import type { Pagination } from './admin-types.ts'
import type { Column } from './row-fields.tsx'
import type { Page } from './use-paged-list.ts'

interface ToolbarProps {
  label: string
  searchText: string
  onSearch: (text: string) => void
  onRefresh: () => void
  /** Left out where there is nothing to add or export. */
  onExport?: () => void
  exporting?: boolean
  onAdd?: () => void
}

export function ListToolbar({ label, searchText, onSearch, onRefresh, onExport, exporting, onAdd }: ToolbarProps) {
  return (
    <div className="admin-toolbar">
      <label className="admin-search">
        <span className="visually-hidden">{`Search ${label.toLowerCase()}`}</span>
        <input
          type="search"
          className="text-input"
          placeholder={`Search ${label.toLowerCase()}…`}
          value={searchText}
          onChange={(event) => onSearch(event.target.value)}
        />
      </label>
      <div className="admin-toolbar-actions">
        <button type="button" className="btn btn-secondary btn-small" onClick={onRefresh}>
          Refresh
        </button>
        {onExport && (
          <button type="button" className="btn btn-secondary btn-small" onClick={onExport} disabled={exporting}>
            {exporting ? 'Exporting…' : 'Export CSV'}
          </button>
        )}
        {onAdd && (
          <button type="button" className="btn btn-primary btn-small" aria-haspopup="dialog" onClick={onAdd}>
            Add New
          </button>
        )}
      </div>
    </div>
  )
}

interface TableProps<Row extends { id: string }> {
  label: string
  columns: Column<Row>[]
  query: OnlineQuery<Page<Row>>
  searching: boolean
  onRetry: () => void
  /** The row's buttons, when it has any. */
  actions?: (row: Row) => ReactNode
}

export function AdminTable<Row extends { id: string }>({
  label,
  columns,
  query,
  searching,
  onRetry,
  actions,
}: TableProps<Row>) {
  if (query.status === 'failed') {
    return (
      <div className="admin-failed">
        <Alert kind="error">{query.message}</Alert>
        <button type="button" className="btn btn-secondary btn-small" onClick={onRetry}>
          Try Again
        </button>
      </div>
    )
  }
  if (!query.data) return <Spinner label={`Loading ${label.toLowerCase()}…`} />
  const { rows } = query.data
  if (rows.length === 0) {
    return (
      <EmptyState title={searching ? 'No matches' : `No ${label.toLowerCase()} yet`}>
        <p>{searching ? 'Nothing matches this search.' : 'Nothing to show here yet.'}</p>
      </EmptyState>
    )
  }
  return (
    // Wide tables scroll inside their box on a phone; focus on a row's buttons scrolls it along.
    <section className="admin-table-wrap" aria-label={label} aria-busy={query.status === 'loading'}>
      <table className="admin-table">
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col">
                {column.header}
              </th>
            ))}
            {actions && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              {columns.map((column) => (
                <td key={column.header} data-label={column.header}>
                  {column.cell(row)}
                </td>
              ))}
              {actions && (
                <td>
                  <div className="admin-row-actions">{actions(row)}</div>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}

export function Pager({ pagination, onPage }: { pagination: Pagination; onPage: (page: number) => void }) {
  const pages = Math.max(1, pagination.pages)
  const page = Math.min(Math.max(1, pagination.page), pages)
  return (
    <nav className="admin-pager" aria-label="Pages">
      <button
        type="button"
        className="btn btn-secondary btn-small"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        Previous
      </button>
      <p aria-live="polite">{ADMIN_TEXTS.pageOf(page, pages, pagination.total)}</p>
      <button
        type="button"
        className="btn btn-secondary btn-small"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        Next
      </button>
    </nav>
  )
}

/** A row's action button, named for the row to a screen reader ('Edit user Bob Builder'). */
export function RowAction({
  label,
  what,
  danger = false,
  onClick,
}: {
  label: string
  what: string
  danger?: boolean
  onClick: () => void
}) {
  return (
    <button
      type="button"
      className={`link-button${danger ? ' link-button-danger' : ''}`}
      aria-haspopup="dialog"
      onClick={onClick}
    >
      {label} <span className="visually-hidden">{what}</span>
    </button>
  )
}
