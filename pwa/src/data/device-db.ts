/**
 * This device's database as the PWA opens it: @buble/sync's local database with Buble's device
 * (@buble/shared/device: the row tables, and what each mutation does to them before the server answers).
 */

import { BUBLE_DEVICE, type RowTable } from '@buble/shared/device'
import { type LocalDb, openLocalDb } from '@buble/sync/client/local-db'
import type { DexieOptions } from 'dexie'

/** The device database, its row tables typed for the PWA's reads (`db.posts`, …). */
export type DeviceDb = LocalDb<RowTable>

/** Opens (creating or upgrading) a device database; `options` lets tests pass fake-indexeddb. */
export const openDeviceDb = (name: string, options?: DexieOptions): DeviceDb => openLocalDb(name, BUBLE_DEVICE, options)
