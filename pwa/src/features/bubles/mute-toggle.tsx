/** "Mute notifications" for one buble (offered where Web Push exists): the server then pushes nothing of it to you. */

import type { PushPreferences } from '@buble/shared/push'
import { useEffect, useState } from 'react'
import { useOnline } from '../../data/sync-status.ts'
import { pushSupport } from '../../push/push-subscription.ts'
import { useApi } from '../../session/session-context.tsx'

export const MUTE_LABEL = 'Mute notifications'
export const UNMUTE_LABEL = 'Unmute notifications'

export interface Mute {
  muted: boolean
  busy: boolean
  /** The action's words: what choosing it does. */
  label: string
  toggle: () => Promise<void>
}

/**
 * Whether this buble is muted, as the server last said, and the way to flip it; null where there is
 * nothing to offer (no Web Push in the browser, offline, or not read yet).
 */
export function useMute(bubleId: string, supported = pushSupport() === 'supported'): Mute | null {
  const api = useApi()
  const [muted, setMuted] = useState<boolean | null>(null)
  const [busy, setBusy] = useState(false)
  const online = useOnline()

  useEffect(() => {
    // Offline, the call could only fail (and the browser logs it): read once the network is back.
    if (!supported || !online) return
    let live = true
    api
      .get<PushPreferences>('/push/preferences')
      .then((prefs) => live && setMuted(prefs.muted.includes(bubleId)))
      // Offline or not on the server yet: nothing to offer until it can be read.
      .catch(() => {})
    return () => {
      live = false
    }
  }, [api, bubleId, supported, online])

  if (!supported || muted === null) return null

  async function toggle() {
    setBusy(true)
    try {
      const answer = await api.put<{ muted: boolean }>(`/push/mutes/${bubleId}`, { muted: !muted })
      setMuted(answer.muted)
    } catch {
      // Left as it was; the item stays as the server last said.
    } finally {
      setBusy(false)
    }
  }

  return { muted, busy, label: muted ? UNMUTE_LABEL : MUTE_LABEL, toggle }
}
