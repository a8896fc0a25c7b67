/**
 * Pokes from every API process to the live streams of this one. Writers send them with NOTIFY in
 * their transaction (lib/sync-writes.ts); this is the listening half: one LISTEN per process, fanned
 * out in memory to the streams open here. Revoked tokens travel the same way (lib/revocations.ts),
 * to their own listeners: they are no poke.
 */

import { ENTITIES } from '@buble/shared/entities'
import { z } from 'zod'
import type { Database } from '../db/client.ts'
import type { Logger } from './log.ts'
import { type Poke, SYNC_CHANNEL } from './sync-writes.ts'

/**
 * A poke; `lost`: pokes may be missed from now on (the listening connection dropped); `resync`: it
 * is back and pokes may have been missed meanwhile, so every stream should pull once.
 */
export type BusEvent = Poke | { resync: true } | { lost: true }

export interface ChangeBus {
  subscribe(listener: (event: BusEvent) => void): () => void
  /**
   * Hears that a user's tokens were revoked, in any process (after the commit): all of them, or with
   * `sessionId`, that session's alone (signed out, decision 103). Answers how to stop.
   */
  onRevoked(listener: (userId: string, sessionId?: string) => void): () => void
  close(): Promise<void>
}

const Payload = z.array(
  z.union([
    z.object({ buble_id: z.string(), entity: z.enum(ENTITIES), user_id: z.string().optional() }).strict(),
    z.object({ resync: z.literal(true) }).strict(),
    z.object({ revoked: z.string(), session: z.string().optional() }).strict(),
  ]),
)

export async function createChangeBus(database: Database, log: Logger): Promise<ChangeBus> {
  const listeners = new Set<(event: BusEvent) => void>()
  const revokedListeners = new Set<(userId: string, sessionId?: string) => void>()
  const tell = <T>(to: Iterable<(value: T) => void>, value: T) => {
    for (const listener of to) {
      try {
        listener(value)
      } catch (err) {
        log.error('poke listener failed', { err })
      }
    }
  }
  const emit = (event: BusEvent) => tell(listeners, event)
  const unlisten = await database.listen(
    SYNC_CHANNEL,
    (payload) => {
      let pokes: z.infer<typeof Payload>
      try {
        pokes = Payload.parse(JSON.parse(payload))
      } catch (err) {
        log.warn('unreadable poke', { err })
        return
      }
      for (const poke of pokes) {
        if ('revoked' in poke) {
          for (const listener of revokedListeners) {
            try {
              listener(poke.revoked, poke.session)
            } catch (err) {
              log.error('revocation listener failed', { err })
            }
          }
        } else emit(poke)
      }
    },
    () => {
      log.warn('poke listener reconnected; streams resync')
      emit({ resync: true })
    },
    () => {
      log.warn('poke listener lost its connection; reconnecting')
      emit({ lost: true })
    },
  )
  return {
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    onRevoked(listener) {
      revokedListeners.add(listener)
      return () => revokedListeners.delete(listener)
    },
    async close() {
      listeners.clear()
      revokedListeners.clear()
      await unlisten()
    },
  }
}
