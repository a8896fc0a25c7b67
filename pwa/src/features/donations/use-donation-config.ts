import { DonationConfig } from '@buble/shared/donations'
import { useCallback, useEffect, useState } from 'react'
import { useOnline } from '../../data/sync-status.ts'
import { useApi } from '../../session/session-context.tsx'
import { DONATE_TEXTS } from './donate-texts.ts'

export type DonationConfigLoad =
  | { status: 'loading' }
  | { status: 'ready'; config: DonationConfig }
  | { status: 'failed'; message: string }

/** What the donate page offers, straight from the API (online only); asked again when the device comes back online. */
export function useDonationConfig(): { load: DonationConfigLoad; retry: () => void } {
  const api = useApi()
  const online = useOnline()
  const [load, setLoad] = useState<DonationConfigLoad>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is how Retry asks again.
  useEffect(() => {
    const controller = new AbortController()
    setLoad({ status: 'loading' })
    api
      .get('/donations/config', controller.signal)
      .then((answer) => setLoad({ status: 'ready', config: DonationConfig.parse(answer) }))
      .catch(() => {
        // Spec part 2 §8: one text for every failure (offline, server down, an answer we cannot read).
        if (!controller.signal.aborted) setLoad({ status: 'failed', message: DONATE_TEXTS.loadFailed })
      })
    return () => controller.abort()
  }, [api, online, attempt])

  const retry = useCallback(() => setAttempt((n) => n + 1), [])
  return { load, retry }
}
