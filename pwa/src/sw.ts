/**
 * The service worker: precache the app shell and open it offline, keep the buble files it serves,
 * flush the outbox on background sync, turn a push into badge + notification (STYLE.md §7: keep it small).
 */

import { clientsClaim } from 'workbox-core'
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  type PrecacheEntry,
  precacheAndRoute,
} from 'workbox-precaching'
import { NavigationRoute, registerRoute } from 'workbox-routing'
import { flushOutbox, userOfSyncTag } from './data/background-sync.ts'
import { cacheFirst, fileCacheOf } from './data/file-cache.ts'
import { unreadElsewhere } from './data/unread-elsewhere.ts'
import { handleNotificationClick, handlePush, type WorkerScope } from './push/push-message.ts'

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> }
interface SyncEvent extends ExtendableEvent {
  readonly tag: string
}

precacheAndRoute(self.__WB_MANIFEST)
cleanupOutdatedCaches()

// Every page URL is the SPA's index.html, so a deep link opens offline; API calls go to the network.
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api\//] }))

// A buble's files seen once show offline: cache-first, as files never change under one key. Each
// user and buble has its own cache, which goes when the buble leaves the device (the replica).
registerRoute(
  ({ request }) => fileCacheOf(request) !== null,
  ({ request, event }) =>
    cacheFirst(request, fileCacheOf(request)!, {
      caches: self.caches,
      fetch: (r) => fetch(r),
      waitUntil: (work) => (event as ExtendableEvent).waitUntil(work),
    }),
)

// A new version waits until the user chooses Reload in the update prompt.
self.addEventListener('message', (event) => {
  if (event.data?.type === 'SKIP_WAITING') void self.skipWaiting()
})

// Writes made offline reach the server when the connection returns, even with the app closed.
self.addEventListener('sync', (event) => {
  const sync = event as SyncEvent
  const userId = userOfSyncTag(sync.tag)
  if (userId) sync.waitUntil(flushOutbox(userId))
})

// A push: badge the unread total, tell open windows to pull, notify unless the buble is on screen.
const scope: WorkerScope = {
  origin: self.location.origin,
  windows: () => self.clients.matchAll({ type: 'window', includeUncontrolled: true }),
  showNotification: (title, options) => self.registration.showNotification(title, options),
  setAppBadge: 'setAppBadge' in self.navigator ? (count) => self.navigator.setAppBadge(count) : undefined,
  unreadElsewhere: (bubleId) => unreadElsewhere(bubleId),
  openWindow: (url) => self.clients.openWindow(url),
}
self.addEventListener('push', (event) => {
  let data: unknown = null
  try {
    data = event.data?.json()
  } catch {
    // Not JSON: not one of ours.
  }
  event.waitUntil(handlePush(data, scope))
})
self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  event.waitUntil(handleNotificationClick(event.notification.data?.url, scope))
})

clientsClaim()
