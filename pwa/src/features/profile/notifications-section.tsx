/** The profile's Notifications section: this device's Web Push switch, with permission asked only on a click. */

import { useEffect, useState } from 'react'
import {
  currentSubscription,
  disablePush,
  enablePush,
  PushDeniedError,
  type PushSupport,
  pushSupport,
} from '../../push/push-subscription.ts'
import { useApi } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'

export const NOTIFICATION_TEXTS = {
  explanation:
    'Get a notification when something new arrives in your Bubles, and see the unread count on the app icon.',
  homeScreen:
    'To get notifications on iPhone or iPad, add Buble to your Home Screen (Share, then Add to Home Screen) and open it from there.',
  unsupported: 'This browser cannot show notifications from Buble.',
  denied:
    'Notifications are blocked for Buble. To turn them on, allow notifications for this site in your browser settings, then try again.',
  dismissed: 'Notifications were not allowed. Turn the switch on to be asked again.',
  failed: 'Could not change notifications. Check your connection and try again.',
} as const

type State = 'checking' | 'off' | 'on' | 'busy'

export function NotificationsSection({ support = pushSupport() }: { support?: PushSupport }) {
  const api = useApi()
  const [state, setState] = useState<State>('checking')
  const [problem, setProblem] = useState<string | null>(
    support === 'supported' && Notification.permission === 'denied' ? NOTIFICATION_TEXTS.denied : null,
  )

  useEffect(() => {
    if (support !== 'supported') return
    let live = true
    currentSubscription()
      .then((subscription) => {
        if (live) setState(subscription && Notification.permission === 'granted' ? 'on' : 'off')
      })
      .catch(() => live && setState('off'))
    return () => {
      live = false
    }
  }, [support])

  async function toggle() {
    const turningOn = state === 'off'
    setState('busy')
    setProblem(null)
    try {
      if (turningOn) await enablePush(api)
      else await disablePush(api)
      setState(turningOn ? 'on' : 'off')
    } catch (err) {
      setState(turningOn ? 'off' : 'on')
      if (err instanceof PushDeniedError)
        setProblem(err.message === 'denied' ? NOTIFICATION_TEXTS.denied : NOTIFICATION_TEXTS.dismissed)
      else setProblem(NOTIFICATION_TEXTS.failed)
    }
  }

  return (
    <section className="card" aria-label="Notifications">
      <h2>Notifications</h2>
      {support === 'needs-home-screen' && <p>{NOTIFICATION_TEXTS.homeScreen}</p>}
      {support === 'unsupported' && <p className="muted">{NOTIFICATION_TEXTS.unsupported}</p>}
      {support === 'supported' && (
        <>
          <p className="field-hint">{NOTIFICATION_TEXTS.explanation}</p>
          <label className="switch-row">
            <input
              type="checkbox"
              role="switch"
              checked={state === 'on'}
              aria-checked={state === 'on'}
              disabled={state === 'checking' || state === 'busy'}
              onChange={() => void toggle()}
            />{' '}
            Push notifications on this device
          </label>
          {problem && <Alert kind="error">{problem}</Alert>}
        </>
      )}
    </section>
  )
}
