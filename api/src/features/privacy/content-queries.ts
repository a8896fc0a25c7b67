/** The wall and chat part of an export: posts, comments, reactions, stories and chat messages a user wrote. */

import { and, asc, eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { chatMessages, chatReactions, comments, postReactions, posts, stories } from '../../db/schema.ts'
import { after, EXPORT_BATCH, iso, keyset } from './keyset.ts'

export function contentQueries(db: Db, userId: string) {
  const posts_ = () =>
    keyset(async (last?: { id: string }) => {
      const rows = await db
        .select()
        .from(posts)
        .where(and(eq(posts.authorId, userId), after(posts.id, last?.id)))
        .orderBy(asc(posts.id))
        .limit(EXPORT_BATCH)
      return rows.map((p) => ({
        id: p.id,
        buble_id: p.bubleId,
        content: p.content,
        image_url: p.imageUrl,
        link_url: p.linkUrl,
        link_title: p.linkTitle,
        link_description: p.linkDescription,
        link_image: p.linkImage,
        is_edited: p.isEdited,
        created_at: iso(p.createdAt),
      }))
    })

  const comments_ = () =>
    keyset(async (last?: { id: string }) => {
      const rows = await db
        .select()
        .from(comments)
        .where(and(eq(comments.authorId, userId), after(comments.id, last?.id)))
        .orderBy(asc(comments.id))
        .limit(EXPORT_BATCH)
      return rows.map((row) => ({
        id: row.id,
        post_id: row.postId,
        buble_id: row.bubleId,
        content: row.content,
        is_edited: row.isEdited,
        created_at: iso(row.createdAt),
      }))
    })

  // Post reactions first, then chat reactions: two keysets read one after the other into one file.
  async function* reactions_() {
    for await (const batch of keyset(async (last?: { post_id: string; type: string }) => {
      const rows = await db
        .select()
        .from(postReactions)
        .where(
          and(
            eq(postReactions.userId, userId),
            last && sql`(${postReactions.postId}, ${postReactions.type}) > (${last.post_id}, ${last.type})`,
          ),
        )
        .orderBy(asc(postReactions.postId), asc(postReactions.type))
        .limit(EXPORT_BATCH)
      return rows.map((row) => ({ on: 'post', post_id: row.postId, type: row.type, created_at: iso(row.createdAt) }))
    }))
      yield batch
    for await (const batch of keyset(async (last?: { message_id: string; type: string }) => {
      const rows = await db
        .select()
        .from(chatReactions)
        .where(
          and(
            eq(chatReactions.userId, userId),
            last && sql`(${chatReactions.messageId}, ${chatReactions.type}) > (${last.message_id}, ${last.type})`,
          ),
        )
        .orderBy(asc(chatReactions.messageId), asc(chatReactions.type))
        .limit(EXPORT_BATCH)
      return rows.map((row) => ({
        on: 'chat_message',
        message_id: row.messageId,
        type: row.type,
        created_at: iso(row.createdAt),
      }))
    }))
      yield batch
  }

  const stories_ = () =>
    keyset(async (last?: { id: string }) => {
      const rows = await db
        .select()
        .from(stories)
        .where(and(eq(stories.authorId, userId), after(stories.id, last?.id)))
        .orderBy(asc(stories.id))
        .limit(EXPORT_BATCH)
      return rows.map((row) => ({
        id: row.id,
        buble_id: row.bubleId,
        media_url: row.mediaUrl,
        media_type: row.mediaType,
        duration_seconds: row.durationSeconds,
        created_at: iso(row.createdAt),
        expires_at: iso(row.expiresAt),
      }))
    })

  const chatMessages_ = () =>
    keyset(async (last?: { id: string }) => {
      const rows = await db
        .select()
        .from(chatMessages)
        .where(and(eq(chatMessages.senderId, userId), after(chatMessages.id, last?.id)))
        .orderBy(asc(chatMessages.id))
        .limit(EXPORT_BATCH)
      return rows.map((row) => ({
        id: row.id,
        buble_id: row.bubleId,
        content: row.content,
        type: row.type,
        image_url: row.imageUrl,
        reply_to_id: row.replyToId,
        is_edited: row.isEdited,
        created_at: iso(row.createdAt),
      }))
    })

  return { posts: posts_, comments: comments_, reactions: reactions_, stories: stories_, chatMessages: chatMessages_ }
}
