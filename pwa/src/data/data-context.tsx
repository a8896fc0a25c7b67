/** Opens the signed-in user's device data for the screens below it, and closes it when they sign out. */

import Dexie from 'dexie'
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react'
import { useServices, useSession } from '../session/session-context.tsx'
import { FullPageSpinner } from '../ui/spinner.tsx'
import { type Device, openDevice, storeTokenForWorker } from './device.ts'

const DeviceContext = createContext<Device | null>(null)

/** How devices are opened: the real one in the app; tests provide one over fake-indexeddb. */
export const DeviceOpenerContext = createContext<typeof openDevice>(openDevice)

export function DataProvider({ children }: { children: ReactNode }) {
  const open = useContext(DeviceOpenerContext)
  const { api, session } = useServices()
  const userId = useSession((state) => state.user?.id ?? null)
  const token = useSession((state) => state.token)
  const tokenExpiry = useSession((state) => state.tokenExpiry)
  const [device, setDevice] = useState<Device | null>(null)

  useEffect(() => {
    if (!userId) return
    const opened = open({
      userId,
      api,
      actor: () => {
        const user = session.getState().user
        return user ? { id: user.id, name: user.name, email: user.email, avatar_url: user.avatar_url } : null
      },
    })
    setDevice(opened)
    return () => {
      opened.close()
      setDevice(null)
    }
  }, [userId, api, session, open])

  // The service worker flushes the outbox with this token when the app is closed. Signing out
  // closes the device first; a token left behind then is refused by the server once it expires or
  // is revoked, and an explicit sign-out deletes the database anyway.
  useEffect(() => {
    if (!device || !token || !tokenExpiry) return
    storeTokenForWorker(device.db, { token, tokenExpiry }).catch((err: unknown) => {
      if (!(err instanceof Dexie.DatabaseClosedError))
        console.warn('Could not store the token for background sync', err)
    })
  }, [device, token, tokenExpiry])

  if (!device) return <FullPageSpinner />
  return <DeviceContext value={device}>{children}</DeviceContext>
}

export function useDevice(): Device {
  const device = useContext(DeviceContext)
  if (!device) throw new Error('useDevice needs a <DataProvider>')
  return device
}
