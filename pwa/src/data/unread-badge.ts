/** The unread total where the user sees it outside the page: the app badge and the tab's title. */

import { useEffect } from 'react'
import { useTitleUnread } from '../ui/use-document-title.ts'
import { useUnreadTotal } from './home.ts'

interface BadgeNavigator {
  setAppBadge?(count?: number): Promise<void>
  clearAppBadge?(): Promise<void>
}

/** Sets (or, at zero, clears) the app badge where the platform has one; elsewhere does nothing. */
export function showAppBadge(count: number, nav: BadgeNavigator = navigator as BadgeNavigator): void {
  const done = count > 0 ? nav.setAppBadge?.(count) : nav.clearAppBadge?.()
  // Refused (no permission, not installed): the title still carries the count.
  done?.catch(() => {})
}

/**
 * Keeps the app badge and every page's title on the device's unread total, live and offline. The
 * service worker badges from a push before the pull; this settles the badge once the pull lands.
 */
export function useUnreadBadge(): void {
  const total = useUnreadTotal()
  useTitleUnread(total ?? 0)
  useEffect(() => {
    if (total !== undefined) showAppBadge(total)
  }, [total])
  // Signed out: nothing of this account stays on the icon.
  useEffect(() => () => showAppBadge(0), [])
}
