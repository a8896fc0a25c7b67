import { localDbName } from '@buble/sync/client/local-db'
import { recordMutation } from '@buble/sync/client/replica'
import type { PushBody } from '@buble/sync/protocol'
import Dexie from 'dexie'
import { IDBKeyRange, indexedDB } from 'fake-indexeddb'
import { beforeAll, describe, expect, test } from 'vitest'
import { alice } from '../test/fixtures.ts'
import { flushOutbox, userOfSyncTag } from './background-sync.ts'
import { openDeviceDb } from './device-db.ts'
import { AUTH_META_KEY, OUTBOX_SYNC_TAG } from './worker-keys.ts'

// The worker opens the database by name, as the page does: both must reach fake-indexeddb.
beforeAll(() => {
  Dexie.dependencies.indexedDB = indexedDB
  Dexie.dependencies.IDBKeyRange = IDBKeyRange
})

const NOW = Date.parse('2026-11-23T10:00:00Z')
let users = 0

/** A user's device database with one queued buble and, unless left out, the token the page stored. */
async function queued(auth: { token: string; tokenExpiry: number } | null) {
  const userId = `0190f5b4-0000-7000-8000-${String(++users).padStart(12, '0')}`
  const db = openDeviceDb(localDbName(userId))
  await recordMutation(db, {
    id: `0190f5b4-2000-7000-8000-${String(users).padStart(12, '0')}`,
    name: 'buble.create',
    args: { id: `0190f5b4-1000-7000-8000-${String(users).padStart(12, '0')}`, name: 'Written on the train' },
    createdAt: new Date(NOW).toISOString(),
    actor: { ...alice, id: userId },
  })
  if (auth) await db.meta.put({ key: AUTH_META_KEY, value: auth })
  db.close()
  return userId
}

function server(answer: 'ok' | 'down') {
  const calls: { url: string; auth: string | null; body: PushBody | null }[] = []
  const fetchFn: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers)
    calls.push({
      url: String(input),
      auth: headers.get('authorization'),
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as PushBody) : null,
    })
    if (answer === 'down') throw new TypeError('Failed to fetch')
    if (String(input).startsWith('/api/sync/push')) {
      const body = JSON.parse(String(init?.body)) as PushBody
      return Response.json({ results: body.mutations.map((m) => ({ id: m.id, status: 'applied' })) })
    }
    return Response.json({ cursor: 'c1', hasMore: false, changes: [] })
  }
  return { fetchFn, calls }
}

describe('the background flush of the service worker', () => {
  test('the sync tag names the user whose outbox to flush', () => {
    expect(userOfSyncTag(`${OUTBOX_SYNC_TAG}user-1`)).toBe('user-1')
    expect(userOfSyncTag(OUTBOX_SYNC_TAG)).toBeNull()
    expect(userOfSyncTag('something-else')).toBeNull()
  })

  test('pushes the queued writes with the token the page left, and empties the outbox', async () => {
    const userId = await queued({ token: 'page-token', tokenExpiry: NOW + 60_000 })
    const { fetchFn, calls } = server('ok')
    await flushOutbox(userId, { fetch: fetchFn, now: () => NOW })
    const push = calls.find((call) => call.url.startsWith('/api/sync/push'))
    expect(push?.auth).toBe('Bearer page-token')
    expect(push?.body?.mutations.map((m) => m.name)).toEqual(['buble.create'])
    const db = openDeviceDb(localDbName(userId))
    expect(await db.outbox.count()).toBe(0)
    db.close()
  })

  test('when the server cannot be reached it fails, so the browser tries again later, and keeps the queue', async () => {
    const userId = await queued({ token: 'page-token', tokenExpiry: NOW + 60_000 })
    const { fetchFn } = server('down')
    await expect(flushOutbox(userId, { fetch: fetchFn, now: () => NOW })).rejects.toThrow('could not be reached')
    const db = openDeviceDb(localDbName(userId))
    expect(await db.outbox.count()).toBe(1)
    db.close()
  })

  test('without a live token it leaves the queue for the next sign-in and calls nobody', async () => {
    for (const auth of [null, { token: 'old', tokenExpiry: NOW - 1 }]) {
      const userId = await queued(auth)
      const { fetchFn, calls } = server('ok')
      await flushOutbox(userId, { fetch: fetchFn, now: () => NOW })
      expect(calls).toEqual([])
      const db = openDeviceDb(localDbName(userId))
      expect(await db.outbox.count()).toBe(1)
      db.close()
    }
  })
})
