import { totalUnread } from '@buble/shared/unread'
import { expect, test, vi } from 'vitest'
import { composeTitle } from '../ui/use-document-title.ts'
import { showAppBadge } from './unread-badge.ts'

test('the badge is set to the total, and cleared at zero', () => {
  const nav = { setAppBadge: vi.fn(async () => {}), clearAppBadge: vi.fn(async () => {}) }
  showAppBadge(4, nav)
  expect(nav.setAppBadge).toHaveBeenCalledWith(4)
  showAppBadge(0, nav)
  expect(nav.clearAppBadge).toHaveBeenCalledOnce()
})

test('without the badge API, or when it refuses, nothing breaks', async () => {
  expect(() => showAppBadge(3, {})).not.toThrow()
  const refused = vi.fn(() => Promise.reject(new Error('NotAllowedError')))
  showAppBadge(3, { setAppBadge: refused })
  await Promise.resolve()
  expect(refused).toHaveBeenCalledWith(3)
})

test('one rule for the total: counters added up, each capped, rows without a count ignored', () => {
  expect(totalUnread([{ unreadCount: 2 }, { unreadCount: 1 }, {}, { unreadCount: -1 }])).toBe(3)
  expect(totalUnread([{ unreadCount: 250 }, { unreadCount: 1 }])).toBe(101)
  expect(totalUnread([])).toBe(0)
})

test('the title carries the total in front only when there is something unread', () => {
  expect(composeTitle('Your Bubles', 3)).toBe('(3) Your Bubles · Buble')
  expect(composeTitle('Your Bubles', 0)).toBe('Your Bubles · Buble')
  expect(composeTitle('', 2)).toBe('(2) Buble')
})
