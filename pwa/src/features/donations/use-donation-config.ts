import { DonationConfig } from '@buble/shared/donations'
import { useOnlineQuery } from '../../data/online.ts'
import { useOnline } from '../../data/sync-status.ts'
import { useApi } from '../../session/session-context.tsx'
import { DONATE_TEXTS } from './donate-texts.ts'

/** What the donate page offers, straight from the API (online only); asked again when the device comes back online. */
export function useDonationConfig() {
  const api = useApi()
  const online = useOnline()
  // Asked again at each change of the connection, offline too: that load fails with the one text.
  return useOnlineQuery(
    online ? 'online' : 'offline',
    async (signal) => DonationConfig.parse(await api.get('/donations/config', signal)),
    // Spec part 2 §8: one text for every failure (offline, server down, an answer we cannot read).
    { failure: () => DONATE_TEXTS.loadFailed },
  )
}
