/** One admin table tab (users, bubles, events, polls, posts, invites): search, refresh, export, add, rows and pages. */

import { useState } from 'react'
import { sessionEnded } from '../../data/online.ts'
import { messageOf } from '../../session/api-client.ts'
import { Alert } from '../../ui/alert.tsx'
import { useFlash } from '../../ui/use-flash.ts'
import { ADMIN_TABS, ADMIN_TEXTS } from './admin-texts.ts'
import type { AdminRows } from './admin-types.ts'
import { CreateBubleModal, EditEventModal, EditPollModal } from './content-modals.tsx'
import { DetailsModal } from './details-modal.tsx'
import { AdminTable, ListToolbar, Pager, RowAction } from './list-parts.tsx'
import { COLUMNS, type Column, ROW_NAME, ROW_TYPE } from './row-fields.tsx'
import { deletedText, useAdminDelete } from './use-admin-delete.tsx'
import { usePagedList } from './use-paged-list.ts'
import { CreateUserModal, EditUserModal, ResetPasswordModal } from './user-modals.tsx'

export type RowTab = Exclude<keyof AdminRows, 'audit'>

type Dialog<K extends RowTab> = { kind: 'view' | 'edit' | 'reset'; row: AdminRows[K] } | { kind: 'add' } | null

const EDITABLE: readonly RowTab[] = ['users', 'events', 'polls']
const ADDABLE: readonly RowTab[] = ['users', 'bubles']

export function ListTab<K extends RowTab>({ tab }: { tab: K }) {
  const list = usePagedList(tab)
  const { admin, query } = list
  const label = ADMIN_TABS.find((entry) => entry.key === tab)!.label
  const type = ROW_TYPE[tab]
  const [dialog, setDialog] = useState<Dialog<K>>(null)
  const [flash, showFlash] = useFlash()
  const [error, setError] = useState<string | null>(null)
  const [exporting, setExporting] = useState(false)
  const confirm = useAdminDelete()

  const saved = (message: string) => {
    setError(null)
    showFlash(message)
    query.reload()
  }

  async function exportCsv() {
    setError(null)
    setExporting(true)
    try {
      await admin.exportCsv(tab, list.search)
    } catch (err) {
      if (!sessionEnded(err)) setError(messageOf(err, ADMIN_TEXTS.exportCsv))
    }
    setExporting(false)
  }

  const rowName = ROW_NAME[tab] as (row: AdminRows[K]) => string
  const actions = (row: AdminRows[K]) => {
    const what = `${type} ${rowName(row)}`
    return (
      <>
        <RowAction label="View" what={what} onClick={() => setDialog({ kind: 'view', row })} />
        {EDITABLE.includes(tab) && (
          <RowAction label="Edit" what={what} onClick={() => setDialog({ kind: 'edit', row })} />
        )}
        {tab === 'users' && (
          <RowAction label="Reset Password" what={`for ${what}`} onClick={() => setDialog({ kind: 'reset', row })} />
        )}
        <RowAction
          label="Delete"
          what={what}
          danger
          onClick={() =>
            confirm.ask({
              type,
              name: rowName(row),
              run: () => admin.remove(tab, row.id),
              onDone: () => saved(deletedText(type)),
            })
          }
        />
      </>
    )
  }

  const close = () => setDialog(null)
  const modalProps = { admin, onClose: close, onSaved: saved }
  const pagination = query.status !== 'failed' ? query.data?.pagination : undefined

  return (
    <div className="admin-list">
      <ListToolbar
        label={label}
        searchText={list.searchText}
        onSearch={list.setSearchText}
        onRefresh={query.reload}
        onExport={() => void exportCsv()}
        exporting={exporting}
        onAdd={ADDABLE.includes(tab) ? () => setDialog({ kind: 'add' }) : undefined}
      />
      {flash && <Alert kind="success">{flash}</Alert>}
      {error && <Alert kind="error">{error}</Alert>}
      <AdminTable
        label={label}
        columns={COLUMNS[tab] as Column<AdminRows[K]>[]}
        query={query}
        searching={list.search !== ''}
        onRetry={query.reload}
        actions={actions}
      />
      {pagination && <Pager pagination={pagination} onPage={list.setPage} />}
      {dialog?.kind === 'view' && <DetailsModal admin={admin} tab={tab} row={dialog.row} onClose={close} />}
      {dialog?.kind === 'add' && tab === 'users' && <CreateUserModal {...modalProps} />}
      {dialog?.kind === 'add' && tab === 'bubles' && <CreateBubleModal {...modalProps} />}
      {dialog?.kind === 'edit' && tab === 'users' && (
        <EditUserModal {...modalProps} user={dialog.row as AdminRows['users']} />
      )}
      {dialog?.kind === 'edit' && tab === 'events' && (
        <EditEventModal {...modalProps} event={dialog.row as AdminRows['events']} />
      )}
      {dialog?.kind === 'edit' && tab === 'polls' && (
        <EditPollModal {...modalProps} poll={dialog.row as AdminRows['polls']} />
      )}
      {dialog?.kind === 'reset' && <ResetPasswordModal {...modalProps} user={dialog.row as AdminRows['users']} />}
      {confirm.dialog}
    </div>
  )
}
