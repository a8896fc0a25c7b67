/** Two API processes on one fresh PostgreSQL database, for tests of what crosses processes (pokes). */

import { afterAll, beforeAll } from 'vitest'
import { openTestDatabase, type TestDatabase } from './databases.ts'
import { type ServerProcess, startServerProcess } from './server-process.ts'

/** Starts both before the calling `describe`'s tests and stops them (and drops the database) after. */
export function twoProcessesOnPostgres(): { readonly a: ServerProcess; readonly b: ServerProcess } {
  let database: TestDatabase
  let a: ServerProcess
  let b: ServerProcess
  beforeAll(async () => {
    database = await openTestDatabase('postgres')
    ;[a, b] = await Promise.all([
      startServerProcess({ env: { DATABASE_URL: database.url! } }),
      startServerProcess({ env: { DATABASE_URL: database.url! } }),
    ])
  }, 120_000)
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()])
    await database?.close()
  })
  return {
    get a() {
      return a
    },
    get b() {
      return b
    },
  }
}
