import { relativeTime } from '@buble/shared/time'
import { unreadLabel } from '@buble/shared/unread'
import { Link } from 'react-router-dom'
import { bublePath } from '../../data/bubles.ts'
import type { HomeBuble } from '../../data/home.ts'
import { AvatarStack } from '../../ui/avatar-stack.tsx'
import { formatDay, plural } from '../../ui/format.ts'
import { RelativeTime } from '../../ui/relative-time.tsx'
import { activityLine, DASHBOARD_TEXTS } from './dashboard-screen-texts.ts'
import './dashboard-screen.css'

const CARD_BADGES = 3

/** A buble on the home screen: its name and unread total, what happened last, and who is in it. */
export function BubleCard({ home, now }: { home: HomeBuble; now: number }) {
  const { buble, unread, mentioned, latest } = home
  const count = unreadLabel(unread)
  const line = latest ? activityLine(latest) : null
  const describedId = `buble-${buble.id}-news`
  // What the link adds to its name: "3 unread, Bob in chat: see you at 7, 2m ago".
  const described = [
    count ? DASHBOARD_TEXTS.unread(unread) : null,
    mentioned ? DASHBOARD_TEXTS.mentioned : null,
    line ?? DASHBOARD_TEXTS.noActivity,
    latest ? relativeTime(latest.at, now) : null,
  ]
    .filter(Boolean)
    .join(', ')
  return (
    <article className="card buble-card">
      <div className="buble-card-top">
        <h2 className="buble-card-name clamp-2" title={buble.name}>
          {/* Stretched over the whole card (CSS), so the card is one big target with one link name. */}
          <Link
            to={bublePath(buble)}
            className="stretched-link"
            // The link is the card's one stop: it tells what is unread and what happened last.
            aria-describedby={describedId}
          >
            {buble.name}
          </Link>
        </h2>
        {mentioned && (
          <span className="buble-card-unread buble-card-mention" title={DASHBOARD_TEXTS.mentioned}>
            <span aria-hidden="true">@</span>
            <span className="visually-hidden">{DASHBOARD_TEXTS.mentioned}</span>
          </span>
        )}
        {count && (
          <span className="buble-card-unread" title={DASHBOARD_TEXTS.unread(unread)}>
            <span aria-hidden="true">{count}</span>
            <span className="visually-hidden">{DASHBOARD_TEXTS.unread(unread)}</span>
          </span>
        )}
      </div>
      <span id={describedId} hidden>
        {described}
      </span>
      <p className={`buble-card-activity${unread > 0 ? ' is-unread' : ''}`}>
        {latest && line ? (
          <>
            <span className="buble-card-activity-text" title={line}>
              {line}
            </span>
            <span aria-hidden="true" className="buble-card-sep">
              {' · '}
            </span>
            <RelativeTime iso={latest.at} now={now} className="buble-card-activity-time" />
          </>
        ) : (
          <span className="buble-card-activity-text">{DASHBOARD_TEXTS.noActivity}</span>
        )}
      </p>
      <p className="buble-card-meta">
        <span>Created {formatDay(buble.created_at)}</span>
        <span>{plural(buble.member_count, 'member')}</span>
      </p>
      <div className="buble-card-foot">
        <AvatarStack people={buble.members} total={buble.member_count} max={CARD_BADGES} size={32} images={false} />
        {buble._pending && <span className="badge badge-warning">Not synced yet</span>}
      </div>
    </article>
  )
}
