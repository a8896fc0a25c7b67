import { canModerate } from '@buble/shared/permissions'
import { lazyPart } from '../../ui/lazy-part.ts'
import '../../styles/buble.css'
import { useLayoutEffect, useState } from 'react'
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router-dom'
import { bublePath, type LocalBuble, useBuble, useMembers } from '../../data/bubles.ts'
import { useDevice } from '../../data/data-context.tsx'
import { useOnline, useSyncSummary } from '../../data/sync-status.ts'
import { useKeepRead, useMentioned, useUnread } from '../../data/unread.ts'
import { useRemoteBuble } from '../../features/bubles/use-remote-buble.ts'
import { Ticker } from '../../features/wall/ticker.tsx'
import { EmptyState } from '../../ui/empty-state.tsx'
import { memberActorFor } from '../../ui/member-actor.ts'
import { MentionMembers, useMutedHere } from '../../ui/mention-members.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { useDocumentTitle } from '../../ui/use-document-title.ts'
import { BubleHeader } from './buble-header.tsx'
import { BubleOverviewTab } from './buble-overview-tab.tsx'
import { BubleTabs } from './buble-tabs.tsx'
import { isTabKey, type TabKey, tabSegment } from './tabs.ts'

const MembersTab = lazyPart(() => import('../../features/bubles/members-tab.tsx'), 'MembersTab', {
  fallback: <Spinner label="Loading…" />,
})

const PollsTab = lazyPart(() => import('../../features/polls/polls-tab.tsx'), 'PollsTab', {
  fallback: <Spinner label="Loading…" />,
})

const EventsTab = lazyPart(() => import('../../features/events/events-tab.tsx'), 'EventsTab', {
  fallback: <Spinner label="Loading…" />,
})

const MediaTab = lazyPart(() => import('../../features/media/media-tab.tsx'), 'MediaTab', {
  fallback: <Spinner label="Loading…" />,
})

const ReportsTab = lazyPart(() => import('../../features/reports/reports-tab.tsx'), 'ReportsTab', {
  fallback: <Spinner label="Loading…" />,
})

// Loaded only while the member is muted.
const MutedBanner = lazyPart(() => import('../../ui/muted-note.tsx'), 'MutedBanner', { fallback: null })

const WallTab = lazyPart(() => import('../../features/wall/wall-tab.tsx'), 'WallTab', {
  fallback: <Spinner label="Loading…" />,
})

/** /bubles/:slugOrId/:tab? — a buble's page: header, tab bar and the current tab. */
export function BubleScreen() {
  const { slugOrId = '', tab } = useParams()
  // The overview has no segment of its own; anything else unknown lands there too.
  if (tab !== undefined && (!isTabKey(tab) || tab === 'overview'))
    return <Navigate to={`/bubles/${slugOrId}`} replace />
  return <BublePage key={slugOrId} slugOrId={slugOrId} tab={tab ?? 'overview'} />
}

/**
 * Moves to a buble's canonical address, keeping the query (`?chat=open` from a notification). It
 * moves in a layout effect, before the browser can deliver a click on the page it replaces: a
 * later effect let a tab clicked just as a new buble got its slug (the old page still showing)
 * be replaced by the old page's address, overview instead of the tab.
 */
function CanonicalAddress({ to }: { to: string }) {
  const navigate = useNavigate()
  const { search } = useLocation()
  useLayoutEffect(() => {
    navigate(`${to}${search}`, { replace: true })
  }, [navigate, to, search])
  return null
}

function BublePage({ slugOrId, tab }: { slugOrId: string; tab: TabKey }) {
  const buble = useBuble(slugOrId)
  const summary = useSyncSummary()
  const online = useOnline()
  const [removing, setRemoving] = useState(false)
  const lookRemotely = buble === null && summary?.initialized === true && online && !removing
  const remote = useRemoteBuble(slugOrId, lookRemotely)
  const notFound = remote.status === 'ready' && remote.data === null
  useDocumentTitle(buble?.name ?? (notFound ? 'Buble not found' : 'Buble'))

  if (buble) {
    // Opened by id (made offline) or by a slug in other letter case: show the canonical address.
    if (buble.slug && slugOrId !== buble.slug) return <CanonicalAddress to={bublePath(buble, tabSegment(tab))} />
    return (
      <MentionMembers bubleId={buble.id}>
        <BubleView buble={buble} tab={tab} onRemoving={setRemoving} />
      </MentionMembers>
    )
  }
  if (buble === null && !online && !removing) {
    return (
      <div className="page">
        <EmptyState title="You are offline">
          <p>This Buble is not on this device yet. It opens once you are back online.</p>
          <Link to="/dashboard">Back to your bubles</Link>
        </EmptyState>
      </div>
    )
  }
  // Found, the buble is stored: the page shows it as soon as the live query reads it.
  if (!lookRemotely || (remote.status !== 'failed' && !notFound)) {
    return (
      <div className="page">
        <Spinner label="Loading Buble…" />
      </div>
    )
  }
  if (notFound) {
    return (
      <div className="page">
        <div className="empty-state">
          <h1>Buble not found</h1>
          <p>It may have been deleted, or you are not one of its members.</p>
          <Link to="/dashboard" className="btn btn-primary">
            Back to your bubles
          </Link>
        </div>
      </div>
    )
  }
  return (
    <div className="page">
      <div className="empty-state">
        <h1>Could not open this Buble</h1>
        <p role="alert">{remote.message}</p>
        <button type="button" className="btn btn-primary" onClick={remote.reload}>
          Try again
        </button>
      </div>
    </div>
  )
}

function BubleView({
  buble,
  tab,
  onRemoving,
}: {
  buble: LocalBuble
  tab: TabKey
  onRemoving: (removing: boolean) => void
}) {
  const device = useDevice()
  const members = useMembers(buble.id)
  const actor = memberActorFor(buble, members, device.userId)
  const unread = useUnread(buble.id)
  // The overview and the Media tab count nothing: the media are the other tabs' content.
  const open = tab === 'overview' || tab === 'media' ? null : tab
  useKeepRead(buble.id, open)
  // The open tab never shows a counter: it is being read.
  const counts = open ? { ...unread, [open]: 0 } : unread
  const mentioned = useMentioned(buble.id)
  const mentions = open ? { ...mentioned, [open]: false } : mentioned
  const mute = useMutedHere()

  return (
    <div className="page buble-page">
      {/* The title bar and the tabs stay at the top together; chat is one tap away from every tab. */}
      <div className="buble-bar">
        <BubleHeader buble={buble} actor={actor} onRemoving={onRemoving} />
        <BubleTabs buble={buble} current={tab} counts={counts} mentions={mentions} showReports={canModerate(actor)} />
      </div>
      {/* The wall tab is the wall itself: the strip of its latest posts would only repeat them. */}
      {tab !== 'wall' && <Ticker buble={buble} />}
      {mute && <MutedBanner until={mute} />}
      <div className="tab-panel">
        {tab === 'overview' && <BubleOverviewTab buble={buble} actor={actor} />}
        {tab === 'wall' && <WallTab buble={buble} actor={actor} />}
        {tab === 'members' && <MembersTab bubleId={buble.id} members={members} actor={actor} />}
        {tab === 'events' && <EventsTab buble={buble} actor={actor} />}
        {tab === 'polls' && <PollsTab buble={buble} actor={actor} />}
        {tab === 'media' && <MediaTab buble={buble} />}
        {tab === 'reports' && <ReportsTab buble={buble} actor={actor} members={members} />}
      </div>
    </div>
  )
}
