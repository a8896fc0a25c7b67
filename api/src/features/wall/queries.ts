/**
 * Reads of posts and comments in their answer shapes (CONTRACT §3.3). PostgreSQL builds
 * the JSON: a page of posts with authors, reactions and counts is one statement, whatever the page.
 */

import type { Comment, Post } from '@buble/shared/wall'
import type { Executor } from '../../db/client.ts'
import { loader } from '../../lib/json-loader.ts'
import { isoJson as iso, reactionsJson, rowsOf } from '../../lib/sql-json.ts'

export { rowsOf }

/** The JSON of one post `p` by author `u`, as REST answers it. */
export const POST_JSON = `json_build_object(
  'id', p.id, 'buble_id', p.buble_id, 'content', p.content,
  'author_id', p.author_id, 'author_name', u.name,
  'author', json_build_object('id', u.id, 'name', u.name, 'avatar_url', u.avatar_url),
  'created_at', ${iso('p.created_at')}, 'is_edited', p.is_edited, 'image_url', p.image_url,
  'link_url', p.link_url, 'link_title', p.link_title, 'link_description', p.link_description,
  'link_image', p.link_image,
  ${reactionsJson('post_reactions', 'post_id', 'p.id')},
  'commentsCount', p.comments_count)`

export const COMMENT_JSON = `json_build_object(
  'id', c.id, 'post_id', c.post_id, 'buble_id', c.buble_id, 'content', c.content,
  'author', json_build_object('id', u.id, 'name', u.name, 'avatar_url', u.avatar_url),
  'author_name', u.name, 'created_at', ${iso('c.created_at')}, 'isEdited', c.is_edited)`

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
