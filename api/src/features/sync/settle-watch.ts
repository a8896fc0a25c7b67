/**
 * Pulls that stopped short of committed changes (a write still in flight held them back, decision
 * 91) are owed a poke: the watch reads the settled version every `intervalMs` while someone waits,
 * and once it passes what a user was waiting for, pokes that user's devices on every node (NOTIFY),
 * so they pull again. Nothing waits when no pull was held back: no timer, no query.
 */

import { sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import type { Logger } from '../../lib/log.ts'
import { notifyPokes, type Poke, SETTLED_VERSION } from '../../lib/sync-writes.ts'

/** The poke's buble when the held-back change is the user's own (a buble they lost): any id will do. */
const NO_BUBLE = '00000000-0000-0000-0000-000000000000'

export interface SettleWatch {
  /** `userId`'s devices are to pull again once versions up to `version` have settled. */
  add(userId: string, bubleId: string | null, version: number): void
  close(): void
}

export function createSettleWatch(db: Db, log: Logger, intervalMs = 50): SettleWatch {
  const waiting = new Map<string, { bubleId: string; version: number }>()
  let timer: NodeJS.Timeout | undefined
  let closed = false

  async function tick() {
    timer = undefined
    try {
      const result = await db.execute<{ v: string }>(sql`select ${SETTLED_VERSION} as v`)
      const settled = Number((result as unknown as { rows: { v: string }[] }).rows[0]!.v)
      const pokes: Poke[] = []
      for (const [userId, wait] of waiting)
        if (wait.version <= settled) {
          waiting.delete(userId)
          pokes.push({ buble_id: wait.bubleId, entity: 'unread', user_id: userId })
        }
      if (pokes.length > 0) await notifyPokes(db, pokes)
    } catch (err) {
      // The next tick tries again; the users stay on the list.
      log.warn('settle watch could not read the settled version', { err })
    }
    schedule()
  }

  function schedule() {
    if (closed || timer || waiting.size === 0) return
    timer = setTimeout(() => void tick(), intervalMs)
    timer.unref()
  }

  return {
    add(userId, bubleId, version) {
      const known = waiting.get(userId)
      if (!known || known.version < version) waiting.set(userId, { bubleId: bubleId ?? NO_BUBLE, version })
      schedule()
    },
    close() {
      closed = true
      if (timer) clearTimeout(timer)
      waiting.clear()
    },
  }
}
