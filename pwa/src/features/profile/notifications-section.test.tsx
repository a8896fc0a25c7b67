import { screen, waitFor } from '@testing-library/react'
import { afterEach, expect, test, vi } from 'vitest'
import { json } from '../../test/fake-fetch.ts'
import { alice, aliceCalendar, aliceProfile, aliceSessions } from '../../test/fixtures.ts'
import { renderApp } from '../../test/render-app.tsx'
import { NOTIFICATION_TEXTS } from './notifications-section.tsx'

const ENDPOINT = 'https://push.example.com/send/abc'
const KEYS = { p256dh: 'BPublicKey', auth: 'secret' }

/** A browser with Web Push: Notification, PushManager and a ready service worker, all scripted. */
function stubPushBrowser({ permission = 'default', answer = 'granted', subscribed = false } = {}) {
  const notification = {
    permission,
    requestPermission: vi.fn(async () => {
      notification.permission = answer
      return answer
    }),
  }
  // A browser keeps one subscription (subscribe answers it again); once unsubscribed, the next has a new endpoint.
  let made = 0
  const newSubscription = () => {
    const endpoint = made++ === 0 ? ENDPOINT : `${ENDPOINT}-${made}`
    const one = {
      endpoint,
      toJSON: () => ({ endpoint, keys: KEYS }),
      unsubscribe: vi.fn(async () => {
        if (current === one) current = null
        return true
      }),
    }
    return one
  }
  const subscription = newSubscription()
  let current: typeof subscription | null = subscribed ? subscription : null
  let unused: typeof subscription | null = subscribed ? null : subscription
  const pushManager = {
    getSubscription: vi.fn(async () => current),
    subscribe: vi.fn(async () => {
      current ??= unused ?? newSubscription()
      unused = null
      return current
    }),
  }
  vi.stubGlobal('Notification', notification)
  vi.stubGlobal('PushManager', function PushManager() {})
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: {
      ready: Promise.resolve({ pushManager }),
      getRegistration: async () => ({ pushManager }),
      addEventListener() {},
      removeEventListener() {},
    },
  })
  return { notification, pushManager, subscription }
}

afterEach(() => {
  vi.unstubAllGlobals()
  Reflect.deleteProperty(navigator, 'serviceWorker')
})

// The profile and its Calendar section's own load (whose failure would be an alert of its own).
const profile = {
  'GET /api/users/profile': json(200, aliceProfile),
  'GET /api/users/calendar': () => json(200, aliceCalendar),
  'GET /api/users/sessions': () => json(200, aliceSessions),
  'GET /api/users/passkeys': () => json(200, { passkeys: [], has_password: true }),
}

test('permission is asked only after the switch is clicked; the subscription is sent and push turned on', async () => {
  const browser = stubPushBrowser()
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: {
      ...profile,
      'GET /api/push/vapid-public-key': json(200, { publicKey: 'BVapidKey' }),
      'POST /api/push/subscriptions': json(201, { endpoint: ENDPOINT }),
      'PUT /api/push/preferences': json(200, { enabled: true, muted: [] }),
    },
  })
  expect(await screen.findByText(NOTIFICATION_TEXTS.explanation)).toBeInTheDocument()
  const toggle = await screen.findByRole('switch', { name: 'Push notifications on this device' })
  await waitFor(() => expect(toggle).toBeEnabled())
  expect(browser.notification.requestPermission).not.toHaveBeenCalled()

  await app.user.click(toggle)
  await waitFor(() => expect(toggle).toBeChecked())
  expect(browser.notification.requestPermission).toHaveBeenCalledOnce()
  expect(browser.pushManager.subscribe).toHaveBeenCalledWith({
    userVisibleOnly: true,
    applicationServerKey: 'BVapidKey',
  })
  expect(app.callsTo('POST /api/push/subscriptions').map((c) => c.body)).toEqual([{ endpoint: ENDPOINT, keys: KEYS }])
  expect(app.callsTo('PUT /api/push/preferences').map((c) => c.body)).toEqual([{ enabled: true }])
})

test('an endpoint the server keeps for another account is dropped: the browser subscribes afresh and registers the new one', async () => {
  // Someone else enabled push in this browser before; its subscription is still there.
  const browser = stubPushBrowser({ subscribed: true })
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: {
      ...profile,
      'GET /api/push/vapid-public-key': json(200, { publicKey: 'BVapidKey' }),
      'POST /api/push/subscriptions': [
        json(409, { code: 'CONFLICT', message: 'This push subscription cannot be used. Subscribe this device again.' }),
        json(201, { endpoint: `${ENDPOINT}-2` }),
      ],
      'PUT /api/push/preferences': json(200, { enabled: true, muted: [] }),
    },
  })
  const toggle = await screen.findByRole('switch', { name: 'Push notifications on this device' })
  await waitFor(() => expect(toggle).toBeEnabled())
  expect(toggle).not.toBeChecked()
  await app.user.click(toggle)
  await waitFor(() => expect(toggle).toBeChecked())
  expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  expect(app.callsTo('POST /api/push/subscriptions').map((c) => c.body)).toEqual([
    { endpoint: ENDPOINT, keys: KEYS },
    { endpoint: `${ENDPOINT}-2`, keys: KEYS },
  ])
  expect(browser.subscription.unsubscribe).toHaveBeenCalled()
  expect(await browser.pushManager.getSubscription()).toMatchObject({ endpoint: `${ENDPOINT}-2` })
  expect(app.callsTo('PUT /api/push/preferences').map((c) => c.body)).toEqual([{ enabled: true }])
})

