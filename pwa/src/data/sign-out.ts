/**
 * Signing out on purpose removes the user's data from this device (a shared computer keeps
 * nothing of them, not even its push subscription). Writes not yet on the server would be lost with it, so the user is asked
 * first. A forced sign-out (an expired session) keeps everything for the next sign-in.
 */

import { useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { forgetDevicePush } from '../push/push-subscription.ts'
import { useServices } from '../session/session-context.tsx'
import { useDevice } from './data-context.tsx'
import { forgetUserFiles } from './file-cache.ts'

export function useSignOut() {
  const device = useDevice()
  const { session, api } = useServices()
  const navigate = useNavigate()
  /** Set while the user is asked about unsaved writes: how many there are. */
  const [unsynced, setUnsynced] = useState<number | null>(null)

  async function signOut({ discardUnsynced = false } = {}) {
    const count = await device.db.outbox.filter((entry) => entry.status === 'pending').count()
    if (count > 0 && !discardUnsynced) {
      setUnsynced(count)
      return
    }
    // This browser's push subscription goes too, while the token still lets the server be told.
    await forgetDevicePush(api).catch(() => {})
    // The files the service worker kept of the user's bubles go now; the database is deleted as it
    // closes, once the signed-in screens have gone.
    if ('caches' in window) await forgetUserFiles(caches, device.userId).catch(() => {})
    device.forgetOnClose()
    const { token } = session.getState()
    session.logout()
    navigate('/login', { replace: true })
    // Then the session ends on the server, so its token is dead even if a copy was kept; only now, so
    // that no call of the screens still open goes out with a token the server has ended. Offline it
    // stays in the account's list until it expires (decision 103); the user is not kept waiting.
    if (token) void api.endServerSession(token)
  }

  return { signOut, unsynced, keepSignedIn: () => setUnsynced(null) }
}
