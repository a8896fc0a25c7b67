/**
 * Where a part of the screen that failed says so, instead of the whole app going blank: a chunk that could not
 * load (offline before the service worker cached it) or a component that threw while rendering. "Try again"
 * renders the part anew; a lazy part asks for its code again then (lazy-part.ts).
 */

import { Component, type ReactNode } from 'react'

export const PART_TEXTS = {
  failed: 'This part of Buble could not be shown.',
  offline: 'This part of Buble is not on this device yet. It will load when you are online.',
  retry: 'Try again',
} as const

interface State {
  error: unknown
  attempt: number
}

export class PartBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null, attempt: 0 }

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error ?? new Error('unknown') }
  }

  override componentDidCatch(error: unknown) {
    // Kept in the console for whoever looks, as a warning: the user already sees what happened.
    console.warn('A part of the screen failed', error)
  }

  retry = () => this.setState(({ attempt }) => ({ error: null, attempt: attempt + 1 }))

  override render() {
    const { error, attempt } = this.state
    if (error === null) return <PartKey key={attempt}>{this.props.children}</PartKey>
    return (
      <div className="alert alert-error part-failed" role="alert">
        <p>{navigator.onLine ? PART_TEXTS.failed : PART_TEXTS.offline}</p>
        <button type="button" className="btn btn-secondary btn-sm" onClick={this.retry}>
          {PART_TEXTS.retry}
        </button>
      </div>
    )
  }
}

/** Remounts its children when the boundary's attempt changes (a fresh mount picks up a fresh lazy loader). */
function PartKey({ children }: { children: ReactNode }) {
  return children
}
