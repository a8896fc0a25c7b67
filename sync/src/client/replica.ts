/**
 * The device's copy of the server state with its own pending changes on top. Every row a pending
 * mutation touched has a shadow holding the server's newest version of it; `rebase` rebuilds such
 * rows from their shadows and re-applies the outbox in order. Pulled rows update shadows instead
 * of overwriting pending changes, and a refused mutation is undone by rebasing without it.
 * Each operation is one Dexie transaction: a crash leaves the replica before or after it, never between.
 */

import { BUBLE_MESSAGES } from '@buble/shared/bubles'
import type { DeviceAuthor, LocalRow, RowRef, RowStore } from '@buble/shared/device-rows'
import type { MutationName } from '@buble/shared/mutations'
import type { Change, MutationResult, PullResponse } from '../protocol.ts'
import { type LocalDb, type OutboxEntry, readMeta, rowKey, writeMeta } from './local-db.ts'

export const CURSOR_KEY = 'cursor'
/** The bubles dropped from the device whose cached files may still be there (kept until they are gone). */
export const FILES_TO_FORGET_KEY = 'filesToForget'

/**
 * The Cache Storage cache holding a buble's files on a device database's device (the service worker
 * fills it): named after the database, so each user of the device has their own.
 */
export const bubleFilesCache = (dbName: string, bubleId: string) => `${dbName}:files:${bubleId}`

/** A queued write that loses its purpose with its buble, rather than failing: nothing the user wrote is lost. */
export const MOOT_WITH_BUBLE: readonly MutationName[] = ['buble.leave', 'buble.delete', 'unread.read']

/** One of the app's row tables (the device schema's), as Dexie holds it. */
const rowTable = (db: LocalDb, table: string) => db.table<LocalRow, string>(table)

/** The app's row tables, each once (entities may share one). */
const rowTables = (db: LocalDb) => [...new Set(Object.values(db.device.tables))]

const storeOf = (db: LocalDb): RowStore => ({
  get: (table, id) => rowTable(db, table).get(id),
  put: async (table, row) => {
    await rowTable(db, table).put(row)
  },
  delete: (table, id) => rowTable(db, table).delete(id),
})

/** One mutation's optimistic change, with its names' types erased. */
const optimisticOf = (db: LocalDb, entry: Pick<OutboxEntry, 'name'>) =>
  db.device.optimistic[entry.name] as {
    touches(args: unknown, author: DeviceAuthor): RowRef[]
    settle?(store: RowStore, args: unknown, author: DeviceAuthor): Promise<unknown>
    apply(store: RowStore, args: unknown, author: DeviceAuthor, createdAt: string, settled?: unknown): Promise<void>
  }

/** Applies one outbox entry's optimistic change. */
function applyEntry(db: LocalDb, entry: OutboxEntry): Promise<void> {
  return optimisticOf(db, entry).apply(storeOf(db), entry.args, entry.actor, entry.createdAt, entry.settled)
}

/** Restores every shadowed row to its server version, forgets shadows nothing touches any more, and re-applies the outbox. */
async function rebase(db: LocalDb): Promise<void> {
  const entries = await db.outbox.orderBy('seq').toArray()
  const touched = new Set(entries.flatMap((entry) => entry.touches))
  const shadows = await db.shadows.toArray()
  // In bulk, a table at a time: each shadow is one row of one table, so the order between them does not matter.
  const restore = new Map<string, { puts: LocalRow[]; dels: string[] }>()
  for (const shadow of shadows) {
    const rows = restore.get(shadow.table) ?? { puts: [], dels: [] }
    if (shadow.value) rows.puts.push(shadow.value)
    else rows.dels.push(shadow.rowId)
    restore.set(shadow.table, rows)
  }
  for (const [table, { puts, dels }] of restore) {
    if (puts.length > 0) await rowTable(db, table).bulkPut(puts)
    if (dels.length > 0) await rowTable(db, table).bulkDelete(dels)
  }
  const forgotten = shadows.filter((shadow) => !touched.has(shadow.key)).map((shadow) => shadow.key)
  if (forgotten.length > 0) await db.shadows.bulkDelete(forgotten)
  for (const entry of entries) await applyEntry(db, entry)
}

