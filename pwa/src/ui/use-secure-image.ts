import { useEffect, useState } from 'react'
import { fileHeadersOf } from '../data/file-cache.ts'
import { useApi } from '../session/session-context.tsx'

/**
 * An object URL for a file under /api/uploads/secure/ (it needs the Bearer header, so no plain <img src>).
 * A buble's file names its buble, so the service worker keeps it for offline (avatars have none).
 */
export function useSecureImage(url: string | null, bubleId?: string): string | null {
  const api = useApi()
  const [objectUrl, setObjectUrl] = useState<string | null>(null)

  useEffect(() => {
    setObjectUrl(null)
    if (!url || typeof URL.createObjectURL !== 'function') return
    const controller = new AbortController()
    let created: string | null = null
    api
      .blob(url, controller.signal, fileHeadersOf(bubleId))
      .then((blob) => {
        created = URL.createObjectURL(blob)
        setObjectUrl(created)
      })
      .catch((err: unknown) => {
        // The initials stand in for a missing or unreadable image.
        if (!controller.signal.aborted) console.warn('Could not load image', err)
      })
    return () => {
      controller.abort()
      if (created) URL.revokeObjectURL(created)
    }
  }, [api, url, bubleId])

  return objectUrl
}
