/**
 * The device's own database (IndexedDB through Dexie): the synced rows screens read, the outbox of
 * mutations not yet confirmed, the server's version of each row that has pending changes (shadows),
 * the mutations the server refused, and the sync state. One database per signed-in user.
 */

import type { Entity } from '@buble/shared/entities'
import type { MutationName } from '@buble/shared/mutations'
import Dexie, { type DexieOptions, type Table } from 'dexie'

/** A synced row as stored: the entity's REST shape plus its change id and buble. */
export interface LocalRow {
  id: string
  buble_id: string | null
  /** Set on rows changed here and not yet confirmed by a pull. */
  _pending?: true
  [field: string]: unknown
}

/** Who makes the mutations on this device: what optimistic rows say about their author. */
export interface Actor {
  id: string
  name: string
  email: string
  avatar_url: string | null
}

export interface OutboxEntry {
  /** Insertion order: mutations are pushed, and re-applied, in this order. */
  seq?: number
  /** The mutation's id (a UUID), its idempotency key on the server. */
  id: string
  name: MutationName
  args: unknown
  createdAt: string
  actor: Actor
  /** `table:id` of every row the optimistic change touched. */
  touches: string[]
  /**
   * `pending` until the server answers; `applied` once it has, kept (and still re-applied over
   * pulled rows) until a complete pull brings the server's own version of its effects.
   */
  status: 'pending' | 'applied'
  /** What the change came to when it was made (a toggle's on or off; optimistic.ts `settle`); device only. */
  settled?: unknown
}

/** The newest server version of a row that has pending changes (null: the server has no such row). */
export interface Shadow {
  key: string
  table: RowTable
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

/** Where each entity's rows live. */
export const ENTITY_TABLE = {
  buble: 'bubles',
  member: 'members',
  post: 'posts',
  comment: 'comments',
  event: 'events',
  poll: 'polls',
  chat_message: 'chat_messages',
  story: 'stories',
  unread: 'unread',
} as const satisfies Record<Entity, string>

export type RowTable = (typeof ENTITY_TABLE)[Entity]
export const ROW_TABLES = Object.values(ENTITY_TABLE) as RowTable[]

export const rowKey = (table: RowTable, id: string) => `${table}:${id}`

export type LocalDb = Dexie & { [T in RowTable]: Table<LocalRow, string> } & {
  outbox: Table<OutboxEntry, number>
  shadows: Table<Shadow, string>
  rejections: Table<Rejection, string>
  meta: Table<MetaRow, string>
}

/** The database of one user on this device. */
export const localDbName = (userId: string) => `buble-${userId}`

/** Opens (creating or upgrading) a device database; `options` lets tests pass fake-indexeddb. */
export function openLocalDb(name: string, options?: DexieOptions): LocalDb {
  const db = new Dexie(name, options) as LocalDb
  db.version(1).stores({
    bubles: 'id, slug, created_at',
    members: 'id, buble_id, user_id',
    posts: 'id, buble_id, created_at',
    comments: 'id, buble_id, post_id',
    events: 'id, buble_id, event_time',
    polls: 'id, buble_id, created_at',
    chat_messages: 'id, buble_id, created_at',
    stories: 'id, buble_id, expires_at',
    unread: 'id, buble_id',
    outbox: '++seq, &id',
    shadows: 'key',
    rejections: 'id, at',
    meta: 'key',
  })
  // A buble's wall, newest first, without walking every other buble's posts.
  db.version(2).stores({ posts: 'id, buble_id, created_at, [buble_id+created_at]' })
  // A buble's chat, newest page first, the same way.
  db.version(3).stores({ chat_messages: 'id, buble_id, created_at, [buble_id+created_at]' })
  return db
}

/** Reads one sync-state value. */
export async function readMeta<T>(db: LocalDb, key: string): Promise<T | undefined> {
  return (await db.meta.get(key))?.value as T | undefined
}

export const writeMeta = (db: LocalDb, key: string, value: unknown) => db.meta.put({ key, value })
