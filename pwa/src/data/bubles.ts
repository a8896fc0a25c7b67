/** Bubles and members as screens read them: live queries over the device's database. */

import { type Buble, isUuid, type Member } from '@buble/shared/bubles'
import type { LocalRow } from '@buble/shared/device-rows'
import type { Change } from '@buble/sync/protocol'
import { useLiveQuery } from 'dexie-react-hooks'
import { useMemo } from 'react'
import { useDevice } from './data-context.tsx'
import { queueCreate } from './device.ts'

/** A buble on this device; `_pending` while a change to it has not reached the server. */
export type LocalBuble = Buble & LocalRow
export type LocalMember = Member & LocalRow

const ROLE_ORDER: Record<string, number> = { owner: 0, admin: 1, moderator: 2, member: 3 }

/** The user's bubles, newest first; undefined while loading. */
export function useBubles(): LocalBuble[] | undefined {
  const { db } = useDevice()
  return useLiveQuery(async () => (await db.bubles.orderBy('created_at').reverse().toArray()) as LocalBuble[], [db])
}

/** One buble by slug or id; undefined while loading, null when this device has no such buble. */
export function useBuble(slugOrId: string): LocalBuble | null | undefined {
  const { db } = useDevice()
  return useLiveQuery(async () => {
    const row = isUuid(slugOrId)
      ? await db.bubles.get(slugOrId.toLowerCase())
      : await db.bubles.where('slug').equals(slugOrId.toLowerCase()).first()
    return (row as LocalBuble | undefined) ?? null
  }, [db, slugOrId])
}

/** A buble's members, owner first, then by how long they have belonged; undefined while loading. */
export function useMembers(bubleId: string): LocalMember[] | undefined {
  const { db } = useDevice()
  return useLiveQuery(async () => {
    const rows = (await db.members.where('buble_id').equals(bubleId).toArray()) as LocalMember[]
    return rows.sort(
      (a, b) =>
        (ROLE_ORDER[a.role] ?? 9) - (ROLE_ORDER[b.role] ?? 9) ||
        a.joined_at.localeCompare(b.joined_at) ||
        a.user.name.localeCompare(b.user.name),
    )
  }, [db, bubleId])
}

/**
 * The bubles' writes that work offline: each shows on the device at once and waits in the outbox
 * for the server. Creating answers the new buble's id, chosen here so the row made offline keeps it.
 */
export function useBubleActions() {
  const device = useDevice()
  return useMemo(
    () => ({
      createBuble: (name: string) => queueCreate(device, 'buble.create', { name }),
      deleteBuble: (id: string) => device.mutate('buble.delete', { id }),
      leaveBuble: (bubleId: string) => device.mutate('buble.leave', { buble_id: bubleId }),
    }),
    [device],
  )
}

/** The path of a buble's page: by slug once the server gave one, by id until then. */
export const bublePath = (buble: Pick<Buble, 'id' | 'slug'>, tab?: string) =>
  `/bubles/${buble.slug || buble.id}${tab ? `/${tab}` : ''}`

/** A buble a REST call answered (joined, renamed, looked up), as a pull would carry it. */
export const bubleChange = (buble: Buble): Change => ({
  entity: 'buble',
  op: 'put',
  id: buble.id,
  buble_id: buble.id,
  data: buble,
})