/** Queues a mutation and applies its optimistic change, together or not at all. */
export function recordMutation(db: LocalDb, entry: Omit<OutboxEntry, 'seq' | 'touches' | 'status'>): Promise<void> {
  const optimistic = optimisticOf(db, entry)
  const refs = optimistic.touches(entry.args, entry.actor)
  return db.transaction('rw', db.tables, async () => {
    for (const { table, id } of refs) {
      const key = rowKey(table, id)
      // The first pending change to a row keeps the server's version of it.
      if (!(await db.shadows.get(key))) {
        await db.shadows.put({ key, table, rowId: id, value: (await rowTable(db, table).get(id)) ?? null })
      }
    }
    const settled = await optimistic.settle?.(storeOf(db), entry.args, entry.actor)
    const queued: OutboxEntry = {
      ...entry,
      touches: refs.map(({ table, id }) => rowKey(table, id)),
      status: 'pending',
      ...(settled === undefined ? {} : { settled }),
    }
    await db.outbox.add(queued)
    await applyEntry(db, queued)
  })
}

/**
 * Writes server changes in order, in bulk: rows collect per table (the last write of an id wins)
 * and are flushed with bulkPut/bulkDelete; a buble's `del` flushes first, so it also removes rows
 * of that buble written earlier in the same page. Rows with pending changes go to their shadows.
 * Answers the outbox entries about each buble dropped and not back by the end of the changes.
 */
async function applyChanges(db: LocalDb, changes: readonly Change[]): Promise<Map<string, OutboxEntry[]>> {
  const lost = new Map<string, OutboxEntry[]>()
  const shadows = new Map((await db.shadows.toArray()).map((shadow) => [shadow.key, shadow]))
  /** The shadows given a newer server version by these changes, to store. */
  const dirty = new Set<string>()
  const writes = new Map<string, Map<string, LocalRow | null>>()

  async function flush() {
    for (const [table, rows] of writes) {
      const puts: LocalRow[] = []
      const dels: string[] = []
      for (const [id, row] of rows) {
        if (row) puts.push(row)
        else dels.push(id)
      }
      if (puts.length > 0) await rowTable(db, table).bulkPut(puts)
      if (dels.length > 0) await rowTable(db, table).bulkDelete(dels)
    }
    writes.clear()
    if (dirty.size > 0) await db.shadows.bulkPut([...dirty].map((key) => shadows.get(key)!))
    dirty.clear()
  }

  function write(table: string, id: string, row: LocalRow | null) {
    const shadow = shadows.get(rowKey(table, id))
    if (shadow) {
      shadows.set(shadow.key, { ...shadow, value: row })
      dirty.add(shadow.key)
      return
    }
    const rows = writes.get(table) ?? new Map<string, LocalRow | null>()
    rows.set(id, row)
    writes.set(table, rows)
  }

  for (const change of changes) {
    const table = db.device.tables[change.entity]
    if (change.op === 'del' && change.entity === 'buble') {
      await flush()
      lost.set(change.id, await entriesOfBuble(db, change.id))
      await dropBuble(db, change.id)
      // dropBuble emptied the shadows of the buble in the database; keep the map in step.
      for (const shadow of await db.shadows.toArray()) shadows.set(shadow.key, shadow)
      continue
    }
    if (change.op === 'del') write(table, change.id, null)
    else
      write(table, change.id, { ...(change.data as Record<string, unknown>), id: change.id, buble_id: change.buble_id })
  }
  await flush()
  // Left and joined again within the same changes: the buble is back, and so is what was queued for it.
  for (const bubleId of lost.keys()) {
    const key = rowKey(db.device.tables.buble, bubleId)
    if ((await rowTable(db, db.device.tables.buble).get(bubleId)) || shadows.get(key)?.value) lost.delete(bubleId)
  }
  return lost
}

/**
 * The outbox entries about a buble: those naming it in their args, and those touching a row of it
 * (its server version in the row's shadow, or the device's own row for a row only the device has).
 */
