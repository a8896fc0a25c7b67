import { Link } from 'react-router-dom'
import { bublePath, type LocalBuble } from '../../data/bubles.ts'
import { usePinnedPosts } from '../../data/wall.ts'
import { WALL_TEXTS } from './wall-texts.ts'

/** The buble's pinned posts on its overview (issue 23 §5): who and what, each leading to the wall. Nothing when none is pinned. */
export function PinnedSummary({ buble }: { buble: LocalBuble }) {
  const pinned = usePinnedPosts(buble.id)
  if (!pinned || pinned.length === 0) return null
  return (
    <section className="card pinned-summary" aria-labelledby="pinned-title">
      <div className="card-head">
        <h2 className="section-title" id="pinned-title">
          {WALL_TEXTS.pinnedTitle}
        </h2>
      </div>
      <ul className="pinned-summary-list">
        {pinned.map((post) => (
          <li key={post.id}>
            <Link to={bublePath(buble, 'wall')} className="pinned-summary-link">
              <strong className="clamp-1">{post.author?.name ?? post.author_name}</strong>
              <span className="clamp-2">{post.content}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  )
}
