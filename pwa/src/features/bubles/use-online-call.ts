import { useState } from 'react'
import { messageOf } from '../../session/api-client.ts'

/** For a call about a buble made on this device that the server has not stored yet. */
export const BUBLE_NOT_SYNCED = 'This Buble has not reached the server yet. Try again once it is synced.'

export type Outcome<T> = { ok: true; value: T } | { ok: false }

/**
 * An online-only call made from a form: busy while it runs, and a failure turned into the text to
 * show (the server's message, else the fallback; no answer at all means offline).
 */
export function useOnlineCall(offlineText: string) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function run<T>(call: () => Promise<T>, fallback: string): Promise<Outcome<T>> {
    setError(null)
    if (!navigator.onLine) {
      setError(offlineText)
      return { ok: false }
    }
    setBusy(true)
    try {
      return { ok: true, value: await call() }
    } catch (err) {
      // fetch rejects with a TypeError when no answer came at all.
      setError(err instanceof TypeError ? offlineText : messageOf(err, fallback))
      return { ok: false }
    } finally {
      setBusy(false)
    }
  }

  return { busy, error, setError, run }
}
