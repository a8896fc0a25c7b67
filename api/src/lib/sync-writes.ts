/**
 * The one path for writes to synced tables. A sync write is a transaction that takes the version
 * lock before anything else, so versions become visible in the order they were taken and a pull
 * never skips a row that commits late; it ends by stamping each touched buble's `changed_version`
 * and sending pokes with NOTIFY, which PostgreSQL delivers on commit (and drops on rollback).
 *
 * A service runs its whole body, reads included, inside `syncWrite`. When the push handler already
 * holds a write open for a mutation, the service joins it (AsyncLocalStorage), so the mutation's
 * idempotency record and its effects commit together. On PGlite a query outside the open
 * transaction would wait for it forever: inside `syncWrite`, query through `w.tx` only.
 */

import { AsyncLocalStorage } from 'node:async_hooks'
import type { Entity } from '@buble/shared/entities'
import { type SQL, sql } from 'drizzle-orm'
import { type Db, executeNamed, type Tx } from '../db/client.ts'
import { syncTombstones } from '../db/schema.ts'
import { afterTransaction } from '../db/write-scope.ts'

/** The NOTIFY channel pokes travel on. */
export const SYNC_CHANNEL = 'buble_sync'
/** Serialises version assignment across every API process. */
const VERSION_LOCK = 4_201_201
// NOTIFY payloads must stay under 8000 bytes.
const MAX_NOTIFY_BYTES = 7000

/** Use in `.set({ version: NEXT_VERSION })` on every update of a synced row. */
export const NEXT_VERSION = sql<number>`nextval('sync_version')`

/** "Something changed here": devices of the buble's members (or of one user) pull at once. */
export interface Poke {
  buble_id: string
  entity: Entity
  /** Set when the change concerns one user's set of bubles (joined, left, removed). */
  user_id?: string
}

export class SyncWriter {
  private readonly touched = new Set<string>()
  private readonly pokes = new Map<string, Poke>()
  private readonly after: (() => void)[] = []

  private locked: boolean

  /** `locked`: the version lock is already held (taken at the start of the write). */
  constructor(
    readonly tx: Tx,
    locked = true,
  ) {
    this.locked = locked
  }

  /**
   * Takes the version lock if this write does not hold it yet (a `lateLock` write): call before
   * writing a synced row with `NEXT_VERSION` or a column default.
   */
  async lock(): Promise<void> {
    if (this.locked) return
    await lockVersions(this.tx)
    this.locked = true
  }

  /** A fresh version, for a row that must know its own version as it is written (takes the lock if needed, in the same round trip). */
  async takeVersion(): Promise<number> {
    const query = this.locked
      ? sql`select nextval('sync_version') as v`
      : sql`with l as materialized (select pg_advisory_xact_lock(${VERSION_LOCK})) select nextval('sync_version') as v from l`
    const result = await this.tx.execute<{ v: string }>(query)
    this.locked = true
    return Number((result as unknown as { rows: { v: string }[] }).rows[0]!.v)
  }

  /** Rows of `entity` in a buble were inserted or updated (with fresh versions). */
  changed(bubleId: string, entity: Entity): void {
    this.touched.add(bubleId)
    this.poke({ buble_id: bubleId, entity })
  }

  /** Rows of `entity` in a buble were deleted: their members' devices get a `del` for each. */
  async deleted(entity: Entity, bubleId: string, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return
    await this.lock()
    await this.tx.insert(syncTombstones).values(ids.map((id) => ({ entity, entityId: id, bubleId })))
    this.changed(bubleId, entity)
  }

  /** A user no longer belongs to a buble: their devices get a `del` of it and forget its content. */
  async forget(userId: string, bubleId: string): Promise<void> {
    await this.lock()
    await this.tx.insert(syncTombstones).values({ entity: 'buble', entityId: bubleId, bubleId, userId })
    this.poke({ buble_id: bubleId, entity: 'buble', user_id: userId })
  }

