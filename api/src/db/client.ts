/** One factory for the database: embedded PGlite by default, node-postgres when a URL is given. */

import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { type SQL, sql } from 'drizzle-orm'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import { type PgDatabase, PgDialect, type PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { ADVISORY_LOCKS } from '../lib/advisory-locks.ts'
import * as schema from './schema.ts'
import { rootCallRefused, runInWriteScope } from './write-scope.ts'

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
/** Anything queries can run on: the database or an open transaction. */
export type Executor = Db | Tx

export interface Database {
  db: Db
  /**
   * A connection of its own for group commits (chat sends, send-batch.ts): a group never waits
   * behind the pool's queue of single queries. PGlite has one connection: there it is `db`.
   */
  groupDb: Db
  kind: 'pglite' | 'postgres'
  /** Runs `fn` only when this process holds the transaction-scoped advisory lock `key`; false otherwise. */
  withAdvisoryLock(key: number, fn: (tx: Tx) => Promise<unknown>): Promise<boolean>
  /**
   * Hears NOTIFY on `channel` (from this process or any other on the same database). `onLost` runs
   * when the listening connection drops (notifications may be missed from then on), `onGap` when it
   * is back.
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    onGap?: () => void,
    onLost?: () => void,
  ): Promise<() => Promise<void>>
  close(): Promise<void>
}

const dialect = new PgDialect()

/**
 * Runs `statement` as the named prepared statement `name` on node-postgres (each connection parses
 * and plans it once, then only binds and runs it: for a big statement run many times a second,
 * planning costs more than running); PGlite runs it as any other. Its SQL text must not vary.
 */
export async function executeNamed<R>(db: Db, name: string, statement: SQL): Promise<R[]> {
  const client = (db as unknown as { $client: unknown }).$client
  if (client instanceof pg.Pool) {
    const { sql: text, params } = dialect.sqlToQuery(statement)
    return (await client.query({ name, text, values: params })).rows as R[]
  }
  return ((await db.execute(statement)) as unknown as { rows: R[] }).rows
}

const MIGRATIONS = fileURLToPath(new URL('../../drizzle', import.meta.url))
// Serialises migrations when several processes start against one PostgreSQL at once.
const MIGRATION_LOCK = ADVISORY_LOCKS.migrations

/**
 * `memory` may start from `loadDataDir`, a data directory dumped by `dumpPgliteDataDir` (tests use a
 * migrated one, so each test file skips initdb and the migrations).
 */
export type DatabaseTarget =
  | { url: string; timeouts?: DbTimeouts }
  | { pgliteDir: string }
  | { memory: true; loadDataDir?: Blob }

/** The directory of the migrations (tests key their templates on its files). */
export const MIGRATIONS_DIR = MIGRATIONS

// The root database's entry points: refused there, at the call, so the error's stack names the caller.
const DB_ENTRY_POINTS = [
  'select',
  'selectDistinct',
  'selectDistinctOn',
  'insert',
  'update',
  'delete',
  'execute',
  'with',
  '$with',
  '$count',
  'refreshMaterializedView',
] as const

/**
 * Keeps the root database out of open writes (write-scope.ts): `db.transaction` opens a scope for
 * its callback and runs what waited for the commit once it has committed; `db`'s entry points and,
 * as a backstop for anything that reaches the driver another way, `client`'s (`methods`: the pool's
 * or PGlite's) refuse a call made while a scope is open in the same async context. `nodeCallbacks`:
 * the driver's methods may take a Node-style callback last (node-postgres), which then gets the error.
 */
function guardWrites(db: Db, client: object, methods: readonly string[], nodeCallbacks: boolean): void {
  const target = db as unknown as Record<string, (...args: unknown[]) => unknown>
  for (const name of DB_ENTRY_POINTS) {
    const call = target[name]!.bind(db)
    target[name] = (...args: unknown[]) => {
      const refused = rootCallRefused(`db.${name}()`)
      if (refused) throw refused
      return call(...args)
    }
  }
  const transaction = db.transaction.bind(db)
  db.transaction = ((fn: (tx: Tx) => Promise<unknown>, config?: Parameters<Db['transaction']>[1]) => {
    const refused = rootCallRefused('db.transaction()')
    if (refused) return Promise.reject(refused)
    // Taken here, in the caller's own stack: it names the write should a refusal happen inside it.
    const began = new Error('write began')
    return (async () => {
      let done: { commit(): void } | undefined
      const value = await transaction(async (tx) => {
        const scoped = await runInWriteScope(tx, began, () => fn(tx))
        done = scoped
        return scoped.value
      }, config)
      done?.commit()
      return value
    })()
  }) as Db['transaction']
  const driver = client as Record<string, (...args: unknown[]) => unknown>
  for (const method of methods) {
    const call = driver[method]!.bind(client)
    driver[method] = (...args: unknown[]) => {
      const refused = rootCallRefused(`the driver's ${method}()`)
      if (!refused) return call(...args)
      const callback = args.at(-1)
      if (nodeCallbacks && typeof callback === 'function') return void callback(refused)
      return Promise.reject(refused)
    }
  }
}

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  const database = 'url' in target ? await openPostgres(target.url, target.timeouts) : await openPglite(target)
  return database
}

/** A fresh in-memory PGlite, migrated, as a data directory tarball (`loadDataDir`). */
export async function dumpPgliteDataDir(): Promise<Blob> {
  const client = new PGlite({ extensions: PGLITE_EXTENSIONS })
  try {
    await migratePglite(drizzlePglite({ client, schema }) as never, { migrationsFolder: MIGRATIONS })
    return await client.dumpDataDir('none')
  } finally {
    await client.close()
  }
}

// pg_trgm backs the admin area's substring search (migration 0006), as on PostgreSQL.
const PGLITE_EXTENSIONS = { pg_trgm }

async function openPglite(target: { pgliteDir: string } | { memory: true; loadDataDir?: Blob }): Promise<Database> {
  if ('pgliteDir' in target) mkdirSync(target.pgliteDir, { recursive: true })
  const extensions = PGLITE_EXTENSIONS
  const client =
    'pgliteDir' in target
      ? new PGlite(target.pgliteDir, { extensions })
      : new PGlite({ extensions, ...(target.loadDataDir ? { loadDataDir: target.loadDataDir } : {}) })
  const db = drizzlePglite({ client, schema }) as unknown as Db
  await migratePglite(db as never, { migrationsFolder: MIGRATIONS })
  guardWrites(db, client, ['query', 'exec', 'transaction'], false)
  return {
    db,
    groupDb: db,
    kind: 'pglite',
    withAdvisoryLock: (key, fn) => runLocked(db, key, fn),
    // One process, one database: nothing to reconnect, nothing to miss.
    listen: async (channel, onPayload) => {
      const unlisten = await client.listen(channel, onPayload)
      return () => unlisten()
    },
    close: () => client.close(),
  }
}

/**
 * Settings for every session of the app, after any `options` the URL gives. No JIT: it pays off for
 * long analytical queries, and an app's short ones only pay for it: a pull over a few hundred bubles
 * was compiled, and compiling took nearly all its time (docs/decisions/0052).
 */
export function sessionOptions(url: string, ...settings: string[]): string {
  let given: string | null = null
  try {
    given = new URL(url).searchParams.get('options')
  } catch {
    // A URL node-postgres reads but WHATWG does not: its own options, if any, give way.
  }
  return [given, '-c jit=off', ...settings.map((setting) => `-c ${setting}`)].filter(Boolean).join(' ')
}

/**
 * The backstop against a request stuck on the database (decision 55): a wait for a pooled
 * connection, a lock, a statement and a transaction left idle each end after a bound, and the
 * request answers 503 (lib/errors.ts `isDatabaseUnavailable`) instead of holding on for good.
 * Session settings, so a stuck session's locks go with it and the pool heals by itself.
 */
export interface DbTimeouts {
  connectionMs: number
  lockMs: number
  statementMs: number
  idleInTransactionMs: number
}

export const DB_TIMEOUTS: Readonly<DbTimeouts> = {
  /** How long a query waits for a free pooled connection. */
  connectionMs: 5000,
  /** How long a statement waits for any lock (the version lock included). */
  lockMs: 5000,
  /** How long one statement may run. */
  statementMs: 15_000,
  /** How long a transaction may sit idle between its statements before the server ends the session. */
  idleInTransactionMs: 15_000,
}

/** The session settings of `DB_TIMEOUTS`, for `sessionOptions`. */
export const timeoutSettings = (t: DbTimeouts = DB_TIMEOUTS): string[] => [
  `lock_timeout=${t.lockMs}`,
  `statement_timeout=${t.statementMs}`,
  `idle_in_transaction_session_timeout=${t.idleInTransactionMs}`,
]

/**
 * A connection the server ends while it is checked out (idle in a transaction past
 * `idleInTransactionMs`, a restart) emits 'error' with no query to take it, and the pool listens
 * only to idle ones: unheard, that error would take the process down. Heard here, the connection is
 * left unusable, its next query fails as unavailable (a 503), and the pool drops it on release.
 */
function keepCheckedOutErrors(pool: pg.Pool): void {
  pool.on('connect', (client) => client.on('error', () => {}))
}

async function openPostgres(url: string, timeouts: DbTimeouts = DB_TIMEOUTS): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: timeouts.connectionMs,
    options: sessionOptions(url, ...timeoutSettings(timeouts)),
  })
  // An idle connection that the server ends (a restart, a failover) is dropped from the pool and
  // replaced on the next query; without a listener, node-postgres would take the process down.
  pool.on('error', () => {})
  keepCheckedOutErrors(pool)
  try {
    const client = await pool.connect()
    try {
      // Migrations wait for another process's and may build big indexes: no bounds for them.
      await client.query('set lock_timeout = 0; set statement_timeout = 0')
      await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK])
      await migratePg(drizzlePg({ client, schema }), { migrationsFolder: MIGRATIONS })
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {})
      await client.query('reset lock_timeout; reset statement_timeout').catch(() => {})
      client.release()
    }
  } catch (err) {
    // Nothing is left open behind a failed start: the caller may try again.
    await pool.end().catch(() => {})
    throw err
  }
  const db = drizzlePg({ client: pool, schema }) as unknown as Db
  guardWrites(db, pool, ['query', 'connect'], true)
  // Its one statement is prepared once and planned once: a custom plan per run would cost more than the run.
  const groupPool = new pg.Pool({
    connectionString: url,
    max: 1,
    connectionTimeoutMillis: timeouts.connectionMs,
    options: sessionOptions(url, 'plan_cache_mode=force_generic_plan', ...timeoutSettings(timeouts)),
  })
  groupPool.on('error', () => {})
  keepCheckedOutErrors(groupPool)
  const groupDb = drizzlePg({ client: groupPool, schema }) as unknown as Db
  guardWrites(groupDb, groupPool, ['query', 'connect'], true)
  const listeners = new Set<{ stop(): Promise<void> }>()
  return {
    db,
    groupDb,
    kind: 'postgres',
    withAdvisoryLock: (key, fn) => runLocked(db, key, fn),
    async listen(channel, onPayload, onGap, onLost) {
      const listener = await listenPostgres(url, channel, onPayload, onGap, onLost)
      listeners.add(listener)
      return async () => {
        listeners.delete(listener)
        await listener.stop()
      }
    },
    async close() {
      await Promise.all([...listeners].map((listener) => listener.stop()))
      await Promise.all([pool.end(), groupPool.end()])
    },
  }
}

