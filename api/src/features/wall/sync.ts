/** The wall in sync: their synced tables, what counts on the wall tab, and their mutations. */

import type { PIN_MUTATIONS, WALL_MUTATIONS } from '@buble/shared/mutations'
import type { MutationBatchers, MutationHandlersOf, SyncSource, UnreadSource } from '../../lib/sync-sources.ts'
import { scanTable } from '../../lib/sync-sources.ts'
import { loadComments, loadPosts } from './queries.ts'
import { isPlainPost, type WallService } from './service.ts'

/** Posts by others count on the wall tab, from the version they were added at. */
export const wallUnreadSources: UnreadSource[] = [
  {
    contentType: 'wall',
    entity: 'post',
    table: 'posts',
    bubleColumn: 'buble_id',
    addedColumn: 'added_version',
    authorColumn: 'author_id',
  },
]

export const wallSyncSources: SyncSource[] = [
  { entity: 'post', scan: scanTable('post', 'posts', 'buble_id'), load: (db, ids) => loadPosts(db, ids) },
  { entity: 'comment', scan: scanTable('comment', 'comments', 'buble_id'), load: (db, ids) => loadComments(db, ids) },
]

export const wallMutations = (wall: WallService): MutationHandlersOf<typeof WALL_MUTATIONS & typeof PIN_MUTATIONS> => ({
  'post.create': async (user, { buble_id, ...body }) => (await wall.createPost(user, buble_id, body)).value,
  'post.update': (user, args) => wall.updatePost(user, args.id, args.content),
  'post.delete': async (user, args) => {
    await wall.deletePost(user, args.id)
    return null
  },
  'comment.create': async (user, { post_id, ...body }) => (await wall.createComment(user, post_id, body)).value,
  'comment.update': (user, args) => wall.updateComment(user, args.id, args.content),
  'comment.delete': async (user, args) => {
    await wall.deleteComment(user, args.id)
    return null
  },
  'reaction.add': (user, args) => wall.addReaction(user, args.post_id, args.reactionType),
  'reaction.remove': (user, args) => wall.removeReaction(user, args.post_id, args.reactionType),
  'post.pin': (user, args) => wall.pinPost(user, args.id),
  'post.unpin': (user, args) => wall.unpinPost(user, args.id),
})

/** Plain posts queued on a device go several at once: the same service, one statement. */
export const wallBatchers = (wall: WallService): MutationBatchers => ({
  'post.create': { takes: isPlainPost, apply: (user, args) => wall.createPostsAtOnce(user, args) },
})
