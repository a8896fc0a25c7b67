/**
 * What the service worker does with a push (CONTRACT §5): badge the app with the total unread
 * count, tell open windows to pull now, and notify unless a focused window already shows that
 * buble; a click focuses (or opens) the buble. Kept here, with its worker APIs passed in, so it is
 * tested outside a worker (STYLE §7).
 */

import type { UnreadPush } from '@buble/shared/push'
import { CONTENT_TYPES } from '@buble/shared/unread'

/** The message windows hear from the worker: sync now. */
export const PULL_MESSAGE = 'buble:pull'

export interface WindowLike {
  url: string
  focused: boolean
  postMessage(message: unknown): void
  focus(): Promise<unknown>
  navigate?(url: string): Promise<unknown>
}

/** The parts of a worker's scope these handlers use. */
export interface WorkerScope {
  origin: string
  windows(): Promise<readonly WindowLike[]>
  showNotification(title: string, options: NotificationOptions & { data: { url: string } }): Promise<void>
  setAppBadge?(count: number): Promise<void>
  openWindow(url: string): Promise<unknown>
}

/** The payload when it is one of ours; anything else is ignored. */
export function parseUnreadPush(data: unknown): UnreadPush | null {
  if (typeof data !== 'object' || data === null) return null
  const push = data as Partial<UnreadPush>
  if (push.type !== 'unread' || typeof push.buble_id !== 'string' || typeof push.url !== 'string') return null
  if (!push.url.startsWith('/bubles/') || typeof push.unread !== 'object' || push.unread === null) return null
  return push as UnreadPush
}

/** The app badge: every tab's unread count added up. */
export const unreadTotal = (push: UnreadPush): number =>
  CONTENT_TYPES.reduce((sum, type) => sum + Math.max(0, Number(push.unread[type]) || 0), 0)

/** `/bubles/<slug>` of a buble URL: any tab of that buble counts as showing it. */
const bublePath = (url: string, origin: string): string =>
  new URL(url, origin).pathname.split('/').slice(0, 3).join('/')

export async function handlePush(data: unknown, scope: WorkerScope): Promise<void> {
  const push = parseUnreadPush(data)
  if (!push) return
  const windows = await scope.windows()
  for (const win of windows) win.postMessage({ type: PULL_MESSAGE, buble_id: push.buble_id })
  await scope.setAppBadge?.(unreadTotal(push)).catch(() => {})
  const target = bublePath(push.url, scope.origin)
  if (windows.some((win) => win.focused && bublePath(win.url, scope.origin) === target)) return
  await scope.showNotification(push.title, {
    body: push.body,
    tag: `${push.buble_id}:${push.contentType}`,
    icon: '/icons/icon-192.png',
    data: { url: push.url },
  })
}

/** A notification's click: the window already on the app goes to the buble, or a new one opens. */
export async function handleNotificationClick(url: unknown, scope: WorkerScope): Promise<void> {
  const path = typeof url === 'string' && url.startsWith('/') ? url : '/dashboard'
  const [win] = await scope.windows()
  if (!win) {
    await scope.openWindow(path)
    return
  }
  await win.focus()
  if (new URL(win.url, scope.origin).pathname !== path) await win.navigate?.(path)
}
