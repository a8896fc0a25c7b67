import { Profile } from '@buble/shared/auth'
import { useOnlineQuery } from '../../data/online.ts'
import { useServices } from '../../session/session-context.tsx'

/** Loads GET /api/users/profile and keeps the session's copy of the user in step with it. */
export function useProfile() {
  const { api, session } = useServices()
  return useOnlineQuery(
    'profile',
    async (signal) => {
      const profile = Profile.parse(await api.get('/users/profile', signal))
      const { deletion: _deletion, ...user } = profile
      session.updateUser(user)
      return profile
    },
    { failure: 'Failed to load profile' },
  )
}
