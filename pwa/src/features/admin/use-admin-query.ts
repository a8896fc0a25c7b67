import { useCallback, useEffect, useRef, useState } from 'react'
import { ApiError, messageOf } from '../../session/api-client.ts'
import { SessionError } from '../../session/session.ts'

export type Query<T> =
  | { status: 'loading'; data?: T }
  | { status: 'failed'; message: string; data?: T }
  | { status: 'ready'; data: T }

// A refusal (4xx) or an ended session would only fail again; a lost answer or a 5xx gets one more try (spec part 2 §9).
const worthRetrying = (err: unknown) => !(err instanceof SessionError) && !(err instanceof ApiError && err.status < 500)

/** True when the session ended on this failure: the client is already moving to /login, so nothing is shown. */
export const sessionEnded = (err: unknown) =>
  err instanceof SessionError || (err instanceof ApiError && err.status === 401)

/**
 * An online-only admin read: loading, failed (the server's message, else `fallback`) or ready.
 * Loads again whenever `key` changes or `reload` is called; the previous data stays on screen meanwhile.
 */
export function useAdminQuery<T>(key: string, load: (signal: AbortSignal) => Promise<T>, fallback: string) {
  const [query, setQuery] = useState<Query<T>>({ status: 'loading' })
  const [round, setRound] = useState(0)
  const loadRef = useRef(load)
  loadRef.current = load

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` and `round` are what trigger a new load.
  useEffect(() => {
    const controller = new AbortController()
    setQuery((current) => ({ status: 'loading', data: current.data }))
    const attempt = async (): Promise<T> => {
      try {
        return await loadRef.current(controller.signal)
      } catch (err) {
        if (controller.signal.aborted || !worthRetrying(err)) throw err
        return loadRef.current(controller.signal)
      }
    }
    attempt().then(
      (data) => {
        if (!controller.signal.aborted) setQuery({ status: 'ready', data })
      },
      (err: unknown) => {
        if (controller.signal.aborted || sessionEnded(err)) return
        console.warn(fallback, err)
        setQuery((current) => ({ status: 'failed', message: messageOf(err, fallback), data: current.data }))
      },
    )
    return () => controller.abort()
  }, [key, round, fallback])

  const reload = useCallback(() => setRound((n) => n + 1), [])
  return { query, reload }
}
