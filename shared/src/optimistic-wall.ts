/**
 * What the wall's mutations do on the device before the server answers: posts, comments and
 * reactions. Like every optimistic change they must give the same rows when run again over rows a
 * pull brought (see device-rows.ts), so the two counters here are never adjusted blindly.
 * `_pending` marks what the user wrote (a post, a comment, an edit) until the server has it; a
 * reaction or a comment count changes a post without making it read 'Sending…'.
 */

import {
  changeRow,
  createRow,
  type DeviceAuthor,
  deleteRow,
  editRow,
  type LocalRow,
  memberRefOf,
  type Optimistic,
  type OptimisticOf,
  refTo,
  updateRow,
} from './device-rows.ts'
import type { PIN_MUTATIONS, WALL_MUTATIONS } from './mutations.ts'
import { type Comment, type Post, REACTION_TYPES, type Reactions, type ReactionType, summarise } from './wall.ts'

/**
 * Comment ids whose deletion this post row's count already subtracts. comment.delete cannot name
 * the post among the rows it touches (its args carry the comment id alone), so the post has no
 * shadow and is not restored before a re-apply: the mark keeps a second run from subtracting again.
 * A post row from the server carries no mark, and its count is the server's.
 */
const UNCOUNTED = '_uncountedComments'

/** The server fetches a link's preview after the post (decision 27). */
const NO_PREVIEW_YET = { link_title: null, link_description: null, link_image: null }

const post = refTo('posts')
const comment = refTo('comments')

const countOf = (row: LocalRow) => (typeof row.commentsCount === 'number' ? row.commentsCount : 0)

/** The row with the author's reaction `type` in or out, in the order the server lists them (posts, chat messages). */
export function withReaction(row: LocalRow, author: DeviceAuthor, type: ReactionType, on: boolean): LocalRow {
  const reactions = { ...((row.reactions as Reactions | undefined) ?? {}) }
  const mine = new Set(reactions[author.id] ?? [])
  if (on) mine.add(type)
  else mine.delete(type)
  const next = REACTION_TYPES.filter((candidate) => mine.has(candidate))
  if (next.length > 0) reactions[author.id] = next
  else delete reactions[author.id]
  return { ...row, reactions, reactionsSummary: summarise(reactions) }
}

/** Whether the author's reactions on the row include `type`. */
export const hasReaction = (row: LocalRow | undefined, author: DeviceAuthor, type: ReactionType) =>
  ((row?.reactions as Reactions | undefined)?.[author.id] ?? []).includes(type)

const react = (on: boolean): Optimistic<'reaction.add' | 'reaction.remove'> =>
  changeRow('posts', 'post_id', (row, args, actor) => withReaction(row, actor, args.reactionType, on))

export const WALL_OPTIMISTIC: OptimisticOf<typeof WALL_MUTATIONS> = {
  // Re-applied over the server's row, the server's wins: it carries the link preview it fetched.
  'post.create': createRow(
    'posts',
    (args, actor, createdAt) =>
      ({
        id: args.id,
        buble_id: args.buble_id,
        content: args.content,
        author_id: actor.id,
        author_name: actor.name,
        author: memberRefOf(actor),
        created_at: createdAt,
        is_edited: false,
        image_url: args.image_url ?? null,
        link_url: args.link_url ?? null,
        ...NO_PREVIEW_YET,
        reactions: {},
        reactionsSummary: {},
        commentsCount: 0,
        pinned_at: null,
      }) satisfies Post,
  ),
  'post.update': editRow('posts', (_row, args) => ({ content: args.content, is_edited: true })),
  // Its comments stay until the server's deletes arrive; nothing shows them without their post.
  'post.delete': deleteRow('posts'),
  'comment.create': {
    touches: (args) => [comment(args.id), post(args.post_id)],
    async apply(store, args, actor, createdAt) {
      // A comment row already here is the server's (restored from its shadow before this re-run),
      // and the server's post row counts it already.
      if (await store.get('comments', args.id)) return
      const parent = await store.get('posts', args.post_id)
      if (!parent) return
      const row = {
        id: args.id,
        post_id: args.post_id,
        // A post row always carries its buble.
        buble_id: parent.buble_id as string,
        content: args.content,
        author: memberRefOf(actor),
        author_name: actor.name,
        created_at: createdAt,
        isEdited: false,
      } satisfies Comment
      await store.put('comments', { ...row, _pending: true })
      await store.put('posts', { ...parent, commentsCount: countOf(parent) + 1 })
    },
  },
  'comment.update': editRow('comments', (_row, args) => ({ content: args.content, isEdited: true })),
  'comment.delete': {
    touches: (args) => [comment(args.id)],
    async apply(store, args) {
      // Gone already (deleted by the server, or by an earlier run): nothing to subtract.
      const row = await store.get('comments', args.id)
      if (!row) return
      await store.delete('comments', args.id)
      const parent = typeof row.post_id === 'string' ? await store.get('posts', row.post_id) : undefined
      const uncounted = (parent?.[UNCOUNTED] as string[] | undefined) ?? []
      if (!parent || uncounted.includes(args.id)) return
      await store.put('posts', {
        ...parent,
        commentsCount: Math.max(0, countOf(parent) - 1),
        [UNCOUNTED]: [...uncounted, args.id],
      })
    },
  },
  'reaction.add': react(true),
  'reaction.remove': react(false),
}

export const PIN_OPTIMISTIC: OptimisticOf<typeof PIN_MUTATIONS> = {
  // A pin keeps the time it was first made on the device; the server's pull brings its own.
  'post.pin': {
    touches: (args) => [post(args.id)],
    apply: (store, args, _actor, createdAt) =>
      updateRow(store, 'posts', args.id, (row) => ({ ...row, pinned_at: row.pinned_at ?? createdAt })),
  },
  'post.unpin': changeRow('posts', 'id', (row) => ({ ...row, pinned_at: null })),
}
