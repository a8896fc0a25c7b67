/** What each admin table shows of its rows, column by column, and how a row is named to a screen reader. */

import type { ReactNode } from 'react'
import { formatDay, formatEventMoment, formatMoment } from '../../ui/format.ts'
import { ROLE_LABELS } from './admin-texts.ts'
import type { AdminInvite, AdminPersonRef, AdminRows } from './admin-types.ts'

export interface Column<Row> {
  header: string
  cell: (row: Row) => ReactNode
}

/** A date as a cell: kept on one line, so a column of dates never wraps mid-date. */
const when = (iso: string | null | undefined, format = formatDay) =>
  iso ? (
    <time className="admin-nowrap" dateTime={iso}>
      {format(iso)}
    </time>
  ) : (
    '—'
  )

/** A name as a cell: at most two lines, cut with an ellipsis; the whole name in its title. */
export function NameCell({ text }: { text: string }) {
  return (
    <span className="admin-name clamp-2" title={text}>
      {text}
    </span>
  )
}

/** A person as a cell: the name, the e-mail under it. */
export function PersonCell({ person }: { person: Pick<AdminPersonRef, 'name' | 'email'> | null }) {
  if (!person) return <span className="muted">—</span>
  return (
    <span className="admin-person">
      <NameCell text={person.name || person.email} />
      {person.name && (
        <span className="muted admin-small clamp-1" title={person.email}>
          {person.email}
        </span>
      )}
    </span>
  )
}

/** "Name (address)", or '—'. */
export const personText = (person: Pick<AdminPersonRef, 'name' | 'email'> | null) =>
  person ? `${person.name} (${person.email})` : '—'

/** Used when someone joined with it (spec part 2 §3), Expired past its time, else Active. */
export const inviteStatus = (invite: Pick<AdminInvite, 'used_by_id' | 'status'>) =>
  invite.used_by_id || invite.status === 'used' ? 'Used' : invite.status === 'expired' ? 'Expired' : 'Active'

export const roleLabel = (role: string) => ROLE_LABELS[role as keyof typeof ROLE_LABELS] ?? role

const clip = (text: string, max = 80) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

export const COLUMNS: { [K in keyof AdminRows]: Column<AdminRows[K]>[] } = {
  users: [
    { header: 'Name', cell: (user) => <NameCell text={user.name} /> },
    { header: 'Email', cell: (user) => <NameCell text={user.email} /> },
    {
      header: 'Role',
      cell: (user) => (
        <span className={`badge${user.role === 'admin' ? ' badge-accent' : ''}`}>{roleLabel(user.role)}</span>
      ),
    },
    {
      header: 'Status',
      cell: (user) => (user.status === 'pending' ? 'Invited' : user.email_verified ? 'Verified' : 'Not verified'),
    },
    { header: 'Bubles', cell: (user) => user.bubles_count },
    { header: 'Joined', cell: (user) => when(user.created_at) },
  ],
  bubles: [
    { header: 'Name', cell: (buble) => <NameCell text={buble.name} /> },
    { header: 'Owner', cell: (buble) => <PersonCell person={buble.owner} /> },
    { header: 'Members', cell: (buble) => buble.member_count },
    { header: 'Created', cell: (buble) => when(buble.created_at) },
  ],
  events: [
    { header: 'Title', cell: (event) => <NameCell text={event.title} /> },
    { header: 'Buble', cell: (event) => <NameCell text={event.buble.name} /> },
    { header: 'Creator', cell: (event) => <PersonCell person={event.creator} /> },
    { header: 'Event time', cell: (event) => when(event.event_time, (iso) => formatEventMoment(iso)) },
    { header: 'Created', cell: (event) => when(event.created_at) },
  ],
  polls: [
    { header: 'Question', cell: (poll) => <NameCell text={poll.question} /> },
    { header: 'Buble', cell: (poll) => <NameCell text={poll.buble.name} /> },
    { header: 'Creator', cell: (poll) => <PersonCell person={poll.creator} /> },
    { header: 'Votes', cell: (poll) => poll.totalVotes ?? 'Hidden' },
    { header: 'Created', cell: (poll) => when(poll.created_at) },
  ],
  posts: [
    { header: 'Content', cell: (post) => <span className="admin-clip">{clip(post.content)}</span> },
    { header: 'Type', cell: (post) => post.type },
    { header: 'Author', cell: (post) => <PersonCell person={post.author} /> },
    { header: 'Buble', cell: (post) => <NameCell text={post.buble_name} /> },
    { header: 'Created', cell: (post) => when(post.created_at) },
  ],
  invites: [
    { header: 'Code', cell: (invite) => <code>{invite.code}</code> },
    { header: 'Buble', cell: (invite) => <NameCell text={invite.buble.name} /> },
    { header: 'Created by', cell: (invite) => <PersonCell person={invite.createdBy} /> },
    {
      header: 'Status',
      cell: (invite) => (
        <span className={`badge${inviteStatus(invite) === 'Active' ? ' badge-success' : ''}`}>
          {inviteStatus(invite)}
        </span>
      ),
    },
    { header: 'Expires', cell: (invite) => when(invite.expires_at) },
  ],
  audit: [
    { header: 'Who', cell: (entry) => <NameCell text={entry.admin_email} /> },
    { header: 'Action', cell: (entry) => <code>{entry.action}</code> },
    {
      header: 'Target',
      cell: (entry) => (
        <span className="admin-person">
          <NameCell text={entry.target_label || entry.target_id} />
          <span className="muted admin-small">{entry.target_type}</span>
        </span>
      ),
    },
    { header: 'When', cell: (entry) => when(entry.created_at, formatMoment) },
  ],
}

/** How a row is named in its buttons ('Delete user Bob Builder'). */
export const ROW_NAME: { [K in keyof AdminRows]: (row: AdminRows[K]) => string } = {
  users: (user) => user.name,
  bubles: (buble) => buble.name,
  events: (event) => event.title,
  polls: (poll) => poll.question,
  posts: (post) => clip(post.content, 40),
  invites: (invite) => invite.code,
  audit: (entry) => entry.action,
}

/** The singular a tab's rows go by, in texts ('Failed to delete user'). */
export const ROW_TYPE: { [K in keyof AdminRows]: string } = {
  users: 'user',
  bubles: 'buble',
  events: 'event',
  polls: 'poll',
  posts: 'post',
  invites: 'invite',
  audit: 'entry',
}
