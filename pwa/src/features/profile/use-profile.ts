import { Profile } from '@buble/shared/auth'
import { useCallback, useEffect, useState } from 'react'
import { messageOf } from '../../session/api-client.ts'
import { useServices } from '../../session/session-context.tsx'

export type ProfileLoad =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; profile: Profile }

/** Loads GET /api/users/profile and keeps the session's copy of the user in step with it. */
export function useProfile() {
  const { api, session } = useServices()
  const [load, setLoad] = useState<ProfileLoad>({ status: 'loading' })

  const reload = useCallback(async () => {
    setLoad({ status: 'loading' })
    try {
      const profile = Profile.parse(await api.get('/users/profile'))
      const { deletion: _deletion, ...user } = profile
      session.updateUser(user)
      setLoad({ status: 'ready', profile })
    } catch (err) {
      setLoad({ status: 'failed', message: messageOf(err, 'Failed to load profile') })
    }
  }, [api, session])

  useEffect(() => {
    void reload()
  }, [reload])

  const update = useCallback((patch: Partial<Profile>) => {
    setLoad((current) =>
      current.status === 'ready' ? { status: 'ready', profile: { ...current.profile, ...patch } } : current,
    )
  }, [])

  return { load, reload, update }
}
