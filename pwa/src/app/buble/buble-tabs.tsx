import { useLayoutEffect, useRef } from 'react'
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
  /** Whether the Reports tab shows: members holding moderate_content (or anyone while on it). */
  showReports?: boolean
}

/** Room kept beside the current tab when the bar scrolls to it, so the next one shows it is there. */
const SCROLL_MARGIN_PX = 24

export function BubleTabs({ buble, current, counts = {}, mentions = {}, showReports = false }: BubleTabsProps) {
  // On a phone the six tabs are wider than the screen and the bar scrolls sideways: the current
  // tab is brought into it (the bar alone scrolls, never the page).
  const nav = useRef<HTMLElement>(null)
  useLayoutEffect(() => {
    const bar = nav.current
    const link = bar?.querySelector(`[data-tab="${current}"]`)
    if (!bar || !link) return
    const shown = bar.getBoundingClientRect()
    const tab = link.getBoundingClientRect()
    if (tab.left < shown.left) bar.scrollLeft -= shown.left - tab.left + SCROLL_MARGIN_PX
    else if (tab.right > shown.right) bar.scrollLeft += tab.right - shown.right + SCROLL_MARGIN_PX
  }, [current])
  return (
    <nav className="tabs" aria-label="Buble sections" ref={nav}>
      <ul>
        {TABS.filter((tab) => tab.key !== 'reports' || showReports || current === 'reports').map((tab) => (
          <li key={tab.key}>
            <Link
              to={bublePath(buble, tabSegment(tab.key))}
              className="tab"
              data-tab={tab.key}
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
