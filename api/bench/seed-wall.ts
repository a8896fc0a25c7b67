/**
 * Seeds a buble's wall straight into PostgreSQL for the load tests: posts by the buble's members
 * (positions 1…n, oldest first, as the service numbers them), with comments and reactions on each.
 */

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
  await seedTransaction(ctx.databaseUrl, 'vacuum analyze posts, comments, post_reactions', async (client) => {
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
       from (select g, buble_next_version() as v from generate_series(1, $2) g) s
       join authors a on a.k = 1 + (g % $3)`,
      [bubleId, posts, authors],
    )
    await client.query(
      `insert into comments (id, post_id, buble_id, author_id, content, created_at)
       select gen_random_uuid(), p.id, p.buble_id, a.user_id, 'Seeded comment ' || c, p.created_at + c * interval '1 second'
       from posts p cross join generate_series(1, $2) c
       join authors a on a.k = 1 + ((p.position + c) % $3)
       where p.buble_id = $1`,
      [bubleId, commentsPerPost, authors],
    )
    await client.query(`update posts set comments_count = $2 where buble_id = $1`, [bubleId, commentsPerPost])
    await client.query(
      `insert into post_reactions (post_id, user_id, type)
       select p.id, a.user_id, (array['like','love','laugh','wow','sad','angry'])[1 + ((p.position + r) % 6)]
       from posts p cross join generate_series(1, $2) r
       join authors a on a.k = 1 + ((p.position * 7 + r) % $3)
       where p.buble_id = $1
       on conflict do nothing`,
      [bubleId, reactionsPerPost, authors],
    )
    await client.query(`update bubles set changed_version = buble_next_version() where id = $1`, [bubleId])
  })
}
