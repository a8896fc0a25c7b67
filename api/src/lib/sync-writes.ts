/**
 * The one path for writes to synced tables. A sync write is a transaction whose rows take their
 * versions from its own transaction id (`buble_next_version()`, decision 91): no lock, so writes in
 * different bubles never wait for one another, and a pull reads only versions that have settled
 * (`SETTLED_VERSION`), so it never skips a row that commits late. It ends by stamping each touched
 * buble's `changed_version` (the buble's row lock: writes in one buble commit one after another) and
 * sending pokes with NOTIFY, which PostgreSQL delivers on commit (and drops on rollback).
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
// NOTIFY payloads must stay under 8000 bytes.
const MAX_NOTIFY_BYTES = 7000

/** Versions a transaction may take: its id times this, plus its count (migration 0011, decision 91). */
const VERSIONS_PER_TRANSACTION = 65536
/** Counted by `buble_next_version()` in SQL: 1 to this. */
const SQL_VERSIONS = 64511
/** Counted by the app (`takeVersion`) above them, leaving the block's last for the buble stamp. */
const APP_VERSIONS = VERSIONS_PER_TRANSACTION - SQL_VERSIONS - 2
/** A buble's stamp: the top of the writing transaction's block, at or above every version it took. */
const STAMP_VERSION = sql`(pg_current_xact_id()::text::bigint * ${sql.raw(String(VERSIONS_PER_TRANSACTION))} + ${sql.raw(String(VERSIONS_PER_TRANSACTION - 1))})`

/** Use in `.set({ version: NEXT_VERSION })` on every update of a synced row (inserts take it by default). */
export const NEXT_VERSION = sql<number>`buble_next_version()`

/**
 * The newest version that has settled, as the statement's snapshot sees it: every version at or
 * below it belongs to a transaction that has committed (and is visible) or never will; above it, a
 * transaction still in flight may yet commit one, so a pull stops here (decision 91). It is the
 * oldest transaction in flight (the snapshot's xmin) times 65536, leaving out transactions of other
 * databases on the same server, which never write ours (when the server lets us see whose they are).
 */
export const SETTLED_VERSION = sql<number>`(select coalesce(min(x::text::bigint),
    pg_snapshot_xmax(pg_current_snapshot())::text::bigint) * 65536
  from pg_snapshot_xip(pg_current_snapshot()) as x
  where not exists (select 1 from pg_stat_activity a
    where a.backend_xid::text::bigint = x::text::bigint % 4294967296
      and a.datname is distinct from current_database()))`

/** Above every version issued so far, as the statement's snapshot sees it (a cursor beyond it is not ours). */
export const ISSUED_VERSION_BOUND = sql<number>`((pg_snapshot_xmax(pg_current_snapshot())::text::bigint + 1) * 65536)`

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
  /** Bubles whose row this write has locked (`enter`): writes in one buble run one at a time. */
  private readonly entered = new Set<string>()

  /** This transaction's id and the versions the app counted in its block (shared with its savepoints' writers). */
  private readonly block: { xid: number | null; taken: number }

  constructor(
    readonly tx: Tx,
    block?: { xid: number | null; taken: number },
  ) {
    this.block = block ?? { xid: null, taken: 0 }
  }

  /** Whether this write already holds the buble (see `lib/memberships.ts`). */
  holds(bubleId: string): boolean {
    return this.entered.has(bubleId)
  }

  /**
   * Locks the buble's row for the rest of this write, unless it already holds it: from here on, no
   * other write in that buble runs (a membership check does the same, `lib/memberships.ts`).
   */
  async enter(bubleId: string): Promise<void> {
    if (this.entered.has(bubleId)) return
    await this.tx.execute(sql`select 1 from bubles where id = ${bubleId} for no key update`)
    this.entered.add(bubleId)
  }

  /**
   * A fresh version, for a row that must know its own version as it is written. The first asks the
   * database for the transaction's id; the next are counted here (64512 and up in the id's block,
   * above what `buble_next_version()` counts in SQL), with no round trip.
   */
  async takeVersion(): Promise<number> {
    const block = this.block
    if (block.xid === null) {
      const result = await this.tx.execute<{ x: string }>(sql`select pg_current_xact_id()::text as x`)
      block.xid = Number((result as unknown as { rows: { x: string }[] }).rows[0]!.x)
    }
    if (block.taken >= APP_VERSIONS)
      throw new Error(`one transaction took more than ${APP_VERSIONS} versions in the app`)
    block.taken += 1
    return block.xid * VERSIONS_PER_TRANSACTION + SQL_VERSIONS + block.taken
  }

  /** Rows of `entity` in a buble were inserted or updated (with fresh versions). */
  changed(bubleId: string, entity: Entity): void {
    this.touched.add(bubleId)
    this.poke({ buble_id: bubleId, entity })
  }

  /** Rows of `entity` in a buble were deleted: their members' devices get a `del` for each. */
  async deleted(entity: Entity, bubleId: string, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return
    await this.tx.insert(syncTombstones).values(ids.map((id) => ({ entity, entityId: id, bubleId })))
    this.changed(bubleId, entity)
  }

  /** A user no longer belongs to a buble: their devices get a `del` of it and forget its content. */
  async forget(userId: string, bubleId: string): Promise<void> {
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
    // Versions counted in a savepoint rolled back are not given back: numbers are skipped, never reused.
    const child = new SyncWriter(tx, this.block)
    // What the write held before the savepoint it still holds inside it.
    for (const id of this.entered) child.entered.add(id)
    return child
  }

  /** What this write will have poked, once committed. */
  poked(): Poke[] {
    return [...this.pokes.values()]
  }

  absorb(child: SyncWriter): void {
    for (const id of child.touched) this.touched.add(id)
    for (const [key, poke] of child.pokes) this.pokes.set(key, poke)
    for (const id of child.entered) this.entered.add(id)
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
    // The top of this transaction's block, above every version it wrote (never below the stamp already
    // there, which a transaction begun later may have left: a stamp only rises); the stamp and the pokes in one
    // round trip (a data-modifying WITH runs whether or not it is read). The bubles' rows are locked
    // in one order, so two writes stamping the same bubles cannot deadlock on them.
    await this.tx.execute(
      sql`with locked as (select id from bubles where id = any(${pgUuidArray([...this.touched])}) order by id for no key update),
        stamped as (update bubles b set changed_version = greatest(b.changed_version, ${STAMP_VERSION}) from locked where b.id = locked.id)
        ${notify}`,
    )
  }
}

