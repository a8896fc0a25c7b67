import type { MemberActor } from '@buble/shared/permissions'
import { MAX_PINNED_POSTS } from '@buble/shared/wall'
import { useEffect, useRef } from 'react'
import { useSearchParams } from 'react-router-dom'
import type { LocalBuble } from '../../data/bubles.ts'
import { useDevice } from '../../data/data-context.tsx'
import { type LocalPost, useNow, usePinnedPosts, useWallActions, useWallPosts } from '../../data/wall.ts'
import { EmptyState } from '../../ui/empty-state.tsx'
import { UnlessMuted } from '../../ui/muted-note.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { PostCard } from './post-card.tsx'
import { PostComposer } from './post-composer.tsx'
import { WALL_TEXTS } from './wall-texts.ts'

/** The wall: write a post, the pinned posts first (newest pin first), then the others newest first, ten more at a time. */
export function WallTab({ buble, actor }: { buble: LocalBuble; actor: MemberActor }) {
  const { userId } = useDevice()
  // `?post=<id>`: a post opened from search, scrolled to and marked once it is on the wall.
  const [params] = useSearchParams()
  const focusId = params.get('post')
  const posts = useWallPosts(buble.id, focusId)
  const pinned = usePinnedPosts(buble.id) ?? []
  const pinsFull = pinned.length >= MAX_PINNED_POSTS
  const shownFocus = useRef<string | null>(null)
  const focusShown = focusId !== null && [...pinned, ...(posts.rows ?? [])].some((post) => post.id === focusId)
  useEffect(() => {
    if (!focusShown || shownFocus.current === focusId) return
    shownFocus.current = focusId
    const item = document.getElementById(`post-${focusId}`)
    item?.scrollIntoView({ block: 'center' })
    item?.focus({ preventScroll: true })
  }, [focusShown, focusId])
  const actions = useWallActions()
  const now = useNow()
  const item = (post: LocalPost) => (
    <li
      key={post.id}
      id={`post-${post.id}`}
      className={post.id === focusId ? 'found-item' : undefined}
      tabIndex={post.id === focusId ? -1 : undefined}
    >
      <PostCard post={post} actor={actor} userId={userId} now={now} actions={actions} pinsFull={pinsFull} />
    </li>
  )

  return (
    <section className="wall" aria-label="Wall">
      <UnlessMuted>
        <PostComposer buble={buble} actions={actions} />
      </UnlessMuted>
      {pinned.length > 0 && (
        <ol className="post-list pinned-posts" aria-label={WALL_TEXTS.pinnedTitle}>
          {pinned.map(item)}
        </ol>
      )}
      {posts.status !== 'ready' ? (
        <Spinner label="Loading posts…" />
      ) : posts.rows.length === 0 && pinned.length === 0 ? (
        <EmptyState title="No posts yet">
          <p>Be the first to share something with this Buble.</p>
        </EmptyState>
      ) : (
        <ol className="post-list" aria-label="Posts">
          {posts.rows.map(item)}
        </ol>
      )}
      {posts.hasMore && (
        <button type="button" className="btn btn-secondary btn-block load-more" onClick={() => void posts.loadMore()}>
          Load more
        </button>
      )}
    </section>
  )
}