  /** Something of one user's alone changed (their read marks): only their devices pull. */
  userChanged(userId: string, bubleId: string, entity: Entity): void {
    this.poke({ buble_id: bubleId, entity, user_id: userId })
  }

  /** A user joined a buble: their streams learn of it and their devices pull it. */
  joined(userId: string, bubleId: string): void {
    this.poke({ buble_id: bubleId, entity: 'buble', user_id: userId })
  }

  /**
   * Work outside the database that must wait for the commit (removing files, fetching a preview):
   * it runs once the write has committed, and never if it rolls back (a refused mutation's savepoint included).
   */
  afterCommit(fn: () => void): void {
    this.after.push(fn)
  }

  /** Runs what waited for the commit; an error in one is not the write's. */
  committed(): void {
    for (const fn of this.after.splice(0)) {
      try {
        fn()
      } catch {
        // The callers log their own failures; a commit has happened whatever they do.
      }
    }
  }

  /** A writer for a savepoint: what it records counts only if `absorb` takes it back. */
  fork(tx: Tx): SyncWriter {
    return new SyncWriter(tx, this.locked)
  }

  /** What this write will have poked, once committed. */
  poked(): Poke[] {
    return [...this.pokes.values()]
  }

  absorb(child: SyncWriter): void {
    for (const id of child.touched) this.touched.add(id)
    for (const [key, poke] of child.pokes) this.pokes.set(key, poke)
    this.after.push(...child.after.splice(0))
  }

  private poke(poke: Poke): void {
    this.pokes.set(`${poke.buble_id}|${poke.entity}|${poke.user_id ?? ''}`, poke)
  }

  /** Stamps the touched bubles and queues the pokes; runs last, inside the transaction. */
  async flush(): Promise<void> {
    const pokes = [...this.pokes.values()]
    const notify = notifySql(pokes)
    if (this.touched.size === 0) {
      if (pokes.length > 0) await this.tx.execute(notify)
      return
    }
    // A fresh version, above every version this transaction wrote; the stamp and the pokes in one
    // round trip (a data-modifying WITH runs whether or not it is read).
    await this.lock()
    await this.tx.execute(
      sql`with stamped as (update bubles set changed_version = nextval('sync_version') where id = any(${pgUuidArray([...this.touched])}))
        ${notify}`,
    )
  }
}

/** A SELECT sending `pokes` with NOTIFY (delivered on commit), in as few payloads as fit. */
const notifySql = (pokes: readonly Poke[]): SQL =>
  sql`select pg_notify(${SYNC_CHANNEL}, p.payload)
    from jsonb_array_elements_text(${JSON.stringify(notifyPayloads(pokes))}::jsonb) as p(payload)`

/**
 * The version lock as an SQL expression, for a sync write that is one statement on its own (its own
 * implicit transaction, so the lock is held until it commits): the statement must take it before
 * any version (`with l as materialized (select <this>)`, read before anything else).
 */
export const VERSION_LOCK_SQL: SQL = sql`pg_advisory_xact_lock(${sql.raw(String(VERSION_LOCK))})`

/** A text literal PostgreSQL reads as uuid[] (drizzle would spread a JS array into a row). */
export const pgUuidArray = (ids: readonly string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`

/** Pokes as JSON arrays, each small enough for one NOTIFY. */
export function notifyPayloads(pokes: readonly Poke[]): string[] {
  const payloads: string[] = []
  let batch: string[] = []
  let size = 2
  for (const poke of pokes) {
    const json = JSON.stringify(poke)
    if (batch.length > 0 && size + json.length + 1 > MAX_NOTIFY_BYTES) {
      payloads.push(`[${batch.join(',')}]`)
      batch = []
      size = 2
    }
    batch.push(json)
    size += json.length + 1
  }
  if (batch.length > 0) payloads.push(`[${batch.join(',')}]`)
  return payloads
}

/** Tells every process that pokes may not cover what changed (tombstones purged, say): caches go, devices pull. */
export async function announceResync(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_notify(${SYNC_CHANNEL}, ${JSON.stringify([{ resync: true }])})`)
}

