/** Hands the session, the API client and the forced redirect to components. */

import { createContext, type ReactNode, useContext, useSyncExternalStore } from 'react'
import type { ApiClient } from './api-client.ts'
import type { LoginReason } from './redirect.ts'
import type { Session, SessionState } from './session.ts'

export interface SessionServices {
  session: Session
  api: ApiClient
  /** Full-page move to /login (spec part 1 §2, "/login (forced)"). */
  redirectToLogin: (reason?: LoginReason) => void
}

const SessionContext = createContext<SessionServices | null>(null)

export function SessionProvider({ services, children }: { services: SessionServices; children: ReactNode }) {
  return <SessionContext value={services}>{children}</SessionContext>
}

export function useServices(): SessionServices {
  const services = useContext(SessionContext)
  if (!services) throw new Error('useServices needs a <SessionProvider>')
  return services
}

export const useApi = (): ApiClient => useServices().api

/** A slice of the session state; re-renders when it changes. Return a primitive or a stored object. */
export function useSession<T>(select: (state: SessionState) => T): T {
  const { session } = useServices()
  return useSyncExternalStore(session.subscribe, () => select(session.getState()))
}
