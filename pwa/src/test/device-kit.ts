/** Test helpers for Buble's device: a device database in memory, and one optimistic change run by itself. */

import { BUBLE_DEVICE, OPTIMISTIC } from '@buble/shared/device'
import type { DeviceAuthor, RowStore } from '@buble/shared/device-rows'
import type { MutationArgs, MutationName } from '@buble/shared/mutations'
import { openTestDb } from '@buble/sync/client/test-kit'
import type { DeviceDb } from '../data/device-db.ts'

/** A fresh device database (fake-indexeddb); open it again by `name` to simulate a restart. */
export const testDb = (name?: string): DeviceDb => openTestDb(BUBLE_DEVICE, name)

/** Runs one mutation's optimistic change by itself, as the replica would. */
export const applyOptimistic = <N extends MutationName>(
  store: RowStore,
  name: N,
  args: MutationArgs<N>,
  author: DeviceAuthor,
  createdAt: string,
  settled?: unknown,
) =>
  (
    OPTIMISTIC[name] as {
      apply(s: RowStore, a: unknown, author: DeviceAuthor, at: string, settled?: unknown): Promise<void>
    }
  ).apply(store, args, author, createdAt, settled)