async function entriesOfBuble(db: LocalDb, bubleId: string): Promise<OutboxEntry[]> {
  const found: OutboxEntry[] = []
  for (const entry of await db.outbox.orderBy('seq').toArray()) {
    if ((entry.args as { buble_id?: unknown }).buble_id === bubleId) {
      found.push(entry)
      continue
    }
    for (const key of entry.touches) {
      const shadow = await db.shadows.get(key)
      const row = shadow && (shadow.value ?? (await rowTable(db, shadow.table).get(shadow.rowId)))
      if (row?.buble_id === bubleId) {
        found.push(entry)
        break
      }
    }
  }
  return found
}

/**
 * Settles the outbox entries of bubles gone from the device. Applied ones are done (the server has
 * them; the drop supersedes their effects). A pending write is refused here, with what it carried,
 * as the server would refuse it (a non-member gets NOT_FOUND): the user sees at once that it was not
 * saved, and it is never pushed. A pending leave, delete or read of the buble is moot and goes.
 * Only for a pull: a pull runs in a sync round, after its push, so none of these is on its way to
 * the server (settled here and answered applied there, it would be shown not saved yet be saved).
 */
async function settleLost(db: LocalDb, lost: Map<string, OutboxEntry[]>, at: string): Promise<void> {
  for (const entries of lost.values()) {
    for (const entry of entries) {
      if (!entry.seq) continue
      await db.outbox.delete(entry.seq)
      if (entry.status === 'applied' || MOOT_WITH_BUBLE.includes(entry.name)) continue
      await db.rejections.put({
        id: entry.id,
        name: entry.name,
        args: entry.args,
        code: 'NOT_FOUND',
        message: BUBLE_MESSAGES.notFound,
        at,
      })
    }
  }
}

/** Notes that the files of these bubles are to go from the device (in the same transaction as their rows). */
async function noteFilesToForget(db: LocalDb, bubleIds: Iterable<string>): Promise<void> {
  const noted = new Set((await readMeta<string[]>(db, FILES_TO_FORGET_KEY)) ?? [])
  const before = noted.size
  for (const id of bubleIds) noted.add(id)
  if (noted.size > before) await writeMeta(db, FILES_TO_FORGET_KEY, [...noted])
}

/**
 * Deletes the cached files of the bubles dropped from the device (where there is a Cache Storage:
 * the page and the service worker), then forgets the note. A failure leaves the note for the next
 * time; it never fails the pull, whose rows are already stored.
 */
export async function forgetDroppedFiles(db: LocalDb): Promise<void> {
  try {
    const ids = (await readMeta<string[]>(db, FILES_TO_FORGET_KEY)) ?? []
    if (ids.length === 0) return
    const store = (globalThis as { caches?: { delete(name: string): Promise<boolean> } }).caches
    if (store) for (const id of ids) await store.delete(bubleFilesCache(db.name, id))
    await db.transaction('rw', db.meta, async () => {
      const left = ((await readMeta<string[]>(db, FILES_TO_FORGET_KEY)) ?? []).filter((id) => !ids.includes(id))
      if (left.length > 0) await writeMeta(db, FILES_TO_FORGET_KEY, left)
      else await db.meta.delete(FILES_TO_FORGET_KEY)
    })
  } catch (err) {
    console.warn('Could not remove the files of a buble gone from the device', err)
  }
}

/** A buble is gone from this device: every row of it goes, shadows included. */
async function dropBuble(db: LocalDb, bubleId: string) {
  const bubles = db.device.tables.buble
  await rowTable(db, bubles).delete(bubleId)
  for (const table of rowTables(db))
    if (table !== bubles) await rowTable(db, table).where('buble_id').equals(bubleId).delete()
  for (const shadow of await db.shadows.toArray()) {
    if (shadow.value?.buble_id === bubleId || (shadow.table === bubles && shadow.rowId === bubleId))
      await db.shadows.put({ ...shadow, value: null })
  }
}

/**
 * Applies one pulled page and stores its cursor. The last page of a pull also retires the
 * mutations the server had applied before it: their effects are in the rows it brought.
 */
