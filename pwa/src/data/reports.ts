/**
 * Reports on the device (issue 24 §1, decision 101). A report is queued like any write
 * (`report.create` through the outbox, so it works offline), and the device remembers which items
 * it reported (the engine's meta table) to show "Reported". The moderation queue, its history and
 * an author's notices are read online (REST); a moderator's action is queued (`report.resolve`).
 */

import type { MutationInput } from '@buble/shared/mutations'
import type {
  ModerationAction,
  ModerationNotice,
  ReportQueue,
  ReportReason,
  ReportTargetType,
  ResolveReportsBody,
} from '@buble/shared/reports'
import { useLiveQuery } from 'dexie-react-hooks'
import { useApi } from '../session/session-context.tsx'
import { useDevice } from './data-context.tsx'
import { queueCreate } from './device.ts'
import { sessionEnded, useOnlineQuery } from './online.ts'

const reportedKey = (bubleId: string) => `reported:${bubleId}`

export interface NewReport {
  bubleId: string
  targetType: ReportTargetType
  targetId: string
  reason: ReportReason
  note: string
}

/** Queues a report (sent now, or once back online) and remembers the item as reported on this device. */
export function useSendReport(): (report: NewReport) => Promise<void> {
  const device = useDevice()
  return async ({ bubleId, targetType, targetId, reason, note }) => {
    await queueCreate(device, 'report.create', {
      buble_id: bubleId,
      target_type: targetType,
      target_id: targetId,
      reason,
      note: note.trim() === '' ? null : note,
    })
    const key = reportedKey(bubleId)
    await device.db.transaction('rw', device.db.meta, async () => {
      const list = ((await device.db.meta.get(key))?.value as string[] | undefined) ?? []
      if (!list.includes(targetId)) await device.db.meta.put({ key, value: [...list, targetId] })
    })
  }
}

/** Whether this device reported the item (its own reports only: nobody sees another's). */
export function useReported(bubleId: string, targetId: string): boolean {
  const { db } = useDevice()
  const list = useLiveQuery(
    async () => ((await db.meta.get(reportedKey(bubleId)))?.value as string[] | undefined) ?? [],
    [db, bubleId],
  )
  return (list ?? []).includes(targetId)
}

/** Queues a moderator's action on an item's open reports (dismiss, delete, mute). */
export function useResolveReports(): (bubleId: string, body: ResolveReportsBody) => Promise<void> {
  const device = useDevice()
  return async (bubleId, body) => {
    await device.mutate('report.resolve', { buble_id: bubleId, ...body } as MutationInput<'report.resolve'>)
  }
}

/** A failure's text: none once the session ended, the offline text when no answer came at all, else `fallback`. */
const failure = (texts: { failure: string; offline: string }) => (err: unknown) =>
  sessionEnded(err) ? null : err instanceof TypeError ? texts.offline : texts.failure

// The queue, its history and the notices are read online. Going offline keeps what was loaded on
// screen (so a moderator can still act: the action is queued); nothing loaded shows the offline text.
const options = (texts: { failure: string; offline: string }) =>
  ({ failure: failure(texts), keepData: true, retryOnce: true }) as const

/** The buble's moderation queue (moderators): its first page, and the next ones on demand. */
export function useReportQueue(bubleId: string, texts: { failure: string; offline: string }) {
  const api = useApi()
  const query = useOnlineQuery<ReportQueue>(
    `reports|${bubleId}`,
    (signal) => api.get<ReportQueue>(`/bubles/${bubleId}/reports`, signal),
    options(texts),
  )
  const loadMore = async (cursor: string) => {
    const page = await api.get<ReportQueue>(`/bubles/${bubleId}/reports?cursor=${encodeURIComponent(cursor)}`)
    query.update((data) => ({ groups: [...data.groups, ...page.groups], next: page.next }))
  }
  return { ...query, loadMore }
}

/** The buble's moderation history (moderators), read online. */
export function useModerationHistory(bubleId: string, texts: { failure: string; offline: string }) {
  const api = useApi()
  return useOnlineQuery<{ actions: ModerationAction[] }>(
    `reports-history|${bubleId}`,
    (signal) => api.get(`/bubles/${bubleId}/reports/history`, signal),
    options(texts),
  )
}

/** What moderators did to the reader's own content in the buble (the author's in-app notices). */
export function useModerationNotices(bubleId: string, texts: { failure: string; offline: string }) {
  const api = useApi()
  return useOnlineQuery<{ notices: ModerationNotice[] }>(
    `moderation-notices|${bubleId}`,
    (signal) => api.get(`/bubles/${bubleId}/moderation/notices`, signal),
    options(texts),
  )
}
