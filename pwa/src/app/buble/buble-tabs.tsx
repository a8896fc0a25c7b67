import { Link } from 'react-router-dom'
import { bublePath, type LocalBuble } from '../../data/bubles.ts'
import { TabCount } from '../../ui/tab-count.tsx'
import { TABS, type TabKey, tabSegment } from './tabs.ts'

interface BubleTabsProps {
  buble: Pick<LocalBuble, 'id' | 'slug'>
  current: TabKey
  /** Unread per tab; the overview never shows one (spec part 1 §2). */
  counts?: Partial<Record<Exclude<TabKey, 'overview'>, number>>
  /** Tabs holding an unread mention of the reader: an `@` mark. */
  mentions?: Partial<Record<Exclude<TabKey, 'overview'>, boolean>>
}

export function BubleTabs({ buble, current, counts = {}, mentions = {} }: BubleTabsProps) {
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
              {tab.key !== 'overview' && (
                <TabCount count={counts[tab.key] ?? 0} mentioned={mentions[tab.key] === true} />
              )}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}