const LISTEN_RETRY_MAX_MS = 30_000

/** LISTEN on a connection of its own (a pooled one would be handed to others); reconnects with backoff. */
async function listenPostgres(
  url: string,
  channel: string,
  onPayload: (payload: string) => void,
  onGap?: () => void,
  onLost?: () => void,
): Promise<{ stop(): Promise<void> }> {
  let stopped = false
  let client: pg.Client | null = null
  let retryTimer: NodeJS.Timeout | undefined
  let delay = 500

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: url })
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) onPayload(message.payload)
    })
    next.on('error', () => lose(next))
    next.on('end', () => lose(next))
    try {
      await next.connect()
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`)
    } catch (err) {
      await next.end().catch(() => {})
      throw err
    }
    client = next
    delay = 500
  }

  function scheduleConnect() {
    if (stopped) return
    retryTimer = setTimeout(() => {
      connect().then(
        () => onGap?.(),
        () => {
          delay = Math.min(delay * 2, LISTEN_RETRY_MAX_MS)
          scheduleConnect()
        },
      )
    }, delay)
    retryTimer.unref()
  }

  function lose(lost: pg.Client) {
    if (stopped || client !== lost) return
    client = null
    onLost?.()
    void lost.end().catch(() => {})
    scheduleConnect()
  }

  await connect()
  return {
    async stop() {
      stopped = true
      if (retryTimer) clearTimeout(retryTimer)
      const current = client
      client = null
      await current?.end().catch(() => {})
    },
  }
}

async function runLocked(db: Db, key: number, fn: (tx: Tx) => Promise<unknown>): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx.execute<{ locked: boolean }>(sql`select pg_try_advisory_xact_lock(${key}) as locked`)
    const locked = (rows as unknown as { rows: { locked: boolean }[] }).rows[0]?.locked === true
    if (locked) await fn(tx)
    return locked
  })
}
