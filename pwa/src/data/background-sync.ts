/**
 * The outbox flush the service worker runs on a background-sync event: the same engine as the
 * page, with the token the page left in the user's database, under the same Web Lock as the
 * page's rounds. It throws when the server was not reached, so the browser tries again later.
 */

import { SyncEngine } from '@buble/sync/client/engine'
import { localDbName, readMeta } from '@buble/sync/client/local-db'
import { createFetchTransport } from '@buble/sync/client/transport'
import { openDeviceDb } from './device-db.ts'
import { exclusively, roundLock } from './locks.ts'
import { AUTH_META_KEY, OUTBOX_SYNC_TAG } from './worker-keys.ts'

/** The user whose outbox a sync tag names, or null for another tag. */
export const userOfSyncTag = (tag: string): string | null =>
  tag.startsWith(OUTBOX_SYNC_TAG) ? tag.slice(OUTBOX_SYNC_TAG.length) || null : null

export async function flushOutbox(userId: string, options: { fetch?: typeof fetch; now?: () => number } = {}) {
  const db = openDeviceDb(localDbName(userId))
  try {
    if ((await db.outbox.count()) === 0) return
    const now = options.now ?? Date.now
    const auth = await readMeta<{ token: string; tokenExpiry: number }>(db, AUTH_META_KEY)
    // Signed out, or the session ran out: the queue waits for the next sign-in.
    if (!auth || auth.tokenExpiry <= now()) return
    const engine = new SyncEngine({
      db,
      transport: createFetchTransport({
        baseUrl: '',
        token: () => auth.token,
        ...(options.fetch ? { fetch: options.fetch } : {}),
      }),
      actor: () => null,
      intervalMs: 0,
      exclusive: exclusively(roundLock(userId)),
    })
    await engine.sync()
    engine.stop()
    const { state } = await engine.status()
    if (state === 'offline' || state === 'error') throw new Error('The server could not be reached; trying again later')
  } finally {
    db.close()
  }
}
