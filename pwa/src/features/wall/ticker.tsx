import { Link } from 'react-router-dom'
import { bublePath, type LocalBuble } from '../../data/bubles.ts'
import { useLatestPosts, useNow } from '../../data/wall.ts'
import { useReadable } from '../../ui/mention-members.tsx'
import { RelativeTime } from '../../ui/relative-time.tsx'
import { WALL_TEXTS } from './wall-texts.ts'

const TICKER_CHARS = 90

/** A post's text on one line, cut at a word near `max` characters. */
export function excerpt(text: string, max = TICKER_CHARS): string {
  const line = text.replace(/\s+/g, ' ').trim()
  if (line.length <= max) return line
  const cut = line.slice(0, max)
  const space = cut.lastIndexOf(' ')
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`
}

/** The strip above the tabs: the newest wall posts, and a way to the wall (spec part 2 §2). */
export function Ticker({ buble }: { buble: Pick<LocalBuble, 'id' | 'slug'> }) {
  const posts = useLatestPosts(buble.id)
  const now = useNow()
  const readable = useReadable()

  return (
    <section className="ticker" aria-label="Latest posts">
      <div className="ticker-head">
        <span className="ticker-title" aria-hidden="true">
          Latest
        </span>
        <Link to={bublePath(buble, 'wall')} className="ticker-all">
          View All
        </Link>
      </div>
      {/* Its height is reserved while the posts are read (styles/buble.css, .ticker-body). */}
      <div className="ticker-body">
        {posts !== undefined &&
          (posts.length === 0 ? (
            <p className="ticker-empty">{WALL_TEXTS.tickerEmpty}</p>
          ) : (
            // It scrolls sideways: focusable, so a keyboard can scroll it too.
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the focus (WCAG 2.1.1)
            <ol className="ticker-list" tabIndex={0} aria-label="Latest posts, newest first">
              {posts.map((post) => (
                <li key={post.id} className="ticker-item">
                  <span className="ticker-author clamp-1" title={post.author?.name ?? post.author_name}>
                    {post.author?.name ?? post.author_name}
                  </span>
                  <span className="ticker-text">{excerpt(readable(post.content))}</span>
                  <RelativeTime iso={post.created_at} now={now} className="ticker-time" />
                </li>
              ))}
            </ol>
          ))}
      </div>
    </section>
  )
}
