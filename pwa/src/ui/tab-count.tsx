import { unreadLabel } from '@buble/shared/unread'

/** The red unread counter of a buble tab or of the chat button; nothing at zero. */
export function TabCount({ count }: { count: number }) {
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
