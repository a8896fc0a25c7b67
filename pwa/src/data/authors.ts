/** Who wrote a synced row, as the buble's member list names them now (rows carry their author as they were). */

import type { MemberRef } from '@buble/shared/bubles'
import type { DeviceDb } from './device-db.ts'

/** The current name and picture of each of `userIds` who is still a member of the buble. */
export async function currentMemberRefs(
  db: DeviceDb,
  bubleId: string,
  userIds: readonly (string | undefined)[],
): Promise<Map<string, MemberRef>> {
  const ids = [...new Set(userIds.filter((id): id is string => !!id))]
  const current = new Map<string, MemberRef>()
  if (ids.length === 0) return current
  const members = await db.members.bulkGet(ids.map((id) => `${bubleId}:${id}`))
  for (const member of members) {
    const user = member?.user as { name: string; avatar_url: string | null } | undefined
    if (member && user)
      current.set(member.user_id as string, {
        id: member.user_id as string,
        name: user.name,
        avatar_url: user.avatar_url,
      })
  }
  return current
}

/**
 * A row carries its maker (`author` of posts and comments, `creator` of events and polls, `sender` of
 * chat messages) as they
 * were when the row last changed; the member list follows profile changes. Rows by current members
 * show the member list's name and picture (an `author_name` beside the author too).
 */
export async function withCurrentMakers<K extends 'author' | 'creator' | 'sender', T extends Record<K, MemberRef>>(
  db: DeviceDb,
  bubleId: string,
  rows: T[],
  key: K,
): Promise<T[]> {
  const current = await currentMemberRefs(
    db,
    bubleId,
    rows.map((row) => row[key]?.id),
  )
  return rows.map((row) => {
    const maker = current.get(row[key]?.id)
    if (!maker) return row
    return key === 'author' ? { ...row, author: maker, author_name: maker.name } : { ...row, [key]: maker }
  })
}
