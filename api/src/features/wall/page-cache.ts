/**
 * Wall pages kept in memory per process, as PostgreSQL built them, until a poke for their buble
 * says something there changed (a post, comment, reaction or member: lib/poke-cache.ts). A page is
 * the same for every member, so one copy serves them all; whether the caller is a member is
 * remembered separately, per caller and buble, and forgotten on a poke for either.
 */

import { sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { bubleNotFound } from '../../lib/memberships.ts'
import { createPokeCache } from '../../lib/poke-cache.ts'
import type { PokeClock } from '../../lib/poke-clock.ts'
import { POST_JSON } from './queries.ts'

/** A page of posts: JSON text straight from PostgreSQL, whether an older page has posts, and the answer's bytes. */
export interface PostPage {
  postsJson: string
  page: number
  hasMore: boolean
  /** `{posts, page, hasMore}` encoded once, for every member who asks for this page until it changes. */
  body: Uint8Array
}

const MiB = 1024 * 1024
const encoder = new TextEncoder()

export function wallPages(db: Db, pokes: PokeClock) {
  const members = createPokeCache<true>(pokes, { maxEntries: 50_000 })
  // The text and its bytes are both kept.
  const pages = createPokeCache<PostPage>(pokes, {
    maxEntries: 100_000,
    maxBytes: 64 * MiB,
    sizeOf: (page) => page.body.byteLength * 2,
  })

  // The page statement: membership check, the buble's post count and the page's posts as JSON in
  // one round trip. Page k of size l holds positions (n − k·l, n − (k−1)·l]: an index range read.
  const newest = sql`(select coalesce(max(position), 0) from posts where buble_id = m.buble_id)`
  const statement = db
    .select({
      total: sql<number>`${newest}`.as('total'),
      posts: sql<string>`(select coalesce(json_agg(x.data order by x.position desc), '[]'::json)::text from (
        select p.position, ${sql.raw(POST_JSON)} as data from posts p join users u on u.id = p.author_id
        where p.buble_id = m.buble_id
          and p.position <= ${newest} - ${sql.placeholder('skip')}::int
          and p.position > ${newest} - ${sql.placeholder('skip')}::int - ${sql.placeholder('take')}::int) x)`.as(
        'posts',
      ),
    })
    .from(sql`memberships m`)
    .where(sql`m.buble_id = ${sql.placeholder('bubleId')}::uuid and m.user_id = ${sql.placeholder('userId')}::uuid`)
    .prepare('wall_page')

  return {
    /** Page `pageNumber` of `limit` posts, newest first; 404 for a non-member. */
    async page(userId: string, bubleId: string, pageNumber: number, limit: number): Promise<PostPage> {
      const skip = (pageNumber - 1) * limit
      const memberKey = `${userId}:${bubleId}`
      const pageKey = `${bubleId}:${skip}:${limit}`
      const kept = members.get(memberKey) && pages.get(pageKey)
      if (kept) return kept
      // One statement answers both: a miss of either reads the page again.
      const since = pokes.mark()
      const [row] = await statement.execute({ bubleId, userId, skip, take: limit })
      if (!row) throw bubleNotFound()
      const hasMore = Number(row.total) - skip - limit > 0
      const page = {
        postsJson: row.posts,
        page: pageNumber,
        hasMore,
        body: encoder.encode(`{"posts":${row.posts},"page":${pageNumber},"hasMore":${hasMore}}`),
      }
      members.set(memberKey, true, since, bubleId, userId)
      pages.set(pageKey, page, since, bubleId)
      return page
    },

    close(): void {
      members.close()
      pages.close()
    },
  }
}
