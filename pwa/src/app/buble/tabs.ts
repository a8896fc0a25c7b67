/** The sections of a buble's page (spec part 2 §2), in the order the tab bar shows them. */
export const TABS = [
  { key: 'overview', label: 'Overview' },
  { key: 'wall', label: 'Wall' },
  { key: 'events', label: 'Events' },
  { key: 'polls', label: 'Polls' },
  { key: 'media', label: 'Media' },
  { key: 'members', label: 'Members' },
  // Issue 24 §1: in the bar for moderators only (buble-tabs.tsx); its page also shows an author their notices.
  { key: 'reports', label: 'Reports' },
] as const

export type TabKey = (typeof TABS)[number]['key']

export const isTabKey = (value: string): value is TabKey => TABS.some((tab) => tab.key === value)

/** The path segment of a tab: none for the overview, so /bubles/book-club is the overview. */
export const tabSegment = (tab: TabKey): string | undefined => (tab === 'overview' ? undefined : tab)
