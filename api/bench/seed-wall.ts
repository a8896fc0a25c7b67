/**
 * Seeds a buble's wall straight into PostgreSQL for the load tests: posts by the buble's members
 * (positions 1…n, oldest first, as the service numbers them), with comments and reactions on each,
 * in transactions of at most ~60,000 versioned rows each (one transaction may take 64,511 in SQL,
 * decision 91).
 */

const VERSIONS_PER_SEED_TRANSACTION = 60_000

import type { DeviceContext } from './device.ts'
import { seedTransaction } from './seed.ts'

export async function seedWall(
  ctx: DeviceContext,
  bubleId: string,
  {
    posts,
    commentsPerPost = 2,
    reactionsPerPost = 3,
  }: { posts: number; commentsPerPost?: number; reactionsPerPost?: number },
): Promise<void> {
  const chunk = Math.max(1, Math.floor(VERSIONS_PER_SEED_TRANSACTION / (1 + commentsPerPost)))
  for (let from = 1; from <= posts; from += chunk) {
    const to = Math.min(posts, from + chunk - 1)
    const last = to === posts
    await seedChunk(ctx, bubleId, { posts, from, to, commentsPerPost, reactionsPerPost }, last)
  }
}

async function seedChunk(
  ctx: DeviceContext,
  bubleId: string,
  {
    posts,
    from,
    to,
    commentsPerPost,
    reactionsPerPost,
  }: { posts: number; from: number; to: number; commentsPerPost: number; reactionsPerPost: number },
  last: boolean,
): Promise<void> {
  const maintenance = last ? 'vacuum analyze posts, comments, post_reactions' : 'select 1'
  await seedTransaction(ctx.databaseUrl, maintenance, async (client) => {
    // Authors: the buble's members other than the bench user, in turn.
    await client.query(
      `create temporary table authors on commit drop as
       select row_number() over (order by user_id) as k, user_id from memberships
       where buble_id = $1 and user_id <> $2`,
      [bubleId, ctx.userId],
    )
    const { rows } = await client.query<{ n: string }>('select count(*) as n from authors')
    const authors = Number(rows[0]?.n ?? 0)
    if (authors === 0) throw new Error('the buble needs members besides the bench user')
    await client.query(
      `insert into posts (id, buble_id, author_id, content, position, created_at, added_version, version)
       select gen_random_uuid(), $1, a.user_id,
              'Seeded post number ' || g || ': ' || repeat('lorem ipsum ', 8),
              g, now() - ($2 - g) * interval '1 minute', v, v
       from (select g, buble_next_version() as v from generate_series($4::int, $5::int) g) s
       join authors a on a.k = 1 + (g % $3)`,
      [bubleId, posts, authors, from, to],
    )
    await client.query(
      `insert into comments (id, post_id, buble_id, author_id, content, created_at)
       select gen_random_uuid(), p.id, p.buble_id, a.user_id, 'Seeded comment ' || c, p.created_at + c * interval '1 second'
       from posts p cross join generate_series(1, $2) c
       join authors a on a.k = 1 + ((p.position + c) % $3)
       where p.buble_id = $1 and p.position between $4 and $5`,
      [bubleId, commentsPerPost, authors, from, to],
    )
    await client.query(`update posts set comments_count = $2 where buble_id = $1 and position between $3 and $4`, [
      bubleId,
      commentsPerPost,
      from,
      to,
    ])
    await client.query(
      `insert into post_reactions (post_id, user_id, type)
       select p.id, a.user_id, (array['like','love','laugh','wow','sad','angry'])[1 + ((p.position + r) % 6)]
       from posts p cross join generate_series(1, $2) r
       join authors a on a.k = 1 + ((p.position * 7 + r) % $3)
       where p.buble_id = $1 and p.position between $4 and $5
       on conflict do nothing`,
      [bubleId, reactionsPerPost, authors, from, to],
    )
    await client.query(`update bubles set changed_version = buble_next_version() where id = $1`, [bubleId])
  })
}
