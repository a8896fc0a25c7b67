import { Buble } from '@buble/shared/bubles'
import { useEffect, useState } from 'react'
import { useDevice } from '../../data/data-context.tsx'
import { ApiError, messageOf } from '../../session/api-client.ts'
import { useApi } from '../../session/session-context.tsx'

const LOAD_FAILED = 'Failed to load Buble data'

export type RemoteBuble = { status: 'loading' } | { status: 'not-found' } | { status: 'failed'; message: string }

/**
 * Asks the server for a buble the device does not hold (a link from elsewhere, a buble just joined
 * on another device). Found, it is stored as if pulled, and the page's live query shows it.
 */
export function useRemoteBuble(slugOrId: string, enabled: boolean) {
  const api = useApi()
  const device = useDevice()
  const [load, setLoad] = useState<RemoteBuble>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is how Try again asks for another load.
  useEffect(() => {
    if (!enabled) return
    const controller = new AbortController()
    setLoad({ status: 'loading' })
    api
      .get(`/bubles/${encodeURIComponent(slugOrId)}`, controller.signal)
      .then(async (answer) => {
        const buble = Buble.parse(answer)
        await device.remember([{ entity: 'buble', op: 'put', id: buble.id, buble_id: buble.id, data: buble }])
        // Its members and content come with the next pull.
        void device.engine.sync()
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return
        // 404 also for a buble the user is not a member of (CONTRACT §2): either way, not theirs to see.
        if (err instanceof ApiError && err.status === 404) setLoad({ status: 'not-found' })
        else setLoad({ status: 'failed', message: messageOf(err, LOAD_FAILED) })
      })
    return () => controller.abort()
  }, [api, device, slugOrId, enabled, attempt])

  return { load, retry: () => setAttempt((n) => n + 1) }
}
