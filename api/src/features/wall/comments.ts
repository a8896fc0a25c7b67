/**
 * What members add under a post: comments and reactions. Each moves the post's version too (its data
 * carries its comment count and reactions), so a device pulling the post sees them change.
 */

import type { Comment, ReactionType } from '@buble/shared/wall'
import { and, eq, sql } from 'drizzle-orm'
import { v7 as uuidv7 } from 'uuid'
import { comments, postReactions, posts } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import type { UserRow } from '../../lib/accounts.ts'
import type { ContentAddedBus } from '../../lib/content-added.ts'
import type { Created } from '../../lib/entity-ids.ts'
import { mention } from '../../lib/mentions.ts'
import { syncWrite } from '../../lib/sync-writes.ts'
import { commentKit, postKit } from './kits.ts'
import { commentsOf, loadComment, loadPost } from './queries.ts'

export function commentsAndReactions({ db, now }: Deps, contentAdded: ContentAddedBus) {
  async function setReaction(user: UserRow, postId: string, type: ReactionType, on: boolean) {
    return syncWrite(db, async (w) => {
      const { row: post } = await postKit.forWriter(w.tx, postId, user.id, now())
      const changed = on
        ? await w.tx
            .insert(postReactions)
            .values({ postId, userId: user.id, type, createdAt: now() })
            .onConflictDoNothing()
            .returning({ type: postReactions.type })
        : await w.tx
            .delete(postReactions)
            .where(
              and(eq(postReactions.postId, postId), eq(postReactions.userId, user.id), eq(postReactions.type, type)),
            )
            .returning({ type: postReactions.type })
      // Idempotent: nothing new, nothing to send.
      if (changed.length > 0) await postKit.touch(w, post)
      const { reactions, reactionsSummary } = await loadPost(w.tx, postId)
      return { reactions, reactionsSummary }
    })
  }

  return {
    async listComments(user: UserRow, postId: string): Promise<Comment[]> {
      await postKit.forMember(db, postId, user.id)
      return commentsOf(db, postId)
    },

    async createComment(
      user: UserRow,
      postId: string,
      body: { id?: string; content: string },
    ): Promise<Created<Comment>> {
      return syncWrite(db, async (w) => {
        const { row: post } = await postKit.forWriter(w.tx, postId, user.id, now())
        const id = body.id ?? uuidv7()
        // The comment made with this id, only while it is on this post (whose buble the caller is in).
        if ((await commentKit.claim(w.tx, id, user.id, eq(comments.postId, postId))) === 'existing')
          return { value: await loadComment(w.tx, id), created: false }
        await w.tx
          .insert(comments)
          .values({ id, postId, bubleId: post.bubleId, authorId: user.id, content: body.content, createdAt: now() })
        w.changed(post.bubleId, 'comment')
        // A comment counts on no tab, but a mention in it marks the wall's.
        await mention(w, contentAdded, user, {
          bubleId: post.bubleId,
          contentType: 'wall',
          contentId: id,
          text: body.content,
          at: now(),
        })
        await postKit.touch(w, post, { commentsCount: sql`${posts.commentsCount} + 1` })
        return { value: await loadComment(w.tx, id), created: true }
      })
    },

    async updateComment(user: UserRow, commentId: string, content: string): Promise<Comment> {
      return syncWrite(db, async (w) => {
        const comment = await commentKit.forEdit(w.tx, commentId, user.id, now())
        await commentKit.touch(w, comment, { content, isEdited: true })
        await mention(w, contentAdded, user, {
          bubleId: comment.bubleId,
          contentType: 'wall',
          contentId: commentId,
          text: content,
          at: now(),
        })
        return loadComment(w.tx, commentId)
      })
    },

    async deleteComment(user: UserRow, commentId: string): Promise<void> {
      await syncWrite(db, async (w) => {
        const comment = await commentKit.forAction(w.tx, commentId, user.id, 'content.delete')
        await commentKit.remove(w, comment)
        const post = await postKit.find(w.tx, comment.postId)
        await postKit.touch(w, post, { commentsCount: sql`greatest(${posts.commentsCount} - 1, 0)` })
      })
    },

    addReaction: (user: UserRow, postId: string, type: ReactionType) => setReaction(user, postId, type, true),
    removeReaction: (user: UserRow, postId: string, type: ReactionType) => setReaction(user, postId, type, false),
  }
}
