/**
 * Real databases for tests: an in-memory PGlite always, and PostgreSQL too when TEST_DATABASE_URL
 * is set — each test file gets a fresh database there, dropped afterwards.
 */

import { createHash, randomBytes } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { type Database, type DbTimeouts, dumpPgliteDataDir, MIGRATIONS_DIR, openDatabase } from '../db/client.ts'
import { ADVISORY_LOCKS } from '../lib/advisory-locks.ts'

export type Backend = 'pglite' | 'postgres'

/** The backends this run tests against. */
export const backends = (): Backend[] => (process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'])

/** A test database; `url` is set on PostgreSQL, so a test can open a second connection to the same database. */
export type TestDatabase = Database & { url?: string }

/** A short hash of every migration file: templates made from other migrations are not used. */
function migrationsHash(): string {
  const hash = createHash('sha256')
  const files = readdirSync(MIGRATIONS_DIR, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort()
  for (const file of files) hash.update(path.relative(MIGRATIONS_DIR, file)).update(readFileSync(file))
  return hash.digest('hex').slice(0, 16)
}

/**
 * A migrated PGlite data directory, made once per set of migrations and kept in the temp directory:
 * initdb and the migrations take seconds, loading the tarball a fraction of that. Opening it still
 * runs the migrator, which finds nothing to do.
 */
async function pgliteTemplate(): Promise<Blob> {
  const file = path.join(tmpdir(), `buble-pglite-template-${migrationsHash()}.tar`)
  if (!existsSync(file)) {
    const dump = await dumpPgliteDataDir()
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()))
    renameSync(partial, file)
  }
  return new Blob([readFileSync(file)])
}

const TEMPLATE_LOCK = ADVISORY_LOCKS.testTemplate

/**
 * A migrated PostgreSQL database to copy each test database from (CREATE DATABASE … TEMPLATE),
 * made once per set of migrations; made under an advisory lock, so concurrent test processes wait.
 */
async function postgresTemplate(admin: pg.Client, adminUrl: string): Promise<string> {
  const name = `buble_tpl_${migrationsHash()}`
  await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK])
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [name])
    if (found.rowCount === 0) {
      const building = `${name}_building`
      await admin.query(`drop database if exists ${building}`)
      await admin.query(`create database ${building}`)
      const url = new URL(adminUrl)
      url.pathname = `/${building}`
      const migrated = await openDatabase({ url: url.toString() })
      await migrated.close()
      await admin.query(`alter database ${building} rename to ${name}`)
    }
  } finally {
    await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK])
  }
  return name
}

export async function openTestDatabase(
  backend: Backend,
  options: { timeouts?: DbTimeouts } = {},
): Promise<TestDatabase> {
  if (backend === 'pglite') return openDatabase({ memory: true, loadDataDir: await pgliteTemplate() })
  const adminUrl = process.env.TEST_DATABASE_URL
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set')
  const name = `buble_t_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    const template = await postgresTemplate(admin, adminUrl)
    await admin.query(`create database ${name} template ${template}`)
  } finally {
    await admin.end()
  }
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const database = await openDatabase({ url: url.toString(), timeouts: options.timeouts })
  return {
    ...database,
    url: url.toString(),
    async close() {
      await database.close()
      const cleanup = new pg.Client({ connectionString: adminUrl })
      await cleanup.connect()
      await cleanup
        .query(`drop database if exists ${name} with (force)`)
        .catch(() => cleanup.query(`drop database if exists ${name}`))
      await cleanup.end()
    },
  }
}

/**
 * Runs plain SQL statements on a connection of their own (PostgreSQL): to the app, the writes of
 * another process. PGlite has only one connection: there they run on the app's.
 */
export async function runElsewhere(database: TestDatabase, ...statements: string[]): Promise<void> {
  if (!database.url) {
    for (const text of statements) await database.db.execute(sql.raw(text))
    return
  }
  const client = new pg.Client({ connectionString: database.url })
  await client.connect()
  try {
    for (const text of statements) await client.query(text)
  } finally {
    await client.end()
  }
}
