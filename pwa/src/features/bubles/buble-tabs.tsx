import { unreadLabel } from '@buble/shared/unread'
import { Link } from 'react-router-dom'
import { bublePath, type LocalBuble } from '../../data/bubles.ts'
import { TABS, type TabKey, tabSegment } from './tabs.ts'

/** The red unread counter of a tab; nothing at zero. */
export function TabCount({ count }: { count: number }) {
  const label = unreadLabel(count)
  if (label === null) return null
  // The space makes it "Wall 3 unread" to a screen reader, not "Wall3 unread"; a flex container does not draw it.
  return (
    <>
      {' '}
      <span className="tab-count">
        <span aria-hidden="true">{label}</span>
        <span className="visually-hidden">{`${label} unread`}</span>
      </span>
    </>
  )
}

interface BubleTabsProps {
  buble: Pick<LocalBuble, 'id' | 'slug'>
  current: TabKey
  /** Unread per tab; the overview never shows one (spec part 1 §2). */
  counts?: Partial<Record<Exclude<TabKey, 'overview'>, number>>
}

export function BubleTabs({ buble, current, counts = {} }: BubleTabsProps) {
  return (
    <nav className="tabs" aria-label="Buble sections">
      <ul>
        {TABS.map((tab) => (
          <li key={tab.key}>
            <Link
              to={bublePath(buble, tabSegment(tab.key))}
              className="tab"
              aria-current={tab.key === current ? 'page' : undefined}
            >
              {tab.label}
              {tab.key !== 'overview' && <TabCount count={counts[tab.key] ?? 0} />}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}
