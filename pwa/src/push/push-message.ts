/**
 * What the service worker does with a push (CONTRACT §5): badge the app with the total unread
 * count, tell open windows to pull now, and notify unless a focused window already shows that
 * buble; a click focuses (or opens) the buble. Kept here, with its worker APIs passed in, so it is
 * tested outside a worker (STYLE §7).
 */

import type { UnreadPush } from '@buble/shared/push'
import { CONTENT_TYPES, totalUnread } from '@buble/shared/unread'

/** The message windows hear from the worker: sync now. */
export const PULL_MESSAGE = 'buble:pull'

/**
 * The worker asks a window where it is; the window answers its `location.href` on the port sent
 * along. A window client's `url` stays where its document was loaded, and the app moves on from
 * there with pushState.
 */
export const WHERE_MESSAGE = 'buble:where'

/** How long a window may take to answer before the worker goes by where it was loaded. */
export const WHERE_WAIT_MS = 500

export interface WindowLike {
  /** Where the window's document was loaded (not where the app has since gone). */
  url: string
  focused: boolean
  postMessage(message: unknown, transfer?: Transferable[]): void
  focus(): Promise<unknown>
  navigate?(url: string): Promise<unknown>
}

/** The parts of a worker's scope these handlers use. */
export interface WorkerScope {
  origin: string
  windows(): Promise<readonly WindowLike[]>
  showNotification(title: string, options: NotificationOptions & { data: { url: string } }): Promise<void>
  setAppBadge?(count: number): Promise<void>
  /** What the device holds unread in every other buble (data/unread-elsewhere.ts). */
  unreadElsewhere?(bubleId: string): Promise<number>
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

/** The app badge: every tab's unread count added up, by the rule the open app badges with (totalUnread). */
export const unreadTotal = (push: UnreadPush): number =>
  totalUnread(CONTENT_TYPES.map((type) => ({ unreadCount: push.unread[type] })))

/** `/bubles/<slug>` of a buble URL: any tab of that buble counts as showing it. */
const bublePath = (url: string, origin: string): string =>
  new URL(url, origin).pathname.split('/').slice(0, 3).join('/')

/** Where a window is now, as it says itself; where it was loaded if it does not answer in time. */
function whereIs(win: WindowLike): Promise<string> {
  const channel = new MessageChannel()
  return new Promise((resolve) => {
    const done = (url: string) => {
      clearTimeout(timer)
      channel.port1.close()
      resolve(url)
    }
    const timer = setTimeout(() => done(win.url), WHERE_WAIT_MS)
    channel.port1.onmessage = (event) => done(typeof event.data === 'string' ? event.data : win.url)
    win.postMessage({ type: WHERE_MESSAGE }, [channel.port2])
  })
}

export async function handlePush(data: unknown, scope: WorkerScope): Promise<void> {
  const push = parseUnreadPush(data)
  if (!push) return
  const windows = await scope.windows()
  for (const win of windows) win.postMessage({ type: PULL_MESSAGE, buble_id: push.buble_id })
  const onScreen = await Promise.all(windows.filter((win) => win.focused).map(whereIs))
  if (scope.setAppBadge) {
    // The push's own counters, fresh from the server, plus the device's for the other bubles; an unreadable
    // device database leaves them out rather than the badge.
    const elsewhere = (await scope.unreadElsewhere?.(push.buble_id).catch(() => 0)) ?? 0
    await scope.setAppBadge(unreadTotal(push) + elsewhere).catch(() => {})
  }
  const target = bublePath(push.url, scope.origin)
  if (onScreen.some((url) => bublePath(url, scope.origin) === target)) return
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
  // Always: `win.url` is where the page was loaded, not where the app is now.
  await win.navigate?.(path)
}
