/** What the sync status shows: synced, syncing, offline with N pending, M not saved. */

import { STATUS_KEY, type SyncStatus } from '@buble/sync/client/engine'
import type { Rejection } from '@buble/sync/client/local-db'
import { CURSOR_KEY } from '@buble/sync/client/replica'
import { useLiveQuery } from 'dexie-react-hooks'
import { useMemo, useSyncExternalStore } from 'react'
import { useDevice } from './data-context.tsx'

export interface SyncSummary {
  /** What to show: not-saved wins, then offline, then syncing, else synced. */
  state: 'synced' | 'syncing' | 'offline' | 'error'
  /** Mutations made here that the server has not answered yet. */
  pending: number
  /** Mutations the server refused. */
  notSaved: number
  /** Whether this device has finished one pull (before that, an empty list means "not here yet"). */
  initialized: boolean
  lastSyncedAt: string | null
  error: string | null
}

const subscribeOnline = (listener: () => void) => {
  window.addEventListener('online', listener)
  window.addEventListener('offline', listener)
  return () => {
    window.removeEventListener('online', listener)
    window.removeEventListener('offline', listener)
  }
}

export function useOnline(): boolean {
  return useSyncExternalStore(subscribeOnline, () => navigator.onLine)
}

/** Undefined while loading. */
export function useSyncSummary(): SyncSummary | undefined {
  const { db } = useDevice()
  const online = useOnline()
  const stored = useLiveQuery(async () => {
    const [status, cursor, pending, notSaved] = await Promise.all([
      db.meta.get(STATUS_KEY),
      db.meta.get(CURSOR_KEY),
      db.outbox.filter((entry) => entry.status === 'pending').count(),
      db.rejections.count(),
    ])
    return { status: status?.value as SyncStatus | undefined, initialized: cursor !== undefined, pending, notSaved }
  }, [db])
  if (!stored) return undefined
  const engineState = stored.status?.state ?? 'idle'
  const state: SyncSummary['state'] =
    !online || engineState === 'offline'
      ? 'offline'
      : engineState === 'error' || engineState === 'signed-out'
        ? 'error'
        : engineState === 'syncing' || stored.pending > 0
          ? 'syncing'
          : 'synced'
  return {
    state,
    pending: stored.pending,
    notSaved: stored.notSaved,
    initialized: stored.initialized,
    lastSyncedAt: stored.status?.lastSyncedAt ?? null,
    error: stored.status?.error ?? null,
  }
}

export type { Rejection }

/** Mutations the server refused, newest first. */
export function useRejections(): Rejection[] | undefined {
  const { db } = useDevice()
  return useLiveQuery(() => db.rejections.orderBy('at').reverse().toArray(), [db])
}

export interface RejectionActions {
  /** Queues the refused change again as a new one (applied here at once) and takes it off the list. */
  retry(id: string): Promise<void>
  /** Takes a refused change off the list for good (once the user has copied what they needed). */
  discard(id: string): Promise<void>
}

/** What the user may do with a refused change. */
export function useRejectionActions(): RejectionActions {
  const { engine } = useDevice()
  return useMemo(
    () => ({
      retry: async (id) => {
        await engine.retryRejected(id)
      },
      discard: (id) => engine.discardRejected(id),
    }),
    [engine],
  )
}
