import { Buble } from '@buble/shared/bubles'
import { bubleChange } from '../../data/bubles.ts'
import { useOnlineQuery, useRecord } from '../../data/online.ts'
import { ApiError } from '../../session/api-client.ts'
import { useApi } from '../../session/session-context.tsx'

const LOAD_FAILED = 'Failed to load Buble data'

/**
 * Asks the server for a buble the device does not hold (a link from elsewhere, a buble just joined
 * on another device). Found, it is stored as if pulled, and the page's live query shows it; its
 * members and content come with the pull that follows. Ready with null: no such buble.
 */
export function useRemoteBuble(slugOrId: string, enabled: boolean) {
  const api = useApi()
  const record = useRecord()
  return useOnlineQuery(
    enabled ? slugOrId : null,
    async (signal) => {
      try {
        const buble = Buble.parse(await api.get(`/bubles/${encodeURIComponent(slugOrId)}`, signal))
        await record([bubleChange(buble)])
        return buble
      } catch (err) {
        // 404 also for a buble the user is not a member of (CONTRACT §2): either way, not theirs to see.
        if (err instanceof ApiError && err.status === 404) return null
        throw err
      }
    },
    { failure: LOAD_FAILED },
  )
}