const ambient = new AsyncLocalStorage<SyncWriter>()

/** Takes the version lock in an open transaction: do this before any write to a synced table. */
export async function lockVersions(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${VERSION_LOCK})`)
}

/** Runs `fn` as a sync write in an already open transaction (a job's, say), and flushes it. */
export async function syncWriteIn<T>(tx: Tx, fn: (w: SyncWriter) => Promise<T>): Promise<T> {
  const current = ambient.getStore()
  if (current) return fn(current)
  await lockVersions(tx)
  const writer = new SyncWriter(tx)
  const result = await ambient.run(writer, () => fn(writer))
  await writer.flush()
  // The caller's transaction commits after this returns: what waits for it runs once it has.
  afterTransaction(() => writer.committed())
  return result
}

const committedListeners = new Set<(pokes: readonly Poke[]) => void>()

/**
 * Hears this process's own committed pokes at once, before their NOTIFY comes back (a device that
 * pushes and then pulls must see its own write). Answers how to stop.
 */
export function onCommitted(listener: (pokes: readonly Poke[]) => void): () => void {
  committedListeners.add(listener)
  return () => committedListeners.delete(listener)
}

/**
 * A sync write done as one statement outside any transaction (one round trip: no BEGIN, no
 * COMMIT), prepared once per connection as `name`. The statement does it all itself: takes
 * `VERSION_LOCK_SQL` first, writes its rows with fresh versions, stamps the bubles it touched with
 * the newest of them and sends `pokes` with `pg_notify` (payloads from `notifyPayloads`). Once it
 * has run (committed), this process's own listeners hear `pokes`, as after `syncWrite`.
 */
export async function syncStatement<R>(db: Db, name: string, statement: SQL, pokes: readonly Poke[]): Promise<R[]> {
  if (ambient.getStore()) throw new Error('syncStatement inside an open sync write: use syncWrite')
  const rows = await executeNamed<R>(db, name, statement)
  if (pokes.length > 0) for (const listener of committedListeners) listener(pokes)
  return rows
}

export interface SyncWriteOptions {
  /**
   * Take the version lock only when the write first needs a version (`w.takeVersion()`,
   * `w.lock()`, the flush), so the checks before it (membership, ids, references) run without
   * holding every other writer back. Only for a `fn` that writes synced rows with versions from
   * `w.takeVersion()` or after `await w.lock()`, never with `NEXT_VERSION` before either.
   */
  lateLock?: boolean
}

/** Runs `fn` as a sync write: in the write already open in this async context, else in a new transaction. */
export async function syncWrite<T>(
  db: Db,
  fn: (w: SyncWriter) => Promise<T>,
  options: SyncWriteOptions = {},
): Promise<T> {
  const current = ambient.getStore()
  if (current) return fn(current)
  let writer: SyncWriter | undefined
  const result = await db.transaction(async (tx) => {
    if (!options.lateLock) await lockVersions(tx)
    writer = new SyncWriter(tx, !options.lateLock)
    const w = writer
    const answer = await ambient.run(w, () => fn(w))
    await w.flush()
    return answer
  })
  const pokes = writer?.poked() ?? []
  if (pokes.length > 0) for (const listener of committedListeners) listener(pokes)
  writer?.committed()
  return result
}

/** Whether a sync write is open in this async context (a push's mutation): a service called there joins it. */
export const inSyncWrite = (): boolean => ambient.getStore() !== undefined

/** Where to read what a write just did: its open transaction while one is open here (a push), else the database. */
export const readerAfterWrite = (db: Db): Db | Tx => ambient.getStore()?.tx ?? db

/** Runs `fn` with `writer` as the open write of its async context (the push handler's savepoints). */
export const withWriter = <T>(writer: SyncWriter, fn: () => Promise<T>): Promise<T> => ambient.run(writer, fn)
