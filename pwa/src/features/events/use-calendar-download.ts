import { useState } from 'react'
import { useApi } from '../../session/session-context.tsx'
import { ERROR_TEXTS } from '../../ui/error-texts.ts'

/** A file name from an event's title: characters file systems refuse become '-'. */
export function calendarFileName(title: string): string {
  const safe = title
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '-')
    .trim()
    .slice(0, 100)
  return `${safe || 'event'}.ics`
}

/**
 * 'Add to calendar': the server's .ics for an event, fetched with the session (it needs the Bearer
 * header, so no plain link) and saved under the event's name.
 */
export function useCalendarDownload() {
  const api = useApi()
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function download(event: { id: string; title: string }) {
    setError(null)
    setBusy(true)
    try {
      const blob = await api.blob(`/events/${event.id}/calendar.ics`)
      const url = URL.createObjectURL(blob)
      const link = document.createElement('a')
      link.href = url
      link.download = calendarFileName(event.title)
      document.body.append(link)
      link.click()
      link.remove()
      // After the click has handed the file over; revoking at once can cancel it in some browsers.
      setTimeout(() => URL.revokeObjectURL(url), 1000)
    } catch (err) {
      console.error(ERROR_TEXTS.performAction, err)
      setError(ERROR_TEXTS.performAction)
    } finally {
      setBusy(false)
    }
  }

  return { download, busy, error }
}
