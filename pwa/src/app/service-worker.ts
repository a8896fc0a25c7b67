/** Registers the service worker (from app code: the CSP forbids inline scripts) and tracks a waiting update. */

import { useSyncExternalStore } from 'react'
import type { Workbox } from 'workbox-window'
import { WHERE_MESSAGE } from '../push/push-message.ts'

let workbox: Workbox | null = null
let updateReady = false
const listeners = new Set<() => void>()

function setUpdateReady() {
  updateReady = true
  for (const listener of listeners) listener()
}

/** Resolves once the worker is registered, or registration is left for when the device is back online. */
export async function registerServiceWorker(): Promise<void> {
  if (!('serviceWorker' in navigator)) return
  // A push asks where this window is: its client url stays where the page was loaded.
  navigator.serviceWorker.addEventListener('message', (event) => {
    if (event.data?.type === WHERE_MESSAGE) event.ports[0]?.postMessage(window.location.href)
  })
  // workbox-window is its own chunk: registering waits for nothing on screen, so it stays out of the first load.
  const { Workbox } = await import('workbox-window')
  workbox = new Workbox('/sw.js')
  // 'waiting' fires for a new version found now or left waiting by an earlier visit.
  workbox.addEventListener('waiting', setUpdateReady)
  const register = () =>
    workbox?.register().catch((err: unknown) => console.warn('Service worker registration failed', err))
  // Offline, the installed worker already controls the page and an update check could only fail.
  if (navigator.onLine) await register()
  else window.addEventListener('online', () => void register(), { once: true })
}

/** Lets the waiting worker take over, then reloads once it controls the page. */
export function applyUpdate(): void {
  if (!workbox) {
    window.location.reload()
    return
  }
  workbox.addEventListener('controlling', () => window.location.reload())
  workbox.messageSkipWaiting()
}

export function useUpdateReady(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    () => updateReady,
  )
}
