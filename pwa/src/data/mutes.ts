/**
 * Muting on the device (issue 24 §2): whether the signed-in member is muted in a buble, read from
 * their own member row (it carries `muted_until`, so this holds offline), and a moderator's mute
 * and unmute, queued like every write. The device's own refusal of a muted write: muted-writes.ts.
 */

import type { LocalRow } from '@buble/shared/device-rows'
import { isIndefiniteMute, isMutedAt, type MuteDuration } from '@buble/shared/mutes'
import { useLiveQuery } from 'dexie-react-hooks'
import { useEffect, useMemo, useState } from 'react'
import { useDevice } from './data-context.tsx'

/**
 * When the signed-in member's mute in a buble ends (ISO; 9999-12-31 for "until unmuted"), null when
 * not muted; undefined while loading. It turns null by itself when the end comes.
 */
export function useOwnMute(bubleId: string): string | null | undefined {
  const { db, userId } = useDevice()
  const until = useLiveQuery(
    async () =>
      ((await db.members.get(`${bubleId}:${userId}`)) as (LocalRow & { muted_until?: string }) | undefined)
        ?.muted_until ?? null,
    [db, bubleId, userId],
  )
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!until || isIndefiniteMute(until)) return
    const left = Date.parse(until) - Date.now()
    if (left <= 0) return
    // A week at most: far below setTimeout's longest delay.
    const timer = setTimeout(() => setNow(Date.now()), left + 50)
    return () => clearTimeout(timer)
  }, [until])
  if (until === undefined) return undefined
  return until && isMutedAt(until, Math.max(now, Date.now())) ? until : null
}

/** A moderator's mute and unmute: shown on the member's row at once, queued for the server (they work offline). */
export function useMuteActions() {
  const device = useDevice()
  return useMemo(
    () => ({
      mute: (bubleId: string, userId: string, duration: MuteDuration) =>
        device.mutate('member.mute', { buble_id: bubleId, user_id: userId, duration }),
      unmute: (bubleId: string, userId: string) =>
        device.mutate('member.unmute', { buble_id: bubleId, user_id: userId }),
    }),
    [device],
  )
}
