/**
 * This device's data for the signed-in user: the local database, the sync engine, and what keeps it
 * in step. One tab leads (a Web Lock): it holds the live stream and the timer. Any tab's write goes
 * out at once, one round at a time across tabs and the service worker (a second Web Lock). When the
 * server cannot be reached, a background sync is registered so the outbox is flushed even after
 * the app is closed.
 */

import type { DeviceAuthor } from '@buble/shared/device-rows'
import { MUTATION_ARGS, type MutationInput, type MutationName } from '@buble/shared/mutations'
import { isMutedWrite } from '@buble/shared/muted-writes'
import { isMutedAt } from '@buble/shared/mutes'
import { SyncEngine } from '@buble/sync/client/engine'
import { localDbName, writeMeta } from '@buble/sync/client/local-db'
import { rememberServerChanges } from '@buble/sync/client/replica'
import { startStream } from '@buble/sync/client/stream'
import type { Change } from '@buble/sync/protocol'
import { v7 as uuidv7 } from 'uuid'
import { PULL_MESSAGE } from '../push/push-message.ts'
import type { ApiClient } from '../session/api-client.ts'
import { type DeviceDb, openDeviceDb } from './device-db.ts'
import { exclusively, locks, roundLock } from './locks.ts'
import { apiTransport, toTransportError } from './transport.ts'
import { AUTH_META_KEY, OUTBOX_SYNC_TAG } from './worker-keys.ts'

export interface Device {
  userId: string
  db: DeviceDb
  engine: SyncEngine
  /** Applies a change on this device at once and queues it for the server. */
  mutate<N extends MutationName>(name: N, args: MutationInput<N>): Promise<string>
  /** Stores rows a REST call answered (a buble just joined), as if pulled. */
  remember(changes: readonly Change[]): Promise<void>
  /** Deletes this user's data from the device when it closes (an explicit sign-out). */
  forgetOnClose(): void
  close(): void
}

/** A create's args as a screen writes them: the mutation's input without the id this device chooses. */
export type CreateInput<N extends MutationName> = Omit<MutationInput<N>, 'id'>

/**
 * Queues a create whose id this device chooses (UUIDv7, as every client-chosen id in the app), so
 * the row made offline keeps it. Answers the new row's id.
 */
export async function queueCreate<N extends MutationName>(
  device: Pick<Device, 'mutate'>,
  name: N,
  input: CreateInput<N>,
): Promise<string> {
  const id = uuidv7()
  await device.mutate(name, { id, ...input } as MutationInput<N>)
  return id
}

export interface DeviceOptions {
  userId: string
  api: ApiClient
  actor: () => DeviceAuthor | null
}

/** Asks for the lead; `lead` runs while this tab holds it and answers how to stop. Answers how to resign. */
function electLeader(name: string, lead: () => () => void): () => void {
  const manager = locks()
  if (!manager) {
    const stop = lead()
    return stop
  }
  const resigned = new AbortController()
  manager
    .request(name, { signal: resigned.signal }, () => {
      const stop = lead()
      return new Promise<void>((release) => {
        resigned.signal.addEventListener('abort', () => {
          stop()
          release()
        })
      })
    })
    // Resigning before the lead was granted aborts the request: nothing to do.
    .catch(() => {})
  return () => resigned.abort()
}

async function requestBackgroundSync(userId: string): Promise<void> {
  if (!('serviceWorker' in navigator)) return
  const registration = (await navigator.serviceWorker.getRegistration()) as
    | (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } })
    | undefined
  await registration?.sync?.register(`${OUTBOX_SYNC_TAG}${userId}`)
}

export function openDevice({ userId, api, actor }: DeviceOptions): Device {
  const db = openDeviceDb(localDbName(userId))
  const engine = new SyncEngine({
    db,
    transport: apiTransport(api),
    actor,
    exclusive: exclusively(roundLock(userId)),
    isOnline: () => navigator.onLine,
    onUnreachable: () => {
      requestBackgroundSync(userId).catch((err: unknown) => console.warn('Background sync unavailable', err))
    },
    onError: (err) => console.error('Sync failed', err),
  })

  const resign = electLeader(`buble-sync-leader:${userId}`, () => {
    engine.start()
    const stream = startStream({
      open: async (signal) => {
        try {
          return await api.open('/stream', signal)
        } catch (err) {
          throw toTransportError(err)
        }
      },
      onEvent: () => void engine.sync(),
      whenOnline: () =>
        navigator.onLine
          ? Promise.resolve()
          : new Promise<void>((resolve) => window.addEventListener('online', () => resolve(), { once: true })),
    })
    return () => {
      stream.stop()
      engine.stop()
    }
  })

  // Back online, or back to the app: catch up at once.
  const wake = () => void engine.sync()
  const onVisible = () => {
    if (document.visibilityState === 'visible') wake()
  }
  window.addEventListener('online', wake)
  window.addEventListener('focus', wake)
  document.addEventListener('visibilitychange', onVisible)
  // A push arrived (the service worker says so): pull now.
  const onWorkerMessage = (event: MessageEvent) => {
    if (event.data?.type === PULL_MESSAGE) wake()
  }
  navigator.serviceWorker?.addEventListener('message', onWorkerMessage)

  // Ask the browser to keep this data through storage pressure: it holds unsent writes.
  navigator.storage?.persist?.().catch(() => {})

  return assembleDevice(userId, db, engine, () => {
    window.removeEventListener('online', wake)
    window.removeEventListener('focus', wake)
    document.removeEventListener('visibilitychange', onVisible)
    navigator.serviceWorker?.removeEventListener('message', onWorkerMessage)
    resign()
  })
}

/** Whether the user is muted in any buble on this device: one look at their own member rows. */
async function mutedSomewhere(db: DeviceDb, userId: string): Promise<boolean> {
  const now = Date.now()
  const own = await db.members.where('user_id').equals(userId).toArray()
  return own.some((row) => isMutedAt(row.muted_until as string | undefined, now))
}

/**
 * A Device over an open database and its engine; `release` undoes what the opener set up
 * (listeners, the lead). Closing stops the engine and closes the database, or deletes it after
 * forgetOnClose.
 */
export function assembleDevice(
  userId: string,
  db: DeviceDb,
  engine: SyncEngine,
  release: () => void = () => {},
  onForgotten: () => void = () => {},
): Device {
  let closed = false
  let forget = false
  return {
    userId,
    db,
    engine,
    async mutate(name, args) {
      // Muted here already (issue 24 §2): the write would come back refused, so it is refused now.
      if (isMutedWrite(name) && (await mutedSomewhere(db, userId))) {
        const { mutedRefusal, refuseHere } = await import('./muted-writes.ts')
        const refusal = await mutedRefusal(db, userId, name, args as Record<string, unknown>)
        if (refusal) return refuseHere(db, name, MUTATION_ARGS[name].parse(args), refusal)
      }
      return engine.mutate(name, args)
    },
    remember: (changes) => rememberServerChanges(db, changes),
    forgetOnClose() {
      forget = true
    },
    close() {
      if (closed) return
      closed = true
      release()
      engine.stop()
      if (forget) db.delete().then(onForgotten, (err: unknown) => console.warn('Could not remove local data', err))
      else db.close()
    },
  }
}

/** Keeps the token where the service worker can read it (it has no localStorage). */
export async function storeTokenForWorker(db: DeviceDb, auth: { token: string; tokenExpiry: number }) {
  await writeMeta(db, AUTH_META_KEY, auth)
}
