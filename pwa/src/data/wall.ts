/** The wall and stories as screens read them (live queries over the device's database), and the wall's writes. */

import type { LocalRow } from '@buble/shared/device-rows'
import { type Comment, type Post, type ReactionType, type Story, TICKER_SIZE, WALL_PAGE_SIZE } from '@buble/shared/wall'
import Dexie from 'dexie'
import { useLiveQuery } from 'dexie-react-hooks'
import { useEffect, useMemo, useState } from 'react'
import { withCurrentMakers } from './authors.ts'
import { useDevice } from './data-context.tsx'
import { type CreateInput, queueCreate } from './device.ts'
import type { DeviceDb } from './device-db.ts'
import { liveRows, type PagedRows } from './live-rows.ts'

/** Rows as stored: `_pending` while what the user wrote has not reached the server. */
export type LocalPost = Post & LocalRow
export type LocalComment = Comment & LocalRow
export type LocalStory = Story & LocalRow

/** A buble's newest `limit` posts, newest first, with their authors as the buble's member list now names them. */
async function newestPosts(db: DeviceDb, bubleId: string, limit: number, unpinnedOnly = false): Promise<LocalPost[]> {
  const newest = db.posts
    .where('[buble_id+created_at]')
    .between([bubleId, Dexie.minKey], [bubleId, Dexie.maxKey])
    .reverse()
  const rows = (await (unpinnedOnly ? newest.filter((post) => !post.pinned_at) : newest)
    .limit(limit)
    .toArray()) as LocalPost[]
  return withCurrentMakers(db, bubleId, rows, 'author')
}

/**
 * A buble's posts that are not pinned (those lead the wall: `usePinnedPosts`), newest first, a page of WALL_PAGE_SIZE at a time. 'Load more' shows while the
 * last page came back full, as spec part 2 §2 says: with exactly ten posts it shows once, and the
 * next page, empty, hides it.
 */
export function useWallPosts(bubleId: string, focusId?: string | null): PagedRows<LocalPost> {
  const { db } = useDevice()
  const [limit, setLimit] = useState(WALL_PAGE_SIZE)
  // A post opened from search (`focusId`): enough pages to reach it, however far down it is.
  useEffect(() => {
    if (!focusId) return
    let current = true
    void pagesTo(db, bubleId, focusId).then((pages) => {
      if (current && pages > 0) setLimit((shown) => Math.max(shown, pages * WALL_PAGE_SIZE))
    })
    return () => {
      current = false
    }
  }, [db, bubleId, focusId])
  const rows = useLiveQuery(() => newestPosts(db, bubleId, limit, true), [db, bubleId, limit])
  const hasMore = (rows?.length ?? 0) >= limit
  return {
    ...liveRows(rows),
    hasMore,
    async loadMore() {
      if (hasMore) setLimit((shown) => shown + WALL_PAGE_SIZE)
      return hasMore
    },
  }
}

/** A buble's pinned posts, the newest pin first (issue 23 §5); undefined while loading. */
export function usePinnedPosts(bubleId: string): LocalPost[] | undefined {
  const { db } = useDevice()
  return useLiveQuery(async () => {
    // Only pinned rows are in this index: a null pinned_at leaves a row out of it.
    const rows = (await db.posts
      .where('[buble_id+pinned_at]')
      .between([bubleId, Dexie.minKey], [bubleId, Dexie.maxKey])
      .reverse()
      .toArray()) as LocalPost[]
    return withCurrentMakers(db, bubleId, rows, 'author')
  }, [db, bubleId])
}

/** How many wall pages show post `postId` (0 when it is not on the device). */
async function pagesTo(db: DeviceDb, bubleId: string, postId: string): Promise<number> {
  const post = (await db.posts.get(postId)) as LocalPost | undefined
  if (!post || post.buble_id !== bubleId) return 0
  const newer = await db.posts
    .where('[buble_id+created_at]')
    .between([bubleId, post.created_at], [bubleId, Dexie.maxKey], true, true)
    .count()
  return Math.ceil(newer / WALL_PAGE_SIZE)
}

/** The newest `count` posts of a buble (the ticker's); undefined while loading. */
export function useLatestPosts(bubleId: string, count = TICKER_SIZE): LocalPost[] | undefined {
  const { db } = useDevice()
  return useLiveQuery(() => newestPosts(db, bubleId, count), [db, bubleId, count])
}

/** A post's comments, oldest first; undefined while loading. */
export function useComments(postId: string): LocalComment[] | undefined {
  const { db } = useDevice()
  return useLiveQuery(async () => {
    const rows = (await db.comments.where('post_id').equals(postId).toArray()) as LocalComment[]
    rows.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
    return rows[0] ? withCurrentMakers(db, rows[0].buble_id, rows, 'author') : rows
  }, [db, postId])
}

/** The current time in ms, refreshed every `intervalMs`: for relative times and expiry. */
export function useNow(intervalMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs)
    return () => clearInterval(timer)
  }, [intervalMs])
  return now
}

/**
 * A buble's stories that have not expired, oldest first; undefined while loading. The server
 * sends an expired story's `del` with a later pull; until then the clock hides it, checked every minute.
 */
export function useStories(bubleId: string): LocalStory[] | undefined {
  const { db } = useDevice()
  const now = useNow()
  return useLiveQuery(async () => {
    const rows = (await db.stories.where('buble_id').equals(bubleId).toArray()) as LocalStory[]
    return rows
      .filter((story) => Date.parse(story.expires_at) > now)
      .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
  }, [db, bubleId, now])
}

/** Stores a story the server just created, as a pull would, so it shows at once. */
export function useRememberStory(): (story: Story) => Promise<void> {
  const device = useDevice()
  return (story) =>
    device.remember([{ entity: 'story', op: 'put', id: story.id, buble_id: story.buble_id, data: story }])
}

export type NewPost = CreateInput<'post.create'>

/**
 * The wall's writes: each shows on the device at once and waits in the outbox for the server.
 * Creates choose their id here (UUIDv7, as every client-chosen id in the app), so the row made
 * offline keeps it. Each answers the new row's id, or the mutation's.
 */
export function useWallActions() {
  const device = useDevice()
  return useMemo(
    () => ({
      createPost: (post: NewPost) => queueCreate(device, 'post.create', post),
      updatePost: (id: string, content: string) => device.mutate('post.update', { id, content }),
      deletePost: (id: string) => device.mutate('post.delete', { id }),
      createComment: (postId: string, content: string) =>
        queueCreate(device, 'comment.create', { post_id: postId, content }),
      updateComment: (id: string, content: string) => device.mutate('comment.update', { id, content }),
      deleteComment: (id: string) => device.mutate('comment.delete', { id }),
      /** Adds (on) or removes the user's reaction of one type. */
      react: (postId: string, reactionType: ReactionType, on: boolean) =>
        device.mutate(on ? 'reaction.add' : 'reaction.remove', { post_id: postId, reactionType }),
      /** Pins (on) or unpins a post: it moves to the top of the wall at once. */
      pin: (postId: string, on: boolean) => device.mutate(on ? 'post.pin' : 'post.unpin', { id: postId }),
    }),
    [device],
  )
}

export type WallActions = ReturnType<typeof useWallActions>
