/**
 * Reports and the moderation queue (issue 24 §1, decision 101). A member reports content of their
 * buble (REST or `report.create`); moderators (moderate_content) read the queue, grouped by item,
 * and resolve an item's open reports at once (REST or `report.resolve`): dismiss, delete through
 * the content's own delete service, or mute the author. Each action is recorded, and the author is
 * told of a delete or a mute (in-app and by Web Push after commit), never who reported.
 */

import { canModerate, mayResolveReport } from '@buble/shared/permissions'
import { noticeText, REPORT_REFUSALS } from '@buble/shared/report-labels'
import {
  type AdminReportsPage,
  type CreateReportBody,
  type ModerationAction,
  type ModerationNotice,
  REPORTS_PAGE_SIZE,
  type Report,
  type ReportMuteDuration,
  type ReportQueue,
  type ReportTargetType,
  type ResolveReportsBody,
} from '@buble/shared/reports'
import { and, eq, inArray, isNull, sql } from 'drizzle-orm'
import { v7 as uuidv7 } from 'uuid'
import type { Executor } from '../../db/client.ts'
import { moderationActions, reports } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import type { UserRow } from '../../lib/accounts.ts'
import type { ContentAddedBus } from '../../lib/content-added.ts'
import type { Created } from '../../lib/entity-ids.ts'
import { claimId } from '../../lib/entity-ids.ts'
import { forbidden, notFound } from '../../lib/errors.ts'
import { findMembership, memberActorOf, requireMembership } from '../../lib/memberships.ts'
import { type SyncWriter, syncWrite } from '../../lib/sync-writes.ts'
import { actionHistory, asActions, countOpenGroups, findContent, noticesOf, openGroups } from './queries.ts'

/** Each kind's existing delete service: the moderator's delete is the same write as any other (tombstone and all). */
export type ContentDeleters = Record<ReportTargetType, (user: UserRow, id: string) => Promise<void>>

/** The muting feature's one function (issue 24 §2), called inside the resolve's write. */
export type MuteMember = (
  user: UserRow,
  bubleId: string,
  userId: string,
  duration: ReportMuteDuration,
) => Promise<unknown>

export interface ReportsHooks {
  deleters: ContentDeleters
  mute: MuteMember
  contentAdded: ContentAddedBus
}

type ReportRow = typeof reports.$inferSelect

const asReport = (row: ReportRow): Report => ({
  id: row.id,
  buble_id: row.bubleId,
  target_type: row.targetType as ReportTargetType,
  target_id: row.targetId,
  reason: row.reason as Report['reason'],
  note: row.note,
  created_at: row.createdAt.toISOString(),
  resolved_at: row.resolvedAt ? row.resolvedAt.toISOString() : null,
})

/** A cursor `<iso time>~<target id>`, as `next` gives it; anything else starts from the top. */
function parseCursor(cursor: string | undefined): { at: string; id: string } | undefined {
  if (!cursor) return undefined
  const [at, id] = cursor.split('~')
  if (!at || !id || Number.isNaN(Date.parse(at)) || !/^[0-9a-f-]{36}$/i.test(id)) return undefined
  return { at, id }
}

/**
 * The moderators' Reports counters move: their `reports` read mark is touched (made at their join
 * when they have none, so the count is unchanged), and its new version sends their devices the counter again.
 */
async function touchModeratorCounters(w: SyncWriter, bubleId: string, reporterId: string): Promise<void> {
  const result = await w.tx.execute<{
    user_id: string
  }>(sql`insert into unread_marks (user_id, buble_id, content_type, read_at, read_version)
    select m.user_id, m.buble_id, 'reports', m.joined_at, m.joined_version from memberships m
    where m.buble_id = ${bubleId} and m.user_id <> ${reporterId}
      and (m.role = 'owner' or 'moderate_content' = any(m.permissions))
    on conflict (user_id, buble_id, content_type) do update set version = buble_next_version()
    returning user_id`)
  for (const row of (result as unknown as { rows: { user_id: string }[] }).rows)
    w.userChanged(row.user_id, bubleId, 'unread')
}

