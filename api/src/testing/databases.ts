/**
 * Real databases for tests: an in-memory PGlite always, and PostgreSQL too when TEST_DATABASE_URL
 * is set — each test file gets a fresh database there, dropped afterwards.
 */

import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { type Database, openDatabase } from '../db/client.ts'

export type Backend = 'pglite' | 'postgres'

/** The backends this run tests against. */
export const backends = (): Backend[] => (process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'])

/** A test database; `url` is set on PostgreSQL, so a test can open a second connection to the same database. */
export type TestDatabase = Database & { url?: string }

export async function openTestDatabase(backend: Backend): Promise<TestDatabase> {
  if (backend === 'pglite') return openDatabase({ memory: true })
  const adminUrl = process.env.TEST_DATABASE_URL
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set')
  const name = `buble_t_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const database = await openDatabase({ url: url.toString() })
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
