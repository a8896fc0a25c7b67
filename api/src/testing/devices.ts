/** Devices for engine tests: people with tokens, and the real client engine over a fake IndexedDB talking to the app. */

import { randomUUID } from 'node:crypto'
import type { DeviceAuthor } from '@buble/shared/device-rows'
import { SyncEngine } from '@buble/sync/client/engine'
import { createFetchTransport } from '@buble/sync/client/transport'
import { type SQL, sql } from 'drizzle-orm'
import { v7 as uuidv7 } from 'uuid'
import { users } from '../db/schema.ts'
import { type DeviceDb, testDb } from './device-db.ts'
import { type Harness, uniqueEmail } from './harness.ts'

const offlineFetch: typeof fetch = () => Promise.reject(new TypeError('Failed to fetch'))

export function deviceKit(h: () => Harness) {
  const viaApp: typeof fetch = (input, init) => Promise.resolve(h().app.request(String(input), init))

  const person = async (name: string) => {
    const { database, clock, deps } = h()
    const [row] = await database.db
      .insert(users)
      .values({ id: uuidv7(), name, email: uniqueEmail('device'), createdAt: clock.now, updatedAt: clock.now })
      .returning()
    const actor: DeviceAuthor = { id: row!.id, name, email: row!.email, avatar_url: null }
    return { actor, token: await deps.tokens.sign(row!) }
  }

  /** A device whose network can be switched off. */
  const deviceOf = (who: { actor: DeviceAuthor; token: string }) => {
    let online = true
    const db: DeviceDb = testDb(`device-${randomUUID()}`)
    const transport = createFetchTransport({
      baseUrl: '',
      token: () => who.token,
      fetch: (input, init) => (online ? viaApp(input, init) : offlineFetch(input, init)),
    })
    const engine = new SyncEngine({ db, transport, actor: () => who.actor, intervalMs: 0 })
    return {
      db,
      engine,
      setOnline(value: boolean) {
        online = value
      },
    }
  }

  /** Rows of a server table, as the server holds them. */
  const count = async (table: string, where: SQL = sql`true`) => {
    const result = await h().database.db.execute(sql`select count(*)::int as n from ${sql.raw(table)} where ${where}`)
    return (result as unknown as { rows: { n: number }[] }).rows[0]!.n
  }

  return { person, deviceOf, count }
}
