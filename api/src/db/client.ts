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
import * as schema from './schema.ts'

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
  withAdvisoryLock(key: number, fn: (tx: Tx) => Promise<void>): Promise<boolean>
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
const MIGRATION_LOCK = 4_201_001

/**
 * `memory` may start from `loadDataDir`, a data directory dumped by `dumpPgliteDataDir` (tests use a
 * migrated one, so each test file skips initdb and the migrations).
 */
export type DatabaseTarget = { url: string } | { pgliteDir: string } | { memory: true; loadDataDir?: Blob }

/** The directory of the migrations (tests key their templates on its files). */
export const MIGRATIONS_DIR = MIGRATIONS

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  const database = 'url' in target ? await openPostgres(target.url) : await openPglite(target)
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
 * long analytical queries, and an app's short ones only pay for it. A pull over a few hundred bubles
 * is estimated expensive enough to be compiled, and compiling it took 1.5 s of its 1.6 s.
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

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10, options: sessionOptions(url) })
  // An idle connection that the server ends (a restart, a failover) is dropped from the pool and
  // replaced on the next query; without a listener, node-postgres would take the process down.
  pool.on('error', () => {})
  const client = await pool.connect()
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK])
    await migratePg(drizzlePg({ client, schema }), { migrationsFolder: MIGRATIONS })
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {})
    client.release()
  }
  const db = drizzlePg({ client: pool, schema }) as unknown as Db
  // Its one statement is prepared once and planned once: a custom plan per run would cost more than the run.
  const groupPool = new pg.Pool({
    connectionString: url,
    max: 1,
    options: sessionOptions(url, 'plan_cache_mode=force_generic_plan'),
  })
  groupPool.on('error', () => {})
  const groupDb = drizzlePg({ client: groupPool, schema }) as unknown as Db
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

async function runLocked(db: Db, key: number, fn: (tx: Tx) => Promise<void>): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx.execute<{ locked: boolean }>(sql`select pg_try_advisory_xact_lock(${key}) as locked`)
    const locked = (rows as unknown as { rows: { locked: boolean }[] }).rows[0]?.locked === true
    if (locked) await fn(tx)
    return locked
  })
}