export async function applyPulled(db: LocalDb, page: PullResponse, at = new Date().toISOString()): Promise<void> {
  await db.transaction('rw', db.tables, async () => {
    if (page.reset) {
      // Start over from the server's state; what is still pending is re-applied on top.
      for (const table of rowTables(db)) await rowTable(db, table).clear()
      await db.shadows.toCollection().modify({ value: null })
    }
    const lost = await applyChanges(db, page.changes)
    await settleLost(db, lost, at)
    await noteFilesToForget(db, lost.keys())
    if (!page.hasMore)
      await db.outbox
        .where('seq')
        .above(0)
        .and((entry) => entry.status === 'applied')
        .delete()
    await rebase(db)
    await writeMeta(db, CURSOR_KEY, page.cursor)
  })
  await forgetDroppedFiles(db)
}

/**
 * Stores rows the server sent outside a pull (a REST answer), as a pull would; the cursor stays.
 * Outside a sync round a push may be on its way: what was queued for a buble dropped here stays
 * queued, and the server's refusal settles it.
 */
export async function rememberServerChanges(db: LocalDb, changes: readonly Change[]): Promise<void> {
  await db.transaction('rw', db.tables, async () => {
    const lost = await applyChanges(db, changes)
    await noteFilesToForget(db, lost.keys())
    await rebase(db)
  })
  await forgetDroppedFiles(db)
}

/** Marks answered mutations applied, and undoes refused ones (kept as rejections with what they carried). */
export function settleResults(db: LocalDb, results: readonly MutationResult[], at: string): Promise<number> {
  return db.transaction('rw', db.tables, async () => {
    // Read at once, then written at once: a batch of 100 answers is a few requests, not 200.
    const entries = new Map<string, OutboxEntry>()
    for (const entry of await db.outbox
      .where('id')
      .anyOf(results.map((result) => result.id))
      .toArray())
      if (!entries.has(entry.id)) entries.set(entry.id, entry)
    const applied = new Set<number>()
    let refused = 0
    for (const result of results) {
      const entry = entries.get(result.id)
      if (!entry?.seq) continue
      if (result.status === 'rejected') {
        refused += 1
        entries.delete(result.id)
        applied.delete(entry.seq)
        await db.outbox.delete(entry.seq)
        await db.rejections.put({
          id: entry.id,
          name: entry.name,
          args: entry.args,
          code: result.code ?? 'REJECTED',
          message: result.message ?? '',
          at,
          // Kept as a moment, not a delay: the list is read long after the answer came.
          ...(result.retryAfter ? { retryAt: new Date(Date.parse(at) + result.retryAfter * 1000).toISOString() } : {}),
        })
      } else {
        applied.add(entry.seq)
      }
    }
    if (applied.size > 0)
      await db.outbox
        .where('seq')
        .anyOf([...applied])
        .modify({ status: 'applied' })
    if (refused > 0) await rebase(db)
    return refused
  })
}

/** Refuses a mutation on the device's side (the server would not even read it). */
export function rejectLocally(db: LocalDb, entry: OutboxEntry, code: string, message: string, at: string) {
  return settleResults(db, [{ id: entry.id, status: 'rejected', code, message }], at)
}

/**
 * Queues a refused mutation again as a new one (`entry`: its new id, time and actor; the args
 * and name are the refused one's) with its optimistic change, and forgets the refusal, together or
 * not at all. Answers false when the refusal is gone (retried or discarded meanwhile, in another tab).
 */
export function requeueRejection(
  db: LocalDb,
  rejectionId: string,
  entry: Omit<OutboxEntry, 'seq' | 'touches' | 'status'>,
): Promise<boolean> {
  return db.transaction('rw', db.tables, async () => {
    if (!(await db.rejections.get(rejectionId))) return false
    await recordMutation(db, entry)
    await db.rejections.delete(rejectionId)
    return true
  })
}

/** The mutations still to push, in order. */
export async function pendingEntries(db: LocalDb, limit: number): Promise<OutboxEntry[]> {
  return db.outbox
    .orderBy('seq')
    .filter((entry) => entry.status === 'pending')
    .limit(limit)
    .toArray()
}
