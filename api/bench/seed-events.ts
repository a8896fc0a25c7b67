/**
 * Seeds a buble's events and polls straight into PostgreSQL for the load tests: events and polls
 * by the buble's members, four options a poll, and every member answering `perMember` events and
 * voting in `perMember` polls, with the totals the service would have kept.
 */

import type { DeviceContext } from './device.ts'
import { seedTransaction } from './seed.ts'

const RSVP = `(array['going','maybe','cant_go'])`

export async function seedEventsAndPolls(
  ctx: DeviceContext,
  bubleId: string,
  { events, polls, perMember = 20 }: { events: number; polls: number; perMember?: number },
): Promise<void> {
  const maintenance = 'vacuum analyze events, event_rsvps, polls, poll_options, poll_votes'
  await seedTransaction(ctx.databaseUrl, maintenance, async (client) => {
    await client.query(
      `create temporary table people on commit drop as
       select row_number() over (order by user_id) as k, user_id from memberships where buble_id = $1`,
      [bubleId],
    )
    const { rows } = await client.query<{ n: string }>('select count(*) as n from people')
    const people = Number(rows[0]?.n ?? 0)
    await client.query(
      `insert into events (id, buble_id, creator_id, title, description, location, event_time, created_at, updated_at, added_version, version)
       select gen_random_uuid(), $1, p.user_id, 'Seeded event ' || g, 'What to bring for event ' || g || ': ' || repeat('snacks ', 4),
              'Community hall ' || (g % 7), now() + (g - $2 / 2) * interval '3 hours', now(), now(), v, v
       from (select g, buble_next_version() as v from generate_series(1, $2) g) s
       join people p on p.k = 1 + (g % $3)`,
      [bubleId, events, people],
    )
    await client.query(
      `insert into polls (id, buble_id, creator_id, question, created_at, added_version, version)
       select gen_random_uuid(), $1, p.user_id, 'Seeded question ' || g || '?', now() - ($2 - g) * interval '1 minute', v, v
       from (select g, buble_next_version() as v from generate_series(1, $2) g) s
       join people p on p.k = 1 + (g % $3)`,
      [bubleId, polls, people],
    )
    await client.query(
      `insert into poll_options (id, poll_id, option_text, position)
       select gen_random_uuid(), p.id, 'Option ' || o, o - 1 from polls p cross join generate_series(1, 4) o where p.buble_id = $1`,
      [bubleId],
    )
    // Member k answers the events (and polls) numbered k·7 + i for i < perMember, spread over the list.
    await client.query(
      `with e as (select id, row_number() over (order by event_time) as n from events where buble_id = $1)
       insert into event_rsvps (event_id, user_id, status)
       select e.id, p.user_id, ${RSVP}[1 + ((p.k + i) % 3)]
       from people p cross join generate_series(0, $2 - 1) i join e on e.n = 1 + ((p.k * 7 + i * 97) % $3)
       on conflict do nothing`,
      [bubleId, perMember, events],
    )
    await client.query(
      `with q as (select id, row_number() over (order by added_version) as n from polls where buble_id = $1)
       insert into poll_votes (poll_id, user_id, option_id)
       select q.id, p.user_id, (select o.id from poll_options o where o.poll_id = q.id and o.position = (p.k + i) % 4)
       from people p cross join generate_series(0, $2 - 1) i join q on q.n = 1 + ((p.k * 7 + i * 97) % $3)
       on conflict do nothing`,
      [bubleId, perMember, polls],
    )
    await client.query(
      `update poll_options o set votes_count = (select count(*) from poll_votes v where v.option_id = o.id)
       from polls p where p.id = o.poll_id and p.buble_id = $1`,
      [bubleId],
    )
    await client.query(
      `update polls p set total_votes = (select count(*) from poll_votes v where v.poll_id = p.id) where p.buble_id = $1`,
      [bubleId],
    )
    await client.query(`update bubles set changed_version = buble_next_version() where id = $1`, [bubleId])
  })
}