test('a fresh endpoint refused again is tried only once more, and the failure is shown', async () => {
  const browser = stubPushBrowser({ subscribed: true })
  const refused = json(409, {
    code: 'CONFLICT',
    message: 'This push subscription cannot be used. Subscribe this device again.',
  })
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: {
      ...profile,
      'GET /api/push/vapid-public-key': json(200, { publicKey: 'BVapidKey' }),
      'POST /api/push/subscriptions': refused,
    },
  })
  const toggle = await screen.findByRole('switch', { name: 'Push notifications on this device' })
  await waitFor(() => expect(toggle).toBeEnabled())
  expect(toggle).not.toBeChecked()
  await app.user.click(toggle)
  expect(await screen.findByText(NOTIFICATION_TEXTS.failed)).toBeInTheDocument()
  expect(toggle).not.toBeChecked()
  // The held endpoint, then one fresh one: no third try.
  expect(app.callsTo('POST /api/push/subscriptions').map((c) => c.body)).toEqual([
    { endpoint: ENDPOINT, keys: KEYS },
    { endpoint: `${ENDPOINT}-2`, keys: KEYS },
  ])
  expect(browser.pushManager.subscribe).toHaveBeenCalledOnce()
  expect(app.callsTo('PUT /api/push/preferences')).toEqual([])
})

test('a refusal says how to allow notifications again and subscribes nothing', async () => {
  const browser = stubPushBrowser({ answer: 'denied' })
  const app = renderApp({ route: '/profile', user: alice, api: profile })
  const toggle = await screen.findByRole('switch', { name: 'Push notifications on this device' })
  await waitFor(() => expect(toggle).toBeEnabled())
  await app.user.click(toggle)
  expect(await screen.findByText(NOTIFICATION_TEXTS.denied)).toBeInTheDocument()
  expect(toggle).not.toBeChecked()
  expect(browser.pushManager.subscribe).not.toHaveBeenCalled()
  expect(app.calls.filter((c) => c.url.startsWith('/api/push'))).toEqual([])
})

test('turning it off turns push off on the server and unsubscribes this device', async () => {
  const browser = stubPushBrowser({ permission: 'granted', subscribed: true })
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: {
      ...profile,
      'PUT /api/push/preferences': json(200, { enabled: false, muted: [] }),
      'DELETE /api/push/subscriptions': new Response(null, { status: 204 }),
    },
  })
  const toggle = await screen.findByRole('switch', { name: 'Push notifications on this device' })
  await waitFor(() => expect(toggle).toBeChecked())
  await app.user.click(toggle)
  await waitFor(() => expect(toggle).not.toBeChecked())
  expect(app.callsTo('PUT /api/push/preferences').map((c) => c.body)).toEqual([{ enabled: false }])
  expect(app.callsTo('DELETE /api/push/subscriptions').map((c) => c.body)).toEqual([{ endpoint: ENDPOINT }])
  expect(browser.subscription.unsubscribe).toHaveBeenCalledOnce()
})

test('on an iPhone in Safari (not on the Home Screen) it explains how to get notifications', async () => {
  vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Mobile/15E148 Safari/604.1',
  )
  renderApp({ route: '/profile', user: alice, api: profile })
  expect(await screen.findByText(NOTIFICATION_TEXTS.homeScreen)).toBeInTheDocument()
  expect(screen.queryByRole('switch')).not.toBeInTheDocument()
})

test('signing out tells the server to forget this browser’s subscription and drops it, so the next user gets none of these pushes', async () => {
  const browser = stubPushBrowser({ permission: 'granted', subscribed: true })
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: { ...profile, 'DELETE /api/push/subscriptions': new Response(null, { status: 204 }) },
  })
  await app.user.click(await screen.findByRole('button', { name: 'Sign Out' }))
  expect(await screen.findByRole('heading', { name: 'Sign in to Buble' })).toBeInTheDocument()
  expect(app.callsTo('DELETE /api/push/subscriptions').map((c) => c.body)).toEqual([{ endpoint: ENDPOINT }])
  expect(browser.subscription.unsubscribe).toHaveBeenCalled()
  expect(await browser.pushManager.getSubscription()).toBeNull()
})

test('offline, signing out still drops the browser’s subscription (its push service then refuses the next push)', async () => {
  const browser = stubPushBrowser({ permission: 'granted', subscribed: true })
  const app = renderApp({
    route: '/profile',
    user: alice,
    api: { ...profile, 'DELETE /api/push/subscriptions': new TypeError('Failed to fetch') },
  })
  await app.user.click(await screen.findByRole('button', { name: 'Sign Out' }))
  expect(await screen.findByRole('heading', { name: 'Sign in to Buble' })).toBeInTheDocument()
  expect(browser.subscription.unsubscribe).toHaveBeenCalled()
})
