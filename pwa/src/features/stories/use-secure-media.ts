import { useEffect, useState } from 'react'
import { fileHeadersOf } from '../../data/file-cache.ts'
import { useApi } from '../../session/session-context.tsx'

export interface SecureMedia {
  /** An object URL once fetched. */
  src: string | null
  failed: boolean
}

/**
 * An uploaded image or video as an object URL: files under /api/uploads/secure/ need the Bearer
 * header, which an <img> or <video> cannot send. Unlike the avatar's hook, says when it failed.
 * It names its buble, so the service worker keeps it for offline.
 */
export function useSecureMedia(url: string | null, bubleId: string): SecureMedia {
  const api = useApi()
  const [media, setMedia] = useState<SecureMedia>({ src: null, failed: false })

  useEffect(() => {
    setMedia({ src: null, failed: false })
    if (!url || typeof URL.createObjectURL !== 'function') return
    const controller = new AbortController()
    let created: string | null = null
    api
      .blob(url, controller.signal, fileHeadersOf(bubleId))
      .then((blob) => {
        created = URL.createObjectURL(blob)
        setMedia({ src: created, failed: false })
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return
        console.warn('Could not load story', err)
        setMedia({ src: null, failed: true })
      })
    return () => {
      controller.abort()
      if (created) URL.revokeObjectURL(created)
    }
  }, [api, url, bubleId])

  return media
}
