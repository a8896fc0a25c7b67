/**
 * The service worker's half of the app badge (issue 21 §1): a push carries the counters of its own buble
 * only, so the worker adds what the device holds for every other buble, by the rule the open app badges with
 * (totalUnread over the bubles still on the device). The device database is found as the one that holds the
 * push's buble; none (signed out, or not synced yet) adds nothing.
 */

import { totalUnread } from '@buble/shared/unread'
import { localDbName } from '@buble/sync/client/local-db'
import { type DeviceDb, openDeviceDb } from './device-db.ts'

const PREFIX = localDbName('')

export interface DeviceDatabases {
  /** The origin's IndexedDB databases (`indexedDB.databases()`). */
  list(): Promise<readonly { name?: string }[]>
  open(name: string): DeviceDb
}

const browserDatabases: DeviceDatabases = {
  list: () => indexedDB.databases(),
  open: (name) => openDeviceDb(name),
}

/**
 * The device's unread counters added up, by the rule the app badges with: counters of a buble no longer
 * on the device (left, deleted) count for nothing; `except` leaves one buble out.
 */
export async function unreadOnDevice(db: DeviceDb, except?: string): Promise<number> {
  const [bubles, rows] = await Promise.all([db.bubles.toCollection().primaryKeys(), db.unread.toArray()])
  const here = new Set(bubles.map(String))
  if (except !== undefined) here.delete(except)
  return totalUnread(rows.filter((row) => here.has(String(row.buble_id))) as { unreadCount?: unknown }[])
}

/** Unread counters of every buble on the device but `bubleId`, added up; 0 when no device holds it. */
export async function unreadElsewhere(bubleId: string, databases: DeviceDatabases = browserDatabases): Promise<number> {
  const names = (await databases.list()).flatMap(({ name }) => (name?.startsWith(PREFIX) ? [name] : []))
  for (const name of names) {
    const db = databases.open(name)
    try {
      if (await db.bubles.get(bubleId)) return await unreadOnDevice(db, bubleId)
    } finally {
      db.close()
    }
  }
  return 0
}
