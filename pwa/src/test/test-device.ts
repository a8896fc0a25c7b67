/**
 * A device for component tests: the real engine and replica over fake-indexeddb, talking to a
 * scripted transport instead of the network, with no leader election or window listeners.
 */

import { SyncEngine } from '@buble/sync/client/engine'
import type { Transport } from '@buble/sync/client/transport'
import type { Change, PullResponse, PushBody, PushResponse } from '@buble/sync/protocol'
import Dexie from 'dexie'
import { IDBKeyRange, indexedDB } from 'fake-indexeddb'
import { assembleDevice, type Device, type openDevice } from '../data/device.ts'
import { openDeviceDb } from '../data/device-db.ts'

// liveQuery (and so every useLiveQuery) silently never runs unless Dexie's own dependencies hold an
// indexedDB, whatever a database was opened with; Node has none of its own.
Dexie.dependencies.indexedDB = indexedDB
Dexie.dependencies.IDBKeyRange = IDBKeyRange

let counter = 0

export interface TestServer {
  /** What the device pushes; answers every mutation applied unless `push` says otherwise. */
  push?: (body: PushBody) => PushResponse | Promise<PushResponse>
  /** What a pull answers; by default the `seed` rows once, then nothing new. */
  pull?: (cursor: string | undefined) => PullResponse | Promise<PullResponse>
  /** Rows the device starts with, as if pulled. */
  seed?: Change[]
}

export interface TestDeviceHandle {
  /** The pushes the device made. */
  pushes: PushBody[]
  /** The device once the app opened it. */
  current(): Device | null
  /** Users whose device data was deleted (an explicit sign-out). */
  forgotten: string[]
}

/** An opener for <DeviceOpenerContext>: each device gets its own in-memory database. */
export function testDeviceOpener(server: TestServer = {}): { open: typeof openDevice; handle: TestDeviceHandle } {
  const pushes: PushBody[] = []
  const forgotten: string[] = []
  let current: Device | null = null
  let served = false
  const transport: Transport = {
    async push(body) {
      pushes.push(body)
      if (server.push) return server.push(body)
      return { results: body.mutations.map((mutation) => ({ id: mutation.id, status: 'applied' as const })) }
    },
    async pull(cursor) {
      if (server.pull) return server.pull(cursor)
      const changes = served ? [] : (server.seed ?? [])
      served = true
      return { cursor: 'test-cursor', hasMore: false, changes }
    },
  }
  const open: typeof openDevice = ({ userId, actor }) => {
    const db = openDeviceDb(`pwa-test-${++counter}`, { indexedDB, IDBKeyRange })
    const engine = new SyncEngine({ db, transport, actor, intervalMs: 0 })
    const device = assembleDevice(userId, db, engine, undefined, () => forgotten.push(userId))
    current = device
    void engine.sync()
    return device
  }
  return { open, handle: { pushes, current: () => current, forgotten } }
}
