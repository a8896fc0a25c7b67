/**
 * The live streams open in this process, indexed by who may hear what: buble → its members with a
 * stream open here → their streams. A poke heard on the change bus is encoded once and written to
 * the streams its buble's index names (or its user's, for a user's own poke), one synchronous write
 * each: no query, no promise, no check per stream. A stream that is not a member is never visited.
 *
 * The index follows memberships through the pokes that change them: a user-scoped `buble` poke
 * (joined, left, removed, the buble deleted) reloads that user's bubles, once for all their
 * streams, and only then is the poke written, so a device that hears it hears the buble's next
 * pokes too. A revocation reaches the revoked user's streams alone, an ended session its own streams.
 */

import type { BusEvent, ChangeBus } from '../../lib/change-bus.ts'
import type { Logger } from '../../lib/log.ts'
import { encodeEvent } from './stream-sink.ts'

/** One open stream, as the hub sees it. */
export interface HubStream {
  readonly userId: string
  /** The session of the stream's token (undefined for a token older than sessions). */
  readonly sessionId?: string | undefined
  /** False until the stream has sent `ready`: pokes before it are for the pull that follows. */
  ready: boolean
  write(bytes: Uint8Array): void
  /** Checks the stream's token again (a revocation was heard, or may have been missed). */
  recheck(): void
}

/** A user with streams open here, and the bubles they belong to. */
class Listener {
  readonly streams = new Set<HubStream>()
  bubles = new Set<string>()
  loaded = false
  /** Bumped by every reload: only the latest one's answer counts. */
  generation = 0
  loading: Promise<void> | undefined

  constructor(readonly userId: string) {}
}

export interface StreamHub {
  /** The stream hears its user's revocations from now on, and pokes once it is `ready`. */
  join(stream: HubStream): void
  /** Resolves once the stream's user's bubles are known (fails when they could not be read). */
  settled(stream: HubStream): Promise<void>
  leave(stream: HubStream): void
  close(): void
}

const RESYNC = encodeEvent('resync', {})

export interface StreamHubDeps {
  bus: ChangeBus
  /** The bubles a user belongs to, read now. */
  bublesOf(userId: string): Promise<Set<string>>
  log: Logger
}

export function createStreamHub({ bus, bublesOf, log }: StreamHubDeps): StreamHub {
  const listeners = new Map<string, Listener>()
  const byBuble = new Map<string, Set<Listener>>()

  /** Moves `listener` in the index to exactly these bubles. */
  const index = (listener: Listener, bubles: Set<string>) => {
    for (const id of listener.bubles) {
      if (bubles.has(id)) continue
      const members = byBuble.get(id)
      members?.delete(listener)
      if (members?.size === 0) byBuble.delete(id)
    }
    for (const id of bubles) {
      if (listener.bubles.has(id)) continue
      const members = byBuble.get(id)
      if (members) members.add(listener)
      else byBuble.set(id, new Set([listener]))
    }
    listener.bubles = bubles
  }

  /** Reads the user's bubles again; one query for all their streams. */
  const reload = (listener: Listener): Promise<void> => {
    const generation = ++listener.generation
    const loading = bublesOf(listener.userId)
      .then((bubles) => {
        // A later reload (another join or leave heard meanwhile) read later; a user whose streams
        // all closed is out of the index.
        if (generation !== listener.generation || listeners.get(listener.userId) !== listener) return
        index(listener, bubles)
        listener.loaded = true
      })
      .finally(() => {
        if (listener.loading === loading) listener.loading = undefined
      })
    listener.loading = loading
    // Whoever needs the answer awaits it (`settled`); a failed reload keeps the bubles as they were.
    loading.catch(() => {})
    return loading
  }

  const write = (listener: Listener, bytes: Uint8Array) => {
    for (const stream of listener.streams) if (stream.ready) stream.write(bytes)
  }

  const hear = (event: BusEvent) => {
    if ('lost' in event) return
    if ('resync' in event) {
      for (const listener of listeners.values()) {
        // Revocations may have been missed as well as pokes.
        for (const stream of listener.streams) stream.recheck()
        write(listener, RESYNC)
      }
      return
    }
    const bytes = encodeEvent('poke', { buble_id: event.buble_id, entity: event.entity })
    if (event.user_id) {
      const listener = listeners.get(event.user_id)
      if (!listener) return
      if (event.entity !== 'buble') return write(listener, bytes)
      // Joined or lost a buble: follow its pokes from now on (or stop), then tell the device.
      reload(listener)
        .catch((err) => log.warn('stream could not reload bubles', { err }))
        .then(() => write(listener, bytes))
      return
    }
    const members = byBuble.get(event.buble_id)
    if (members) for (const listener of members) write(listener, bytes)
  }

  const unsubscribe = bus.subscribe(hear)
  // A session signed out: that session's streams check their token (and end); the user's others are left alone.
  const stopRevoked = bus.onRevoked((userId, sessionId) => {
    const listener = listeners.get(userId)
    if (!listener) return
    for (const stream of listener.streams) if (!sessionId || stream.sessionId === sessionId) stream.recheck()
  })

  return {
    join(stream) {
      let listener = listeners.get(stream.userId)
      if (!listener) {
        listener = new Listener(stream.userId)
        listeners.set(stream.userId, listener)
        reload(listener)
      }
      listener.streams.add(stream)
    },
    async settled(stream) {
      const listener = listeners.get(stream.userId)
      if (!listener) throw new Error('the stream left')
      // A first read that failed is tried again for the next stream of that user.
      if (!listener.loaded && !listener.loading) reload(listener)
      while (listener.loading) await listener.loading
    },
    leave(stream) {
      const listener = listeners.get(stream.userId)
      if (!listener?.streams.delete(stream) || listener.streams.size > 0) return
      listeners.delete(stream.userId)
      index(listener, new Set())
    },
    close() {
      unsubscribe()
      stopRevoked()
    },
  }
}