/** A SELECT sending `pokes` with NOTIFY (delivered on commit), in as few payloads as fit. */
const notifySql = (pokes: readonly Poke[]): SQL =>
  sql`select pg_notify(${SYNC_CHANNEL}, p.payload)
    from jsonb_array_elements_text(${JSON.stringify(notifyPayloads(pokes))}::jsonb) as p(payload)`

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

/** Sends `pokes` to every process now, outside any write (a held-back pull's devices, told to pull again). */
export async function notifyPokes(db: Db, pokes: readonly Poke[]): Promise<void> {
  await db.execute(notifySql(pokes))
}

/** Tells every process that pokes may not cover what changed (tombstones purged, say): caches go, devices pull. */
export async function announceResync(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_notify(${SYNC_CHANNEL}, ${JSON.stringify([{ resync: true }])})`)
}

const ambient = new AsyncLocalStorage<SyncWriter>()

/** Runs `fn` as a sync write in an already open transaction (a job's, say), and flushes it. */
export async function syncWriteIn<T>(tx: Tx, fn: (w: SyncWriter) => Promise<T>): Promise<T> {
  const current = ambient.getStore()
  if (current) return fn(current)
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
 * COMMIT), prepared once per connection as `name`. The statement does it all itself: writes its
 * rows with fresh versions (`buble_next_version()`), stamps the bubles it touched with
 * the newest of them and sends `pokes` with `pg_notify` (payloads from `notifyPayloads`). Once it
 * has run (committed), this process's own listeners hear `pokes`, as after `syncWrite`.
 */
export async function syncStatement<R>(db: Db, name: string, statement: SQL, pokes: readonly Poke[]): Promise<R[]> {
  if (ambient.getStore()) throw new Error('syncStatement inside an open sync write: use syncWrite')
  const rows = await executeNamed<R>(db, name, statement)
  if (pokes.length > 0) for (const listener of committedListeners) listener(pokes)
  return rows
}

/** Times a sync write is tried when PostgreSQL picks it as a deadlock's or a serialization failure's victim. */
const WRITE_ATTEMPTS = 4

/** A deadlock or a serialization failure: PostgreSQL rolled the transaction back, and trying it again succeeds. */
export function isRetryableWrite(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code
    if (code === '40P01' || code === '40001') return true
  }
  return false
}

/**
 * Runs `fn` as a sync write: in the write already open in this async context, else in a new
 * transaction. Without a global lock, two writes may lock rows in opposite orders (a buble and a
 * member row, say): PostgreSQL then rolls one back, and it is run again from the start (`fn` keeps
 * its effects inside the transaction or in `afterCommit`, so running it again is safe).
 */
export async function syncWrite<T>(db: Db, fn: (w: SyncWriter) => Promise<T>): Promise<T> {
  const current = ambient.getStore()
  if (current) return fn(current)
  for (let attempt = 1; ; attempt++) {
    let writer: SyncWriter | undefined
    try {
      const result = await db.transaction(async (tx) => {
        writer = new SyncWriter(tx)
        const w = writer
        const answer = await ambient.run(w, () => fn(w))
        await w.flush()
        return answer
      })
      const pokes = writer?.poked() ?? []
      if (pokes.length > 0) for (const listener of committedListeners) listener(pokes)
      writer?.committed()
      return result
    } catch (err) {
      if (attempt >= WRITE_ATTEMPTS || !isRetryableWrite(err)) throw err
    }
  }
}

/** The sync write open in this async context, if any. */
export const openWrite = (): SyncWriter | undefined => ambient.getStore()

/** Where to read what a write just did: its open transaction while one is open here (a push), else the database. */
export const readerAfterWrite = (db: Db): Db | Tx => ambient.getStore()?.tx ?? db

/** Runs `fn` with `writer` as the open write of its async context (the push handler's savepoints). */
export const withWriter = <T>(writer: SyncWriter, fn: () => Promise<T>): Promise<T> => ambient.run(writer, fn)
