import type { MemberActor } from '@buble/shared/permissions'
import { MAX_PINNED_POSTS } from '@buble/shared/wall'
import type { LocalBuble } from '../../data/bubles.ts'
import { useDevice } from '../../data/data-context.tsx'
import { useNow, usePinnedPosts, useWallActions, useWallPosts } from '../../data/wall.ts'
import { EmptyState } from '../../ui/empty-state.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { PostCard } from './post-card.tsx'
import { PostComposer } from './post-composer.tsx'
import { WALL_TEXTS } from './wall-texts.ts'

/** The wall: write a post, the pinned posts first (newest pin first), then the others newest first, ten more at a time. */
export function WallTab({ buble, actor }: { buble: LocalBuble; actor: MemberActor }) {
  const { userId } = useDevice()
  const posts = useWallPosts(buble.id)
  const pinned = usePinnedPosts(buble.id) ?? []
  const pinsFull = pinned.length >= MAX_PINNED_POSTS
  const actions = useWallActions()
  const now = useNow()

  return (
    <section className="wall" aria-label="Wall">
      <PostComposer buble={buble} actions={actions} />
      {pinned.length > 0 && (
        <ol className="post-list pinned-posts" aria-label={WALL_TEXTS.pinnedTitle}>
          {pinned.map((post) => (
            <li key={post.id}>
              <PostCard post={post} actor={actor} userId={userId} now={now} actions={actions} pinsFull={pinsFull} />
            </li>
          ))}
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
          {posts.rows.map((post) => (
            <li key={post.id}>
              <PostCard post={post} actor={actor} userId={userId} now={now} actions={actions} pinsFull={pinsFull} />
            </li>
          ))}
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