async function requireModerator(tx: Executor, bubleId: string, userId: string) {
  const me = await requireMembership(tx, bubleId, userId)
  if (!canModerate(memberActorOf(me))) throw forbidden(REPORT_REFUSALS.notModerator)
  return me
}

export type ReportsService = ReturnType<typeof reportsService>

export function reportsService(deps: Deps, hooks: ReportsHooks) {
  const { db, now } = deps

  return {
    /**
     * Reports content of the buble. One open report per reporter and item: reporting it again
     * updates the reason and note. One's own content cannot be reported (403); content of a
     * buble one is not in is 404, like the buble.
     */
    async create(user: UserRow, bubleId: string, body: CreateReportBody): Promise<Created<Report>> {
      return syncWrite(db, async (w) => {
        await requireMembership(w.tx, bubleId, user.id)
        const content = await findContent(w.tx, body.target_type, body.target_id)
        if (!content || content.bubleId !== bubleId) throw notFound(REPORT_REFUSALS.contentNotFound)
        if (content.authorId === user.id) throw forbidden(REPORT_REFUSALS.ownContent)
        const id = body.id ?? uuidv7()
        // A report re-sent with its id answers the reporter's open report of the item (or the one it made).
        const claimed = await claimId(w.tx, id, 'report', user.id, sql`true`)
        const mine = and(
          eq(reports.reporterId, user.id),
          eq(reports.targetType, body.target_type),
          eq(reports.targetId, body.target_id),
          isNull(reports.resolvedAt),
        )
        const [open] = await w.tx.select().from(reports).where(mine).limit(1)
        if (open) {
          if (claimed === 'existing' && open.id === id) return { value: asReport(open), created: false }
          const [updated] = await w.tx
            .update(reports)
            .set({ reason: body.reason, note: body.note ?? null })
            .where(eq(reports.id, open.id))
            .returning()
          return { value: asReport(updated!), created: false }
        }
        if (claimed === 'existing') {
          const [made] = await w.tx.select().from(reports).where(eq(reports.id, id)).limit(1)
          if (made) return { value: asReport(made), created: false }
        }
        const [row] = await w.tx
          .insert(reports)
          .values({
            id,
            bubleId,
            targetType: body.target_type,
            targetId: body.target_id,
            authorId: content.authorId,
            reporterId: user.id,
            reason: body.reason,
            note: body.note ?? null,
            excerpt: content.excerpt,
            createdAt: now(),
            addedVersion: sql`buble_next_version()`,
          })
          .returning()
        await touchModeratorCounters(w, bubleId, user.id)
        return { value: asReport(row!), created: true }
      })
    },

    /** The caller's own open reports in the buble (a reporter sees theirs, never anyone else's). */
    async mine(user: UserRow, bubleId: string): Promise<Report[]> {
      await requireMembership(db, bubleId, user.id)
      const rows = await db
        .select()
        .from(reports)
        .where(and(eq(reports.bubleId, bubleId), eq(reports.reporterId, user.id), isNull(reports.resolvedAt)))
      return rows.map(asReport)
    },

    /** The buble's queue: open reports grouped by item, newest first, a page after `cursor` (moderators only). */
    async queue(user: UserRow, bubleId: string, cursor?: string): Promise<ReportQueue> {
      await requireModerator(db, bubleId, user.id)
      return page(db, bubleId, cursor)
    },

    /** The buble's moderation actions, newest first (moderators only). */
    async history(user: UserRow, bubleId: string): Promise<ModerationAction[]> {
      await requireModerator(db, bubleId, user.id)
      return actionHistory(db, bubleId, REPORTS_PAGE_SIZE * 2)
    },

    /** What moderators did to the caller's content in the buble, without who reported it. */
    async notices(user: UserRow, bubleId: string): Promise<ModerationNotice[]> {
      await requireMembership(db, bubleId, user.id)
      return noticesOf(db, user.id, bubleId, REPORTS_PAGE_SIZE)
    },

    /** Every buble's open reports, grouped, by numbered page like the admin's other lists (the platform admin's tab). */
    async adminPage({ page: number, limit }: { page: number; limit: number }): Promise<AdminReportsPage> {
      const [groups, total] = await Promise.all([
        openGroups(db, { bubleId: null, after: undefined, take: limit, skip: (number - 1) * limit }),
        countOpenGroups(db),
      ])
      return {
        reports: groups,
        pagination: { page: number, limit, pages: Math.max(1, Math.ceil(total / limit)), total },
      }
    },

    /**
     * One action on every open report of an item: the reports close together, the action is
     * recorded with how many it closed, and the author is told of a delete or a mute after commit.
     */
    async resolve(user: UserRow, bubleId: string, body: ResolveReportsBody): Promise<ModerationAction> {
      return syncWrite(db, async (w) => {
        const me = await requireModerator(w.tx, bubleId, user.id)
        const open = await w.tx
          .select()
          .from(reports)
          .where(
            and(
              eq(reports.bubleId, bubleId),
              eq(reports.targetType, body.target_type),
              eq(reports.targetId, body.target_id),
              isNull(reports.resolvedAt),
            ),
          )
        if (open.length === 0) throw notFound(REPORT_REFUSALS.noOpenReports)
        const content = await findContent(w.tx, body.target_type, body.target_id)
        const authorId = content?.authorId ?? open[0]!.authorId
        const author = authorId ? await findMembership(w.tx, bubleId, authorId) : undefined
        const allowed = mayResolveReport(
          memberActorOf(me),
          body.action,
          { kind: body.target_type, authorId: authorId ?? '' },
          author ? { userId: author.userId, role: author.role } : null,
        )
        if (!allowed)
          throw forbidden(body.action === 'mute' ? REPORT_REFUSALS.mayNotMute : REPORT_REFUSALS.mayNotDelete)
        // Content already gone (its author deleted it) has nothing left to delete: the reports still close.
        if (body.action === 'delete' && content) await hooks.deleters[body.target_type](user, body.target_id)
        const duration = body.action === 'mute' ? (body.duration ?? 'indefinite') : null
        if (body.action === 'mute' && authorId) await hooks.mute(user, bubleId, authorId, duration!)
        const id = uuidv7()
        const [action] = await w.tx
          .insert(moderationActions)
          .values({
            id,
            bubleId,
            moderatorId: user.id,
            action: body.action,
            duration,
            targetType: body.target_type,
            targetId: body.target_id,
            authorId: authorId ?? null,
            excerpt: content?.excerpt ?? open.at(-1)!.excerpt,
            reportsClosed: open.length,
            createdAt: now(),
          })
          .returning()
        await w.tx
          .update(reports)
          .set({ resolvedAt: now(), resolutionId: id })
          .where(
            inArray(
              reports.id,
              open.map((row) => row.id),
            ),
          )
        if (body.action !== 'dismiss' && authorId)
          hooks.contentAdded.announce(w, {
            bubleId,
            contentType: 'reports',
            actorId: user.id,
            title: 'Moderation',
            body: noticeText(body.action, body.target_type, duration),
            recipients: [authorId],
          })
        const [answer] = await asActions(w.tx, [action!])
        return answer!
      })
    },
  }
}

async function page(db: Executor, bubleId: string | null, cursor: string | undefined): Promise<ReportQueue> {
  const groups = await openGroups(db, { bubleId, after: parseCursor(cursor), take: REPORTS_PAGE_SIZE + 1 })
  const shown = groups.slice(0, REPORTS_PAGE_SIZE)
  const last = shown.at(-1)
  return {
    groups: shown,
    next: groups.length > REPORTS_PAGE_SIZE && last ? `${last.last_reported_at}~${last.target_id}` : null,
  }
}
