/** The View modal of each admin table: every field of one row; a user's adds their bubles, a buble's its members. */

import { type ReactNode, useEffect, useState } from 'react'
import { formatDay, formatEventMoment, formatMoment } from '../../ui/format.ts'
import { Modal } from '../../ui/modal.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import type { AdminApi } from './admin-api.ts'
import type { AdminBubleDetail, AdminRows, AdminUserDetail } from './admin-types.ts'
import { inviteStatus, personText, roleLabel } from './row-fields.tsx'

export type DetailTab = Exclude<keyof AdminRows, 'audit'>

const TITLES: Record<DetailTab, string> = {
  users: 'User Details',
  bubles: 'Buble Details',
  events: 'Event Details',
  polls: 'Poll Details',
  posts: 'Post Details',
  invites: 'Invite Details',
}

const at = (iso: string | null | undefined) => (iso ? formatMoment(iso) : '—')
const id = (value: string) => <code key="id">{value}</code>

function fieldsOf<K extends DetailTab>(tab: K, row: AdminRows[K]): [string, ReactNode][] {
  switch (tab) {
    case 'users': {
      const user = row as AdminRows['users']
      return [
        ['Name', user.name],
        ['Email', user.email],
        ['Role', roleLabel(user.role)],
        ['Email verified', user.email_verified ? 'Yes' : 'No'],
        ['Account', user.status === 'pending' ? 'Invited, registration not completed' : 'Active'],
        ['Bio', user.bio || '—'],
        ['Joined', at(user.created_at)],
        ['ID', id(user.id)],
      ]
    }
    case 'bubles': {
      const buble = row as AdminRows['bubles']
      return [
        ['Name', buble.name],
        ['Owner', personText(buble.owner)],
        ['Members', buble.member_count],
        ['Created', at(buble.created_at)],
        ['ID', id(buble.id)],
      ]
    }
    case 'events': {
      const event = row as AdminRows['events']
      return [
        ['Title', event.title],
        ['Description', event.description || '—'],
        ['Location', event.location || '—'],
        ['Event time', formatEventMoment(event.event_time) || '—'],
        ['Buble', event.buble.name],
        ['Creator', personText(event.creator)],
        ['RSVPs', `${event.rsvps.going} going, ${event.rsvps.maybe} maybe, ${event.rsvps.cant_go} can't go`],
        ['Created', at(event.created_at)],
      ]
    }
    case 'polls': {
      const poll = row as AdminRows['polls']
      return [
        ['Question', poll.question],
        [
          'Options',
          <ul key="options" className="admin-detail-list">
            {poll.options.map((option) => (
              <li key={option.id}>{`${option.option_text} (${option.votes_count ?? 'hidden'})`}</li>
            ))}
          </ul>,
        ],
        ['Total votes', poll.totalVotes ?? 'Hidden until the poll closes'],
        ['Members who voted', poll.votersCount],
        ['Closes', poll.closes_at ? at(poll.closes_at) : 'Never'],
        ['Ballot', poll.secret ? 'Secret' : 'Open'],
        ['Buble', poll.buble.name],
        ['Creator', personText(poll.creator)],
        ['Created', at(poll.created_at)],
      ]
    }
    case 'posts': {
      const post = row as AdminRows['posts']
      return [
        [
          'Content',
          <span key="content" className="admin-pre">
            {post.content}
          </span>,
        ],
        ['Type', post.type],
        ['Author', personText(post.author)],
        ['Buble', post.buble_name],
        ['Comments', post.commentsCount],
        ['Created', at(post.created_at)],
      ]
    }
    default: {
      const invite = row as AdminRows['invites']
      return [
        ['Code', <code key="code">{invite.code}</code>],
        ['Buble', invite.buble.name],
        ['Sent to', invite.email || '—'],
        ['Created by', personText(invite.createdBy)],
        ['Used by', personText(invite.usedBy)],
        ['Status', inviteStatus(invite)],
        ['Created', at(invite.created_at)],
        ['Expires', at(invite.expires_at)],
      ]
    }
  }
}

/** Loads a user's or a buble's detail for the modal; null while loading, 'failed' when it could not. */
function useDetail<T>(load: ((signal: AbortSignal) => Promise<T>) | null): T | 'failed' | null {
  const [detail, setDetail] = useState<T | 'failed' | null>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded once, when the modal opens.
  useEffect(() => {
    if (!load) return
    const controller = new AbortController()
    load(controller.signal).then(
      (value) => setDetail(value),
      (err: unknown) => {
        if (controller.signal.aborted) return
        console.warn('Could not load the details', err)
        setDetail('failed')
      },
    )
    return () => controller.abort()
  }, [])
  return detail
}

function Related<T>({
  title,
  detail,
  items,
  empty,
}: {
  title: string
  detail: T | 'failed' | null
  items: (detail: T) => { key: string; text: string }[]
  empty: string
}) {
  let body: ReactNode
  if (detail === null) body = <Spinner label={`Loading ${title.toLowerCase()}…`} />
  else if (detail === 'failed') body = <p className="muted">{`The ${title.toLowerCase()} could not be loaded.`}</p>
  else {
    const list = items(detail)
    body =
      list.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="admin-detail-list">
          {list.map((item) => (
            <li key={item.key}>{item.text}</li>
          ))}
        </ul>
      )
  }
  return (
    <section aria-label={title}>
      <h3 className="admin-subhead">{title}</h3>
      {body}
    </section>
  )
}

export function DetailsModal<K extends DetailTab>({
  admin,
  tab,
  row,
  onClose,
}: {
  admin: AdminApi
  tab: K
  row: AdminRows[K]
  onClose: () => void
}) {
  const detail = useDetail<AdminUserDetail | AdminBubleDetail>(
    tab === 'users'
      ? (signal) => admin.user(row.id, signal)
      : tab === 'bubles'
        ? (signal) => admin.buble(row.id, signal)
        : null,
  )
  return (
    <Modal
      title={TITLES[tab]}
      size="medium"
      onClose={onClose}
      actions={
        <button type="button" className="btn btn-secondary" onClick={onClose} data-autofocus>
          Close
        </button>
      }
    >
      <dl className="details admin-details">
        {fieldsOf(tab, row).map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {tab === 'users' && (
        <Related
          title="Bubles"
          detail={detail as AdminUserDetail | 'failed' | null}
          empty="Not a member of any buble."
          items={(user) =>
            user.bubles.map((buble) => ({
              key: buble.id,
              text: `${buble.name} · ${buble.role} · joined ${formatDay(buble.joined_at)}`,
            }))
          }
        />
      )}
      {tab === 'bubles' && (
        <Related
          title="Members"
          detail={detail as AdminBubleDetail | 'failed' | null}
          empty="No members."
          items={(buble) =>
            buble.members.map((member) => ({
              key: member.user_id,
              text: `${member.user.name} (${member.user.email}) · ${member.role}`,
            }))
          }
        />
      )}
    </Modal>
  )
}
