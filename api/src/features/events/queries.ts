/**
 * Events in their answer shapes (CONTRACT §3.3), built by PostgreSQL: a list with every
 * RSVP is one statement, never a query per row.
 */

import type { BubleEvent, Rsvp } from '@buble/shared/events'
import { type SQL, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { isoJson, jsonObject, memberRefJson, rowsOf } from '../../lib/sql-json.ts'
import { pgUuidArray } from '../../lib/sync-writes.ts'

/** The JSON of event `e` made by `u`; RSVPs in the order they were first given. */
export const EVENT_JSON = jsonObject<BubleEvent>({
  id: 'e.id',
  buble_id: 'e.buble_id',
  title: 'e.title',
  description: 'e.description',
  location: 'e.location',
  event_time: isoJson('e.event_time'),
  creator_id: 'e.creator_id',
  creator: memberRefJson('u'),
  created_at: isoJson('e.created_at'),
  external_url: 'e.external_url',
  external_source: 'e.external_source',
  recurrence: 'e.recurrence',
  exdates: `(select coalesce(json_agg(${isoJson('d')} order by d), '[]'::json) from unnest(e.exdates) d)`,
  series_id: 'e.series_id',
  recurrence_id: isoJson('e.recurrence_id'),
  rsvps: `coalesce((select json_agg(${jsonObject<Rsvp>({ user_id: 'r.user_id', status: 'r.status', user: "json_build_object('name', ru.name)", occurrence: "nullif(r.occurrence, '')" })}
      order by r.occurrence, r.created_at, r.user_id)
    from event_rsvps r join users ru on ru.id = r.user_id where r.event_id = e.id), '[]'::json)`,
})

/** Every event of buble `bubleId` (an SQL expression), soonest first, as one JSON text. */
export const eventListJson = (
  bubleId: SQL,
) => sql`(select coalesce(json_agg(x.data order by x.event_time, x.id), '[]'::json)::text
  from (select e.event_time, e.id, ${sql.raw(EVENT_JSON)} as data
    from events e join users u on u.id = e.creator_id where e.buble_id = ${bubleId}) x)`

export async function loadEvents(db: Executor, ids: readonly string[]): Promise<Map<string, BubleEvent>> {
  if (ids.length === 0) return new Map()
  const rows = rowsOf<{ data: BubleEvent }>(
    await db.execute(sql`select ${sql.raw(EVENT_JSON)} as data from events e join users u on u.id = e.creator_id
      where e.id = any(${pgUuidArray(ids)})`),
  )
  return new Map(rows.map(({ data }) => [data.id, data]))
}

export async function loadEvent(db: Executor, id: string): Promise<BubleEvent> {
  const event = (await loadEvents(db, [id])).get(id)
  if (!event) throw new Error(`event ${id} vanished`)
  return event
}
