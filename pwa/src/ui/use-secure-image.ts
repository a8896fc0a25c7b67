import { useEffect, useState } from 'react'
import { useApi } from '../session/session-context.tsx'

/** An object URL for a file under /api/uploads/secure/ (it needs the Bearer header, so no plain <img src>). */
export function useSecureImage(url: string | null): string | null {
  const api = useApi()
  const [objectUrl, setObjectUrl] = useState<string | null>(null)

  useEffect(() => {
    setObjectUrl(null)
    if (!url || typeof URL.createObjectURL !== 'function') return
    const controller = new AbortController()
    let created: string | null = null
    api
      .blob(url, controller.signal)
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
  }, [api, url])

  return objectUrl
}
