import { unreadLabel } from '@buble/shared/unread'

/** What the `@` mark says to a screen reader. */
export const MENTIONED_YOU = 'you were mentioned'

/**
 * The red unread counter of a buble tab or of the chat button; nothing at zero. A tab holding an
 * unread mention of the reader shows `@` instead (decision 94).
 */
export function TabCount({ count, mentioned = false }: { count: number; mentioned?: boolean }) {
  if (mentioned)
    return (
      <>
        {' '}
        <span className="tab-count tab-mention">
          <span aria-hidden="true">@</span>
          <span className="visually-hidden">{MENTIONED_YOU}</span>
        </span>
      </>
    )
  const label = unreadLabel(count)
  if (label === null) return null
  // The space makes it "Wall 3 unread" to a screen reader, not "Wall3 unread"; a flex container does not draw it.
  return (
    <>
      {' '}
      <span className="tab-count">
        <span aria-hidden="true">{label}</span>
        <span className="visually-hidden">{`${label} unread`}</span>
      </span>
    </>
  )
}
