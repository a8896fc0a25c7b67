import type { ReactNode } from 'react'

/** A friendly "nothing here (yet)" panel: a heading, a line of text, and perhaps an action. */
export function EmptyState({
  title,
  children,
  illustration = false,
}: {
  title: string
  children: ReactNode
  /** The three bubbles drawing, for the big empty pages. */
  illustration?: boolean
}) {
  return (
    <div className="empty-state">
      {illustration && (
        <div className="empty-illustration" aria-hidden="true">
          <span />
          <span />
          <span />
        </div>
      )}
      <h2>{title}</h2>
      {children}
    </div>
  )
}
