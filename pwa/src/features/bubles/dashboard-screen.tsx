import { useState } from 'react'
import { useDevice } from '../../data/data-context.tsx'
import { type HomeBuble, useHome } from '../../data/home.ts'
import { type SyncSummary, useSyncSummary } from '../../data/sync-status.ts'
import { useNow } from '../../data/wall.ts'
import { EmptyState } from '../../ui/empty-state.tsx'
import { lazyPart } from '../../ui/lazy-part.ts'
import { Spinner } from '../../ui/spinner.tsx'
import { useDocumentTitle } from '../../ui/use-document-title.ts'
import { BubleCard } from './buble-card.tsx'

// The dialogs load when opened: the dashboard's first load is the list.
const CreateBubleModal = lazyPart(() => import('./create-buble-modal.tsx'), 'CreateBubleModal', { fallback: null })
const JoinBubleModal = lazyPart(() => import('./join-buble-modal.tsx'), 'JoinBubleModal', { fallback: null })

export function DashboardScreen() {
  useDocumentTitle('Your Bubles')
  const bubles = useHome()
  const summary = useSyncSummary()
  const [dialog, setDialog] = useState<'create' | 'join' | null>(null)
  const close = () => setDialog(null)

  return (
    <div className="page">
      <div className="page-head">
        <h1>Your Bubles</h1>
        <div className="page-actions">
          <button type="button" className="btn btn-secondary" onClick={() => setDialog('join')}>
            Join Buble
          </button>
          <button type="button" className="btn btn-primary" onClick={() => setDialog('create')}>
            Create New Buble
          </button>
        </div>
      </div>
      <DashboardBody bubles={bubles} summary={summary} />
      {dialog === 'create' && <CreateBubleModal onClose={close} />}
      {dialog === 'join' && <JoinBubleModal onClose={close} />}
    </div>
  )
}

function DashboardBody({ bubles, summary }: { bubles?: HomeBuble[]; summary?: SyncSummary }) {
  const { engine } = useDevice()
  const now = useNow()
  if (bubles === undefined || summary === undefined) return <Spinner label="Loading your bubles…" />
  if (bubles.length > 0) {
    return (
      <ul className="buble-grid" aria-label="Your bubles">
        {bubles.map((home) => (
          <li key={home.buble.id}>
            <BubleCard home={home} now={now} />
          </li>
        ))}
      </ul>
    )
  }
  // Before the first pull, an empty list only means "not on this device yet".
  if (!summary.initialized) {
    if (summary.state === 'offline') {
      return (
        <EmptyState title="You are offline" illustration>
          <p>Your bubles appear here once you are back online.</p>
        </EmptyState>
      )
    }
    if (summary.state === 'error') {
      return (
        <EmptyState title="Your bubles could not be loaded">
          <p>Buble keeps trying in the background. You can also try again now.</p>
          <button type="button" className="btn btn-primary" onClick={() => void engine.sync()}>
            Try again
          </button>
        </EmptyState>
      )
    }
    return <Spinner label="Loading your bubles…" />
  }
  return (
    <EmptyState title="No bubles yet" illustration>
      <p>Create a buble for your family, friends or club, or join one with an invite code from its owner.</p>
    </EmptyState>
  )
}
