/**
 * Reads of posts and comments in their answer shapes (CONTRACT §3.3). PostgreSQL builds
 * the JSON: a page of posts with authors, reactions and counts is one statement, whatever the page.
 */

import type { Comment, Post } from '@buble/shared/wall'
import { sql } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { posts } from '../../db/schema.ts'
import { loader } from '../../lib/json-loader.ts'
import { isoJson, jsonObject, memberRefJson, reactionsJson, rowsOf } from '../../lib/sql-json.ts'

export { rowsOf }

/** The JSON of one post `p` by author `u`, as REST answers it. */
export const POST_JSON = jsonObject<Post>({
  id: 'p.id',
  buble_id: 'p.buble_id',
  content: 'p.content',
  author_id: 'p.author_id',
  author_name: 'u.name',
  author: memberRefJson('u'),
  created_at: isoJson('p.created_at'),
  is_edited: 'p.is_edited',
  image_url: 'p.image_url',
  link_url: 'p.link_url',
  link_title: 'p.link_title',
  link_description: 'p.link_description',
  link_image: 'p.link_image',
  ...reactionsJson('post_reactions', 'post_id', 'p.id'),
  commentsCount: 'p.comments_count',
  pinned_at: isoJson('p.pinned_at'),
})

export const COMMENT_JSON = jsonObject<Comment>({
  id: 'c.id',
  post_id: 'c.post_id',
  buble_id: 'c.buble_id',
  content: 'c.content',
  author: memberRefJson('u'),
  author_name: 'u.name',
  created_at: isoJson('c.created_at'),
  isEdited: 'c.is_edited',
})

/**
 * The JSON of the rows `written` (a data-modifying WITH returning whole posts rows) as REST
 * answers them: new posts have no reactions or comments yet.
 */
export const writtenPostsJson = (written: string) =>
  sql.raw(`select p.id, ${POST_JSON} as data from ${written} p join users u on u.id = p.author_id`)

export const loadPosts = loader<Post>('posts', 'p', POST_JSON)
export const loadComments = loader<Comment>('comments', 'c', COMMENT_JSON)

export async function loadPost(db: Executor, id: string): Promise<Post> {
  const post = (await loadPosts(db, [id])).get(id)
  if (!post) throw new Error(`post ${id} vanished`)
  return post
}

export async function loadComment(db: Executor, id: string): Promise<Comment> {
  const comment = (await loadComments(db, [id])).get(id)
  if (!comment) throw new Error(`comment ${id} vanished`)
  return comment
}

/** The comments of a post, oldest first. */
export async function commentsOf(db: Executor, postId: string): Promise<Comment[]> {
  const rows = rowsOf<{ data: Comment }>(
    await db.execute(sql`select ${sql.raw(COMMENT_JSON)} as data from comments c join users u on u.id = c.author_id
      where c.post_id = ${postId} order by c.created_at, c.id`),
  )
  return rows.map((row) => row.data)
}

/** The pinned posts of a buble, the newest pin first (issue 23 §5). */
export async function pinnedPosts(db: Executor, bubleId: string): Promise<Post[]> {
  const rows = rowsOf<{ data: Post }>(
    await db.execute(sql`select ${sql.raw(POST_JSON)} as data from posts p join users u on u.id = p.author_id
      where p.buble_id = ${bubleId} and p.pinned_at is not null order by p.pinned_at desc, p.id desc`),
  )
  return rows.map((row) => row.data)
}

/** How many posts of a buble are pinned. */
export async function pinnedCount(db: Executor, bubleId: string): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from posts where buble_id = ${bubleId} and pinned_at is not null`),
  )
  return Number(row?.n ?? 0)
}

/** The position a new post of the buble takes, as an SQL expression (read as it is inserted, with the buble held). */
export const nextPosition = (bubleId: string) =>
  sql<number>`(select coalesce(max(position), 0) + 1 from posts where buble_id = ${bubleId})`

/** Post ids whose preview is owed for longer than `olderThan` (a process stopped before fetching it). */
export async function owedPreviews(db: Executor, olderThan: Date, limit = 20): Promise<{ id: string; url: string }[]> {
  const rows = await db
    .select({ id: posts.id, url: posts.linkUrl })
    .from(posts)
    .where(sql`${posts.linkUrl} is not null and ${posts.linkFetchedAt} is null and ${posts.createdAt} < ${olderThan}`)
    .limit(limit)
  return rows.map((row) => ({ id: row.id, url: row.url as string }))
}
