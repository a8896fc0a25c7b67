/** Buble's device database for tests of real devices against the app (the PWA opens the same, pwa/src/data/device-db.ts). */

import { BUBLE_DEVICE, type RowTable } from '@buble/shared/device'
import type { LocalDb } from '@buble/sync/client/local-db'
import { openTestDb } from '@buble/sync/client/test-kit'

/** The device database, its row tables typed (`db.posts`, …). */
export type DeviceDb = LocalDb<RowTable>

/** A fresh device database (fake-indexeddb); open it again by `name` to simulate a restart. */
export const testDb = (name?: string): DeviceDb => openTestDb(BUBLE_DEVICE, name)
