/**
 * Keeps sync's bookkeeping from growing without end: idempotency records and tombstones older than
 * 90 days go. A device whose cursor is older than the purged tombstones may have missed deletes:
 * the horizon records how far the purge went, and such a cursor is answered `reset` (its device
 * pulls everything again; its outbox is kept). A mutation replayed after 90 days is no longer
 * known as a duplicate; creates still are, by their client-chosen id.
 */

import { sql } from 'drizzle-orm'
import type { Job } from '../../lib/jobs.ts'
import { announceResync } from '../../lib/sync-writes.ts'

export const SYNC_RETENTION_MS = 90 * 24 * 60 * 60 * 1000

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows

export const syncMaintenanceJob: Job = {
  name: 'sync-maintenance',
  lockKey: 4_201_102,
  async run(tx, now) {
    const cutoff = new Date(now.getTime() - SYNC_RETENTION_MS)
    await tx.execute(sql`delete from applied_mutations where created_at < ${cutoff}`)
    const [purged] = rowsOf<{ horizon: string | null }>(
      await tx.execute(sql`with gone as (delete from sync_tombstones where created_at < ${cutoff} returning version)
        select max(version) as horizon from gone`),
    )
    if (!purged?.horizon) return
    await tx.execute(sql`insert into sync_meta (key, value) values ('horizon', ${purged.horizon})
      on conflict (key) do update set value = greatest(sync_meta.value::bigint, excluded.value::bigint)::text`)
    await announceResync(tx)
  },
}
