/** Wall rows as the server sends them, for component tests. */

import type { Comment, Post } from '@buble/shared/wall'
import { person, putChange as put } from './fixtures.ts'

let count = 0
const nextId = (kind: string) => `0190f5b4-3${kind}00-7000-8000-${String(++count).padStart(12, '0')}`

/** A post by `author` (a name), `minutesAgo` before `now`. */
export function makePost(
  bubleId: string,
  author: string,
  content: string,
  minutesAgo: number,
  overrides: Partial<Post> = {},
  now = Date.now(),
): Post {
  const ref = person(author)
  return {
    id: nextId('1'),
    buble_id: bubleId,
    content,
    author_id: ref.id,
    author_name: ref.name,
    author: ref,
    created_at: new Date(now - minutesAgo * 60_000).toISOString(),
    is_edited: false,
    image_url: null,
    link_url: null,
    link_title: null,
    link_description: null,
    link_image: null,
    reactions: {},
    reactionsSummary: {},
    commentsCount: 0,
    pinned_at: null,
    ...overrides,
  }
}

export function makeComment(post: Post, author: string, content: string, minutesAgo: number): Comment {
  const ref = person(author)
  return {
    id: nextId('2'),
    post_id: post.id,
    buble_id: post.buble_id,
    content,
    author: ref,
    author_name: ref.name,
    created_at: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    isEdited: false,
  }
}

export const postChange = (post: Post) => put('post', post)
export const commentChange = (comment: Comment) => put('comment', comment)
