/** The content kits of the wall's two tables (lib/content-kit.ts): posts and comments. */

import { WALL_MESSAGES } from '@buble/shared/wall'
import { comments, posts } from '../../db/schema.ts'
import { contentKit } from '../../lib/content-kit.ts'
import { notFound } from '../../lib/errors.ts'

/** Posts and comments alike: their author edits; the author or delete_others_content deletes. */
const refusals = { 'content.edit': WALL_MESSAGES.onlyAuthorEdits, 'content.delete': WALL_MESSAGES.notAllowedToDelete }

export const postKit = contentKit({
  table: posts,
  kind: 'post',
  notFound: () => notFound(WALL_MESSAGES.postNotFound),
  authorOf: (post) => post.authorId,
  refusals,
})
export const commentKit = contentKit({
  table: comments,
  kind: 'comment',
  notFound: () => notFound(WALL_MESSAGES.commentNotFound),
  authorOf: (comment) => comment.authorId,
  refusals,
})
