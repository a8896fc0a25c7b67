import './reports.css'
import { canModerate, type MemberActor } from '@buble/shared/permissions'
import type { ReportGroup } from '@buble/shared/reports'
import { useState } from 'react'
import type { LocalBuble, LocalMember } from '../../data/bubles.ts'
import { useModerationHistory, useModerationNotices, useReportQueue, useResolveReports } from '../../data/reports.ts'
import { useOnline } from '../../data/sync-status.ts'
import { Alert } from '../../ui/alert.tsx'
import { EmptyState } from '../../ui/empty-state.tsx'
import { RelativeTime } from '../../ui/relative-time.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { type GroupAction, ReportGroupCard } from './report-group.tsx'
import { historyLine, REPORTS_TEXTS } from './reports-texts.ts'

interface ReportsTabProps {
  buble: LocalBuble
  actor: MemberActor
  members: readonly LocalMember[] | undefined
}

/**
 * The Reports section (issue 24 §1, decision 101): for moderators, the open reports grouped by item
 * with their actions, and the history; for everyone, what moderators did to their own content.
 */
export function ReportsTab({ buble, actor, members }: ReportsTabProps) {
  return (
    <section className="reports-tab" aria-labelledby="reports-heading">
      <h2 id="reports-heading">{REPORTS_TEXTS.heading}</h2>
      {canModerate(actor) && <ModerationQueue buble={buble} actor={actor} members={members} />}
      <Notices bubleId={buble.id} />
    </section>
  )
}

function ModerationQueue({ buble, actor, members }: ReportsTabProps) {
  const texts = { failure: REPORTS_TEXTS.failed, offline: REPORTS_TEXTS.offline }
  const queue = useReportQueue(buble.id, texts)
  const history = useModerationHistory(buble.id, { ...texts, failure: REPORTS_TEXTS.historyFailed })
  const resolve = useResolveReports()
  const online = useOnline()
  const [done, setDone] = useState<string | null>(null)
  const [failed, setFailed] = useState<string | null>(null)
  const now = Date.now()

  const authorOf = (id: string | undefined) => {
    const member = id ? members?.find((m) => m.user_id === id) : undefined
    return member ? { userId: member.user_id, role: member.role } : null
  }

  async function act(group: ReportGroup, choice: GroupAction) {
    setFailed(null)
    try {
      await resolve(buble.id, { target_type: group.target_type, target_id: group.target_id, ...choice })
    } catch (err) {
      console.error(REPORTS_TEXTS.actionFailed, err)
      return setFailed(REPORTS_TEXTS.actionFailed)
    }
    // Queued: the group leaves the list at once; a refusal shows in the sync status's "not saved" list.
    queue.update((data) => ({ ...data, groups: data.groups.filter((g) => g.target_id !== group.target_id) }))
    const name = group.author?.name ?? 'The author'
    setDone(
      choice.action === 'dismiss'
        ? REPORTS_TEXTS.done.dismiss
        : choice.action === 'delete'
          ? REPORTS_TEXTS.done.delete(group.target_type)
          : REPORTS_TEXTS.done.mute(name, choice.duration),
    )
    if (online) setTimeout(history.reload, 500)
  }

  if (queue.status === 'loading' && !queue.data) return <Spinner label={REPORTS_TEXTS.loading} />
  if (!queue.data) return <Alert kind={online ? 'error' : 'info'}>{queue.message ?? REPORTS_TEXTS.failed}</Alert>
  const groups = queue.data.groups
  const next = queue.data.next
  return (
    <>
      <p className="muted">{REPORTS_TEXTS.intro}</p>
      {!online && <Alert kind="info">{REPORTS_TEXTS.offlineKept}</Alert>}
      {done && (
        <p role="status" className="report-done">
          {done}
        </p>
      )}
      {failed && <Alert kind="error">{failed}</Alert>}
      {groups.length === 0 ? (
        <EmptyState title={REPORTS_TEXTS.empty}>
          <p>{REPORTS_TEXTS.emptyHint}</p>
        </EmptyState>
      ) : (
        <div className="report-groups">
          {groups.map((group) => (
            <ReportGroupCard
              key={`${group.target_type}:${group.target_id}`}
              group={group}
              actor={actor}
              author={authorOf(group.author?.id)}
              now={now}
              onAction={(choice) => void act(group, choice)}
            />
          ))}
        </div>
      )}
      {next && online && (
        <button type="button" className="btn btn-secondary" onClick={() => void queue.loadMore(next)}>
          {REPORTS_TEXTS.loadMore}
        </button>
      )}
      <h3>{REPORTS_TEXTS.historyHeading}</h3>
      {history.data ? (
        history.data.actions.length === 0 ? (
          <p className="muted">{REPORTS_TEXTS.historyEmpty}</p>
        ) : (
          <ul className="report-history" aria-label={REPORTS_TEXTS.historyHeading}>
            {history.data.actions.map((action) => (
              <li key={action.id}>
                {historyLine(action)} · <RelativeTime iso={action.created_at} now={now} className="muted" />
              </li>
            ))}
          </ul>
        )
      ) : history.status === 'failed' ? (
        <p className="muted">{history.message}</p>
      ) : (
        <Spinner label={REPORTS_TEXTS.loading} />
      )}
    </>
  )
}

function Notices({ bubleId }: { bubleId: string }) {
  const notices = useModerationNotices(bubleId, {
    failure: REPORTS_TEXTS.noticesFailed,
    offline: REPORTS_TEXTS.offline,
  })
  const list = notices.data?.notices ?? []
  if (list.length === 0) return null
  return (
    <>
      <h3>{REPORTS_TEXTS.noticesHeading}</h3>
      <ul className="report-notices">
        {list.map((notice) => (
          <li key={notice.id} className="card">
            <p>{notice.text}</p>
            <p className="muted">
              <q>{notice.excerpt}</q> · <RelativeTime iso={notice.created_at} now={Date.now()} />
            </p>
          </li>
        ))}
      </ul>
    </>
  )
}
