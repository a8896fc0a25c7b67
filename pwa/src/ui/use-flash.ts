import { SUCCESS_MESSAGE_MS } from '@buble/shared/constants'
import { useCallback, useEffect, useState } from 'react'

/** A success message that clears itself after 3 s (spec part 1 §9); showing it again restarts the clock. */
export function useFlash(ms: number = SUCCESS_MESSAGE_MS): [string | null, (message: string | null) => void] {
  const [flash, setFlash] = useState<{ text: string } | null>(null)
  useEffect(() => {
    if (flash === null) return
    const timer = setTimeout(() => setFlash(null), ms)
    return () => clearTimeout(timer)
  }, [flash, ms])
  const show = useCallback((text: string | null) => setFlash(text === null ? null : { text }), [])
  return [flash?.text ?? null, show]
}
