/**
 * Muting on the device (issue 24 §2): whether the signed-in member is muted in a buble, read from
 * their own member row (it carries `muted_until`, so this holds offline), and the device's own
 * refusal of a write the server would refuse, kept in the "not saved" list with the server's text.
 */

import type { LocalRow } from '@buble/shared/device-rows'
import type { MutationName } from '@buble/shared/mutations'
import {
  isIndefiniteMute,
  isMutedAt,
  isMutedWrite,
  MUTED_WRITES,
  type MuteDuration,
  mutedMessage,
} from '@buble/shared/mutes'
import { useLiveQuery } from 'dexie-react-hooks'
import { useEffect, useMemo, useState } from 'react'
import { v7 as uuidv7 } from 'uuid'
import { useDevice } from './data-context.tsx'
import type { DeviceDb } from './device-db.ts'

/** A mute in force: when it ends (ISO; 9999-12-31 for "until unmuted") and the words for it. */
export interface MuteState {
  until: string
  message: string
}

const ownRow = (db: DeviceDb, bubleId: string, userId: string) =>
  db.members.get(`${bubleId}:${userId}`) as Promise<(LocalRow & { muted_until?: string }) | undefined>

function muteOf(until: string | undefined, now: number): MuteState | null {
  return until && isMutedAt(until, now) ? { until, message: mutedMessage(until, now) } : null
}

/** The signed-in member's mute in a buble, null when not muted; undefined while loading. Ends by itself on time. */
export function useOwnMute(bubleId: string): MuteState | null | undefined {
  const { db, userId } = useDevice()
  const until = useLiveQuery(
    async () => (await ownRow(db, bubleId, userId))?.muted_until ?? null,
    [db, bubleId, userId],
  )
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!until || isIndefiniteMute(until)) return
    const left = Date.parse(until) - Date.now()
    if (left <= 0) return
    // setTimeout holds at most 2^31-1 ms; a week is far below it.
    const timer = setTimeout(() => setNow(Date.now()), left + 50)
    return () => clearTimeout(timer)
  }, [until])
  if (until === undefined) return undefined
  return muteOf(until ?? undefined, Math.max(now, Date.now()))
}

/** The buble a write is about: an arg naming it, or the row an arg names. */
async function bubleOfWrite(db: DeviceDb, name: MutationName, args: Record<string, unknown>): Promise<string | null> {
  if (!isMutedWrite(name)) return null
  const where: { arg: string } | { table: string; id: string } = MUTED_WRITES[name]
  if ('arg' in where) return typeof args[where.arg] === 'string' ? (args[where.arg] as string) : null
  const id = args[where.id]
  if (typeof id !== 'string') return null
  const row = (await db.table(where.table).get(id)) as LocalRow | undefined
  return row?.buble_id ?? null
}

/**
 * The text of the server's refusal when this device already knows that the write would be refused
 * (its member is muted in the write's buble); null otherwise, and for anything a muted member may do.
 */
export async function mutedRefusal(
  db: DeviceDb,
  userId: string,
  name: MutationName,
  args: Record<string, unknown>,
  now: number = Date.now(),
): Promise<string | null> {
  const bubleId = await bubleOfWrite(db, name, args)
  if (!bubleId) return null
  return muteOf((await ownRow(db, bubleId, userId))?.muted_until, now)?.message ?? null
}

/**
 * Refuses the write on the device as the server would: nothing is shown as made, nothing is queued,
 * and the refusal waits in the "not saved" list with what it carried. Answers its id.
 */
export async function refuseHere(
  db: DeviceDb,
  name: MutationName,
  args: unknown,
  message: string,
  at = new Date().toISOString(),
): Promise<string> {
  const id = uuidv7()
  await db.rejections.put({ id, name, args, code: 'FORBIDDEN', message, at })
  return id
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
