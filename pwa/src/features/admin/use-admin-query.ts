import { sessionEnded, useOnlineQuery } from '../../data/online.ts'
import { messageOf } from '../../session/api-client.ts'

/**
 * An online-only admin read: the server's message, else `fallback`, when it fails (nothing when the
 * session ended: the client is already moving to /login). A lost answer or a 5xx gets one more try,
 * and the previous data stays on screen while it loads again.
 */
export function useAdminQuery<T>(key: string, load: (signal: AbortSignal) => Promise<T>, fallback: string) {
  return useOnlineQuery(key, load, {
    failure: (err) => {
      if (sessionEnded(err)) return null
      console.warn(fallback, err)
      return messageOf(err, fallback)
    },
    keepData: true,
    retryOnce: true,
  })
}
