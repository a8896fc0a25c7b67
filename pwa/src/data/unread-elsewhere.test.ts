import type { LocalRow } from '@buble/shared/device-rows'
import { localDbName } from '@buble/sync/client/local-db'
import { IDBKeyRange, indexedDB } from 'fake-indexeddb'
import { afterEach, expect, test } from 'vitest'
import { type DeviceDb, openDeviceDb } from './device-db.ts'
import { type DeviceDatabases, unreadElsewhere as readElsewhere } from './unread-elsewhere.ts'

const open = (name: string) => openDeviceDb(name, { indexedDB, IDBKeyRange })
const databases: DeviceDatabases = { list: () => indexedDB.databases(), open }
const unreadElsewhere = (bubleId: string) => readElsewhere(bubleId, databases)

const opened: DeviceDb[] = []

async function device(userId: string, bubles: string[], counters: [bubleId: string, type: string, count: number][]) {
  const db = open(localDbName(userId))
  opened.push(db)
  await db.bubles.bulkPut(
    bubles.map((id) => ({ id, buble_id: id, name: id, slug: id, created_at: '2026-11-01T00:00:00.000Z' }) as LocalRow),
  )
  await db.unread.bulkPut(
    counters.map(([buble_id, contentType, unreadCount]) => ({
      id: `${buble_id}:${contentType}`,
      buble_id,
      contentType,
      unreadCount,
    })),
  )
}

afterEach(async () => {
  for (const db of opened.splice(0)) await db.delete()
})

test("adds up the device's counters of every other buble, by the rule the open app badges with", async () => {
  await device(
    'u-ann',
    ['b1', 'b2', 'b3'],
    [
      ['b1', 'chat', 4],
      ['b2', 'chat', 2],
      ['b2', 'wall', 1],
      ['b3', 'events', 3],
      // A buble the device no longer holds (left, deleted) counts for nothing.
      ['gone', 'chat', 9],
    ],
  )
  // The push's own buble is left out: its counters come fresh with the push.
  expect(await unreadElsewhere('b1')).toBe(6)
})

test("finds the device database that holds the push's buble among others on the origin", async () => {
  await device('u-ann', ['a1'], [['a1', 'chat', 7]])
  await device('u-bob', ['b1', 'b2'], [['b2', 'polls', 5]])
  expect(await unreadElsewhere('b1')).toBe(5)
})

test('no device holding the buble (signed out, not synced yet) adds nothing', async () => {
  await device('u-ann', ['a1'], [['a1', 'chat', 7]])
  expect(await unreadElsewhere('b1')).toBe(0)
})
