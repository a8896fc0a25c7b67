/**
 * Who in a buble gets its Web Push: the members with push on and the buble not muted, with their
 * subscriptions, beside the buble's name and slug (CONTRACT §5). Every new message, post, event,
 * poll and member asks; a busy chat asked for every group of messages, a statement as costly as the
 * message's own write. So each process keeps them (`lib/kept-reads.ts`, decision 54) until a table
 * they read changes: the triggers of migration 0010 NOTIFY every process of any write to them (any
 * code, plain SQL too), and this process's own changes of subscriptions and preferences drop them
 * at once (`forget`). Content of the same turn still reads the audiences it misses in one statement.
 */

import DataLoader from 'dataloader'
import { sql } from 'drizzle-orm'
import { executeNamed } from '../../db/client.ts'
import type { Deps } from '../../deps.ts'
import { createListCache, listenForTableChanges } from '../../lib/kept-reads.ts'
import { pgUuidArray } from '../../lib/sync-writes.ts'

/** The channel migration 0010's triggers notify, with the changed table's name as payload. */
export const PUSH_AUDIENCE_CHANNEL = 'buble_push_audience'

export interface Recipient {
  id: string
  user_id: string
  endpoint: string
  p256dh: string
  auth: string
}

export interface Audience {
  name: string
  slug: string
  subscriptions: Recipient[]
}

const MiB = 1024 * 1024
/** Every audience depends on the same tables: one list, dropped whole by any change. */
const LIST = 'audience'

export type PushAudiences = ReturnType<typeof pushAudiences>

export function pushAudiences({ db, database, log, now }: Pick<Deps, 'db' | 'database' | 'log' | 'now'>) {
  let reads = 0
  /** The audiences missed in one turn, read in one prepared statement. */
  const loader = new DataLoader<string, Audience | null>(
    async (bubleIds) => {
      reads += 1
      const rows = await executeNamed<{ id: string; name: string; slug: string; subscriptions: Recipient[] | string }>(
        db,
        'push_audiences',
        sql`select b.id, b.name, b.slug, coalesce((
            select json_agg(json_build_object('id', s.id, 'user_id', s.user_id, 'endpoint', s.endpoint,
              'p256dh', s.p256dh, 'auth', s.auth))
            from push_subscriptions s
            join memberships m on m.user_id = s.user_id and m.buble_id = b.id
            join users u on u.id = s.user_id
            where u.push_enabled and u.status = 'active'
              and not exists (select 1 from push_mutes pm where pm.user_id = s.user_id and pm.buble_id = b.id)
          ), '[]'::json) as subscriptions
          from bubles b where b.id = any(${pgUuidArray([...new Set(bubleIds)])})`,
      )
      const byId = new Map(
        rows.map(({ id, name, slug, subscriptions }) => [
          id,
          { name, slug, subscriptions: typeof subscriptions === 'string' ? JSON.parse(subscriptions) : subscriptions },
        ]),
      )
      return bubleIds.map((id) => byId.get(id) ?? null)
    },
    { cache: false },
  )
  const kept = createListCache<typeof LIST, Audience | null>({
    maxEntries: 10_000,
    maxBytes: 64 * MiB,
    // The safety net should a change ever go unheard.
    maxAgeMs: 10 * 60_000,
    now: () => now().getTime(),
  })
  const stop = listenForTableChanges(database, PUSH_AUDIENCE_CHANNEL, () => [LIST], kept, log, 'push audience')

  return {
    /** The buble's audience (null: no such buble), kept or read. */
    load: (bubleId: string): Promise<Audience | null> =>
      kept.getOrLoad(bubleId, LIST, async () => {
        const value = await loader.load(bubleId)
        // About what it holds in memory: its strings, and a little for each object.
        let bytes = 200
        for (const s of value?.subscriptions ?? []) bytes += 200 + s.endpoint.length + s.p256dh.length + s.auth.length
        return { value, bytes }
      }),
    /** Something an audience reads changed here: none is kept, and reads under way are not kept. */
    forget: () => kept.changed([LIST]),
    /** How many audience statements ran (tests). */
    reads: () => reads,
    close: () => {
      kept.close()
      return stop()
    },
  }
}
