/**
 * This device's Web Push subscription (CONTRACT §5): whether the browser can push at all, asking
 * for permission (only ever from a click), subscribing with the server's VAPID key, and undoing it.
 */

import { type ApiClient, ApiError } from '../session/api-client.ts'

export type PushSupport =
  /** PushManager and notifications exist: the switch works. */
  | 'supported'
  /** iOS/iPadOS Safari in a tab: Web Push exists only for an app added to the Home Screen. */
  | 'needs-home-screen'
  | 'unsupported'

type Api = Pick<ApiClient, 'get' | 'post' | 'put' | 'delete'>

export function pushSupport(win: Window & typeof globalThis = window): PushSupport {
  const nav = win.navigator as Navigator & { standalone?: boolean }
  if ('serviceWorker' in nav && 'PushManager' in win && 'Notification' in win) return 'supported'
  // iOS: every browser there is Safari underneath; touch-capable "Macintosh" is an iPad.
  const ios = /iPad|iPhone|iPod/.test(nav.userAgent) || (/Macintosh/.test(nav.userAgent) && nav.maxTouchPoints > 1)
  return ios && nav.standalone !== true ? 'needs-home-screen' : 'unsupported'
}

/** The subscription this browser holds for our worker, if any. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.ready
  return registration.pushManager.getSubscription()
}

export class PushDeniedError extends Error {
  override readonly name = 'PushDeniedError'
}

/** Asks for permission (call from a click), subscribes this device and turns push on for the account. */
export async function enablePush(api: Api): Promise<void> {
  const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission()
  if (permission !== 'granted') throw new PushDeniedError(permission)
  const { publicKey } = await api.get<{ publicKey: string }>('/push/vapid-public-key')
  const { pushManager } = await navigator.serviceWorker.ready
  const fresh = () => pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey })
  const subscription = (await pushManager.getSubscription()) ?? (await fresh())
  try {
    await register(api, subscription)
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 409)) throw err
    // The server keeps this endpoint for the account that registered it (someone who used this
    // browser before): drop it and register a new one, once; a second refusal is shown.
    await subscription.unsubscribe()
    await register(api, await fresh())
  }
  await api.put('/push/preferences', { enabled: true })
}

async function register(api: Api, subscription: PushSubscription): Promise<void> {
  const { endpoint, keys } = subscription.toJSON()
  await api.post('/push/subscriptions', { endpoint, keys })
}

/** Turns push off for the account and forgets this device's subscription. */
export async function disablePush(api: Api): Promise<void> {
  await api.put('/push/preferences', { enabled: false })
  const subscription = await currentSubscription()
  if (!subscription) return
  await api.delete('/push/subscriptions', { endpoint: subscription.endpoint })
  await subscription.unsubscribe()
}

/**
 * Signing out on purpose: this browser's subscription leaves with the account, so a shared browser
 * never shows the last user's buble names and texts. The server is told first (the session still
 * holds its token), for at most `timeoutMs`; the browser's subscription is dropped either way, so
 * offline its push service answers 410 to the next push and the server forgets the row then.
 */
export async function forgetDevicePush(api: Api, timeoutMs = 2000): Promise<void> {
  if (!('serviceWorker' in navigator)) return
  // getRegistration, not ready: ready never settles where no worker was ever registered.
  const registration = await navigator.serviceWorker.getRegistration?.()
  const subscription = await registration?.pushManager?.getSubscription()
  if (!subscription) return
  const told = api.delete('/push/subscriptions', { endpoint: subscription.endpoint }).catch(() => {})
  let timer: ReturnType<typeof setTimeout> | undefined
  await Promise.race([told, new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))])
  clearTimeout(timer)
  await subscription.unsubscribe().catch(() => false)
}
