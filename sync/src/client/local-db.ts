/**
 * The device's own database (IndexedDB through Dexie): the synced rows screens read, the outbox of
 * mutations not yet confirmed, the server's version of each row that has pending changes (shadows),
 * the mutations the server refused, and the sync state. One database per signed-in user.
 */

import type { DeviceAuthor, LocalRow, OptimisticOf } from '@buble/shared/device-rows'
import type { Entity } from '@buble/shared/entities'
import type { MUTATION_ARGS, MutationName } from '@buble/shared/mutations'
import Dexie, { type DexieOptions, type Table } from 'dexie'

/**
 * What a device database holds besides the engine's own tables, given by the app when it opens one:
 * where each entity's rows live, the indexes of those tables per version, and what each mutation
 * does to them before the server answers.
 */
export interface DeviceSchema<T extends string = string> {
  tables: Record<Entity, T>
  /** One entry per version of the database; a later version lists only the tables it changes. */
  versions: Partial<Record<T, string>>[]
  optimistic: OptimisticOf<typeof MUTATION_ARGS>
}

export interface OutboxEntry {
  /** Insertion order: mutations are pushed, and re-applied, in this order. */
  seq?: number
  /** The mutation's id (a UUID), its idempotency key on the server. */
  id: string
  name: MutationName
  args: unknown
  createdAt: string
  actor: DeviceAuthor
  /** `table:id` of every row the optimistic change touched. */
  touches: string[]
  /**
   * `pending` until the server answers; `applied` once it has, kept (and still re-applied over
   * pulled rows) until a complete pull brings the server's own version of its effects.
   */
  status: 'pending' | 'applied'
  /** What the change came to when it was made (a toggle's on or off; the change's `settle`); device only. */
  settled?: unknown
}

/** The newest server version of a row that has pending changes (null: the server has no such row). */
export interface Shadow {
  key: string
  table: string
  rowId: string
  value: LocalRow | null
}

/**
 * A mutation the server refused (or that failed alone on the server, `INTERNAL`): rolled back here,
 * kept so the user can see and copy what was not saved, and retry or discard it.
 */
export interface Rejection {
  id: string
  name: MutationName
  args: unknown
  code: string
  message: string
  at: string
  /** When the same change may be tried again (ISO; a `RATE_LIMITED` refusal's `retryAfter` from `at`). */
  retryAt?: string
}

export interface MetaRow {
  key: string
  value: unknown
}

export const rowKey = (table: string, id: string) => `${table}:${id}`

/** A device database: the engine's tables, and the app's row tables (`T`) typed for its own reads. */
export type LocalDb<T extends string = never> = Dexie & { [K in T]: Table<LocalRow, string> } & {
  outbox: Table<OutboxEntry, number>
  shadows: Table<Shadow, string>
  rejections: Table<Rejection, string>
  meta: Table<MetaRow, string>
  /** The schema it was opened with. */
  readonly device: DeviceSchema
}

/** The database of one user on this device. */
export const localDbName = (userId: string) => `buble-${userId}`

/** The engine's own tables, there since the first version. */
const ENGINE_TABLES = { outbox: '++seq, &id', shadows: 'key', rejections: 'id, at', meta: 'key' }

/** Opens (creating or upgrading) a device database of `device`; `options` lets tests pass fake-indexeddb. */
export function openLocalDb<T extends string>(
  name: string,
  device: DeviceSchema<T>,
  options?: DexieOptions,
): LocalDb<T> {
  const db = new Dexie(name, options)
  device.versions.forEach((rowTables, i) => {
    const tables = rowTables as Record<string, string>
    db.version(i + 1).stores(i === 0 ? { ...tables, ...ENGINE_TABLES } : tables)
  })
  return Object.assign(db, { device: device as DeviceSchema }) as LocalDb<T>
}

/** Reads one sync-state value. */
export async function readMeta<T>(db: LocalDb, key: string): Promise<T | undefined> {
  return (await db.meta.get(key))?.value as T | undefined
}

export const writeMeta = (db: LocalDb, key: string, value: unknown) => db.meta.put({ key, value })
