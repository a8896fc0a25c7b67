/** Unread counters as screens read them, and keeping an open tab read. */

import { CONTENT_TYPES, type ContentType } from '@buble/shared/unread'
import { useLiveQuery } from 'dexie-react-hooks'
import { useEffect } from 'react'
import { useDevice } from './data-context.tsx'

export type UnreadCounts = Record<ContentType, number>

const NONE: UnreadCounts = Object.fromEntries(CONTENT_TYPES.map((type) => [type, 0])) as UnreadCounts

/** A buble's counters by content type; 0 where the device has no row (nothing unread, or not synced yet). */
export function useUnread(bubleId: string): UnreadCounts {
  const { db } = useDevice()
  const rows = useLiveQuery(() => db.unread.where('buble_id').equals(bubleId).toArray(), [db, bubleId])
  if (!rows) return NONE
  const counts = { ...NONE }
  for (const row of rows) {
    const type = row.contentType as ContentType
    if (type in counts && typeof row.unreadCount === 'number') counts[type] = row.unreadCount
  }
  return counts
}

/** Which of a buble's tabs hold an unread mention of the reader (decision 94): their `@` mark. */
export function useMentioned(bubleId: string): Record<ContentType, boolean> {
  const { db } = useDevice()
  const rows = useLiveQuery(() => db.unread.where('buble_id').equals(bubleId).toArray(), [db, bubleId])
  const marks = Object.fromEntries(CONTENT_TYPES.map((type) => [type, false])) as Record<ContentType, boolean>
  for (const row of rows ?? []) {
    const type = row.contentType as ContentType
    if (type in marks && row.mentioned === true) marks[type] = true
  }
  return marks
}

/**
 * While a tab is open (`contentType` set), marks it read whenever its counter is above zero, so
 * content arriving meanwhile does not pile up. Works offline: the counter drops to 0 at once.
 */
export function useKeepRead(bubleId: string, contentType: ContentType | null): void {
  const device = useDevice()
  const { db } = device
  // One query for both, so a refused read's rollback (counter back, rejection stored) is seen at once.
  const unread = useLiveQuery(async () => {
    if (contentType === null) return 0
    const [row, refused] = await Promise.all([
      db.unread.get(`${bubleId}:${contentType}`),
      db.rejections
        .filter((rejection) => {
          if (rejection.name !== 'unread.read') return false
          const args = rejection.args as { buble_id?: string; contentType?: string }
          return args.buble_id === bubleId && args.contentType === contentType
        })
        .count(),
    ])
    // A refused read would only be refused again, round after round.
    if (refused > 0) return 0
    const count = typeof row?.unreadCount === 'number' ? row.unreadCount : 0
    // A mention an edit added counts nothing, but its `@` mark must clear too.
    return row?.mentioned === true ? `${count}@` : count
  }, [db, bubleId, contentType])

  useEffect(() => {
    if (contentType === null || !unread) return
    device.mutate('unread.read', { buble_id: bubleId, contentType }).catch((err: unknown) => {
      console.error('Could not mark the tab read', err)
    })
  }, [device, bubleId, contentType, unread])
}
