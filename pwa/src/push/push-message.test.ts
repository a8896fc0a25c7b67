import type { UnreadPush } from '@buble/shared/push'
import { describe, expect, test, vi } from 'vitest'
import {
  handleNotificationClick,
  handlePush,
  PULL_MESSAGE,
  parseUnreadPush,
  unreadTotal,
  WHERE_MESSAGE,
  WHERE_WAIT_MS,
  type WindowLike,
} from './push-message.ts'

const push: UnreadPush = {
  type: 'unread',
  buble_id: 'b1',
  buble_name: 'Book Club',
  contentType: 'wall',
  title: 'Alice posted',
  body: 'Chapter 3 tonight',
  url: '/bubles/book-club/wall',
  unread: { wall: 2, events: 1, polls: 0, members: 3, chat: 4, reports: 0 },
}

/** A window loaded at `url`; asked where it is, it answers `now` (where the app went since), or nothing. */
function windowAt(url: string, focused = false, now: string | null = url): WindowLike {
  return {
    url: `https://buble.test${url}`,
    focused,
    postMessage: vi.fn((message: { type?: string }, transfer?: Transferable[]) => {
      const port = transfer?.[0] as MessagePort | undefined
      if (message.type === WHERE_MESSAGE && now !== null) port?.postMessage(`https://buble.test${now}`)
    }),
    focus: vi.fn(async () => {}),
    navigate: vi.fn(async () => {}),
  }
}

function scope(windows: WindowLike[]) {
  return {
    origin: 'https://buble.test',
    windows: async () => windows,
    showNotification: vi.fn(async () => {}),
    setAppBadge: vi.fn(async () => {}),
    openWindow: vi.fn(async () => null),
  }
}

describe('a push', () => {
  test('sets the badge to the unread total, tells every window to pull, and notifies', async () => {
    const win = windowAt('/dashboard', true)
    const sw = scope([win])
    await handlePush(push, sw)
    expect(sw.setAppBadge).toHaveBeenCalledWith(10)
    expect(win.postMessage).toHaveBeenCalledWith({ type: PULL_MESSAGE, buble_id: 'b1' })
    expect(sw.showNotification).toHaveBeenCalledWith('Alice posted', {
      body: 'Chapter 3 tonight',
      tag: 'b1:wall',
      icon: '/icons/icon-192.png',
      data: { url: '/bubles/book-club/wall' },
    })
  })

  test("adds the device's unread counters of the other bubles to the push's own, and without them still badges", async () => {
    const sw = { ...scope([]), unreadElsewhere: vi.fn(async () => 6) }
    await handlePush(push, sw)
    expect(sw.unreadElsewhere).toHaveBeenCalledWith('b1')
    expect(sw.setAppBadge).toHaveBeenCalledWith(16)
    const unreadable = { ...scope([]), unreadElsewhere: vi.fn(async () => Promise.reject(new Error('VersionError'))) }
    await handlePush(push, unreadable)
    expect(unreadable.setAppBadge).toHaveBeenCalledWith(10)
  })

  test('shows no notification when a focused window is on that buble (any tab)', async () => {
    const sw = scope([windowAt('/bubles/book-club/events', true)])
    await handlePush(push, sw)
    expect(sw.setAppBadge).toHaveBeenCalledWith(10)
    expect(sw.showNotification).not.toHaveBeenCalled()
  })

  test('still notifies when that buble is open but not focused, or another buble is focused', async () => {
    const sw = scope([windowAt('/bubles/book-club/wall', false), windowAt('/bubles/book-club-2/wall', true)])
    await handlePush(push, sw)
    expect(sw.showNotification).toHaveBeenCalledOnce()
  })

  test('goes by where a focused window says it is, not where its page was loaded', async () => {
    const moved = scope([windowAt('/dashboard', true, '/bubles/book-club/polls')])
    await handlePush(push, moved)
    expect(moved.showNotification).not.toHaveBeenCalled()
    const left = scope([windowAt('/bubles/book-club', true, '/dashboard')])
    await handlePush(push, left)
    expect(left.showNotification).toHaveBeenCalledOnce()
  })

  test('a focused window that does not answer counts as where its page was loaded', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const sw = scope([windowAt('/bubles/book-club/wall', true, null)])
      const handled = handlePush(push, sw)
      await vi.advanceTimersByTimeAsync(WHERE_WAIT_MS)
      await handled
      expect(sw.setAppBadge).toHaveBeenCalledWith(10)
      expect(sw.showNotification).not.toHaveBeenCalled()
    } finally {
      vi.useRealTimers()
    }
  })

  test('ignores what is not ours, and a browser without the Badging API still notifies', async () => {
    expect(parseUnreadPush(null)).toBeNull()
    expect(parseUnreadPush({ type: 'other' })).toBeNull()
    expect(parseUnreadPush({ ...push, url: 'https://evil.test/' })).toBeNull()
    const sw = { ...scope([]), setAppBadge: undefined }
    await handlePush(push, sw)
    expect(sw.showNotification).toHaveBeenCalledOnce()
    expect(unreadTotal({ ...push, unread: { wall: -1, events: 2, polls: 0, members: 0, chat: 0, reports: 0 } })).toBe(2)
  })
})

describe('a notification click', () => {
  test('focuses an open window and takes it to the buble', async () => {
    const win = windowAt('/dashboard')
    const sw = scope([win])
    await handleNotificationClick('/bubles/book-club/wall', sw)
    expect(win.focus).toHaveBeenCalled()
    expect(win.navigate).toHaveBeenCalledWith('/bubles/book-club/wall')
    expect(sw.openWindow).not.toHaveBeenCalled()
  })

  test('takes the window there even when its page was loaded there (the app may have moved on)', async () => {
    const win = windowAt('/bubles/book-club/wall', false, '/dashboard')
    await handleNotificationClick('/bubles/book-club/wall', scope([win]))
    expect(win.focus).toHaveBeenCalled()
    expect(win.navigate).toHaveBeenCalledWith('/bubles/book-club/wall')
  })

  test('opens a window when none is open; a strange url opens the dashboard', async () => {
    const sw = scope([])
    await handleNotificationClick('/bubles/book-club/wall', sw)
    expect(sw.openWindow).toHaveBeenCalledWith('/bubles/book-club/wall')
    await handleNotificationClick('https://evil.test/', sw)
    expect(sw.openWindow).toHaveBeenLastCalledWith('/dashboard')
  })
})
