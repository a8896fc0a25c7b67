/**
 * The device's own refusal of a muted member's write (issue 24 §2): when this device already knows
 * its member is muted in the write's buble, the write would come back refused, so it is refused
 * here, as the server would, into the "not saved" list with the server's words. Loaded by
 * data/device.ts only once the user is muted somewhere on this device (it brings the time helpers).
 */

import { BUBLE_DEVICE } from '@buble/shared/device'
import type { LocalRow, RowRef } from '@buble/shared/device-rows'
import type { MutationName } from '@buble/shared/mutations'
import { mutedMessage } from '@buble/shared/mute-texts'
import { isMutedWrite } from '@buble/shared/muted-writes'
import { isMutedAt } from '@buble/shared/mutes'
import { v7 as uuidv7 } from 'uuid'
import type { DeviceDb } from './device-db.ts'

/** The buble a write is about: the one its args name, or that of a row it touches (the post reacted to). */
async function bubleOfWrite(db: DeviceDb, userId: string, name: MutationName, args: Record<string, unknown>) {
  if (!isMutedWrite(name)) return null
  if (typeof args.buble_id === 'string') return args.buble_id
  const author = { id: userId, name: '', email: '', avatar_url: null }
  const optimistic = BUBLE_DEVICE.optimistic[name] as { touches(args: unknown, author: unknown): RowRef[] }
  for (const { table, id } of optimistic.touches(args, author)) {
    const row = (await db.table(table).get(id)) as LocalRow | undefined
    if (row?.buble_id) return row.buble_id
  }
  return null
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
  const bubleId = await bubleOfWrite(db, userId, name, args)
  if (!bubleId) return null
  const own = (await db.members.get(`${bubleId}:${userId}`)) as { muted_until?: string } | undefined
  if (!own?.muted_until || !isMutedAt(own.muted_until, now)) return null
  return mutedMessage(own.muted_until, now)
}

/**
 * Refuses the write on the device: nothing is shown as made, nothing is queued, and the refusal
 * waits in the "not saved" list with what it carried. Answers its id.
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
