/** "Mute notifications" for one buble (shown where Web Push exists): the server then pushes nothing of it to you. */

import type { PushPreferences } from '@buble/shared/push'
import { useEffect, useState } from 'react'
import { useOnline } from '../../data/sync-status.ts'
import { pushSupport } from '../../push/push-subscription.ts'
import { useApi } from '../../session/session-context.tsx'

export function MuteToggle({
  bubleId,
  supported = pushSupport() === 'supported',
}: {
  bubleId: string
  supported?: boolean
}) {
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
      // Offline or not on the server yet: no toggle until it can be read.
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
      // Left as it was; the button stays as the server last said.
    } finally {
      setBusy(false)
    }
  }

  return (
    <button
      type="button"
      className="btn btn-secondary"
      aria-pressed={muted}
      disabled={busy}
      onClick={() => void toggle()}
    >
      {muted ? 'Unmute notifications' : 'Mute notifications'}
    </button>
  )
}
