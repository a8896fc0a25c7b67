/**
 * The reports' reads (issue 24 §1, decision 101): the reported content itself, the queue's groups
 * (open reports of one item together), the history of moderators' actions and an author's notices.
 */

import { noticeText } from '@buble/shared/report-labels'
import type {
  ModerationAction,
  ModerationNotice,
  ReportGroup,
  ReportMuteDuration,
  ReportReason,
  ReportTargetType,
} from '@buble/shared/reports'
import { and, desc, eq, inArray, isNull, ne, type SQL, sql } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import type { Executor } from '../../db/client.ts'
import {
  bubles,
  chatMessages,
  comments,
  events,
  moderationActions,
  polls,
  posts,
  reports,
  stories,
  users,
} from '../../db/schema.ts'

/** What the queue keeps of reported content: at most this many characters of its text. */
const EXCERPT_CHARS = 300

export interface ReportedContent {
  bubleId: string
  authorId: string
  excerpt: string
}

const cut = (text: string) => (text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS - 1)}…` : text)

/** Where each kind of reportable content keeps its buble, its author and the text the queue shows. */
const CONTENT_OF: Record<
  ReportTargetType,
  { table: PgTable; id: PgColumn; bubleId: PgColumn; authorId: PgColumn; text: PgColumn | SQL<string> }
> = {
  post: { table: posts, id: posts.id, bubleId: posts.bubleId, authorId: posts.authorId, text: posts.content },
  comment: {
    table: comments,
    id: comments.id,
    bubleId: comments.bubleId,
    authorId: comments.authorId,
    text: comments.content,
  },
  chat_message: {
    table: chatMessages,
    id: chatMessages.id,
    bubleId: chatMessages.bubleId,
    authorId: chatMessages.senderId,
    text: chatMessages.content,
  },
  story: {
    table: stories,
    id: stories.id,
    bubleId: stories.bubleId,
    authorId: stories.authorId,
    text: sql<string>`case when ${stories.mediaType} = 'image' then 'An image story' else 'A video story' end`,
  },
  event: { table: events, id: events.id, bubleId: events.bubleId, authorId: events.creatorId, text: events.title },
  poll: { table: polls, id: polls.id, bubleId: polls.bubleId, authorId: polls.creatorId, text: polls.question },
}

/** The reported row of any kind, or null when there is none. */
export async function findContent(db: Executor, type: ReportTargetType, id: string): Promise<ReportedContent | null> {
  const { table, id: idColumn, bubleId, authorId, text } = CONTENT_OF[type]
  const [row] = await db
    .select({ bubleId: sql<string>`${bubleId}`, authorId: sql<string>`${authorId}`, text: sql<string>`${text}` })
    .from(table)
    .where(eq(idColumn, id))
    .limit(1)
  return row ? { bubleId: row.bubleId, authorId: row.authorId, excerpt: cut(row.text) } : null
}

const iso = (date: Date) => date.toISOString()
const person = (id: string | null, name: string | null) => (id && name !== null ? { id, name } : null)

/** The names of some users, by id. */
async function namesOf(db: Executor, ids: readonly (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => !!id))]
  if (wanted.length === 0) return new Map()
  const rows = await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, wanted))
  return new Map(rows.map((row) => [row.id, row.name]))
}

export interface QueueArgs {
  /** One buble's queue; null for every buble (the platform admin's list). */
  bubleId: string | null
  /** The last group of the previous page: its newest report's time and its target id. */
  after: { at: string; id: string } | undefined
  take: number
  /** Groups to skip (the admin's numbered pages); the buble's queue goes by `after`. */
  skip?: number
}

/** Open reports grouped by item, the most recently reported first. */
export async function openGroups(db: Executor, { bubleId, after, take, skip = 0 }: QueueArgs): Promise<ReportGroup[]> {
  const last = sql<Date>`max(date_trunc('milliseconds', ${reports.createdAt}))`
  const heads = await db
    .select({
      bubleId: reports.bubleId,
      targetType: reports.targetType,
      targetId: reports.targetId,
      first: sql<Date>`min(${reports.createdAt})`.mapWith(reports.createdAt),
      last: last.mapWith(reports.createdAt),
    })
    .from(reports)
    .where(and(isNull(reports.resolvedAt), bubleId ? eq(reports.bubleId, bubleId) : undefined))
    .groupBy(reports.bubleId, reports.targetType, reports.targetId)
    .having(after ? sql`(${last}, ${reports.targetId}) < (${after.at}::timestamptz, ${after.id}::uuid)` : undefined)
    .orderBy(desc(last), desc(reports.targetId))
    .limit(take)
    .offset(skip)
  if (heads.length === 0) return []
  const rows = await db
    .select()
    .from(reports)
    .where(
      and(
        isNull(reports.resolvedAt),
        inArray(
          reports.targetId,
          heads.map((head) => head.targetId),
        ),
      ),
    )
    .orderBy(reports.createdAt)
  const bubleNames = new Map(
    (
      await db
        .select({ id: bubles.id, name: bubles.name })
        .from(bubles)
        .where(inArray(bubles.id, [...new Set(heads.map((head) => head.bubleId))]))
    ).map((row) => [row.id, row.name]),
  )
  const names = await namesOf(
    db,
    rows.flatMap((row) => [row.reporterId, row.authorId]),
  )
  const groups: ReportGroup[] = []
  for (const head of heads) {
    const mine = rows.filter((row) => row.targetId === head.targetId && row.targetType === head.targetType)
    const type = head.targetType as ReportTargetType
    const counts = new Map<ReportReason, number>()
    for (const row of mine) counts.set(row.reason as ReportReason, (counts.get(row.reason as ReportReason) ?? 0) + 1)
    const newest = mine.at(-1)
    const authorId = newest?.authorId ?? null
    groups.push({
      buble_id: head.bubleId,
      buble_name: bubleNames.get(head.bubleId) ?? '',
      target_type: type,
      target_id: head.targetId,
      excerpt: newest?.excerpt ?? '',
      exists: (await findContent(db, type, head.targetId)) !== null,
      author: person(authorId, authorId ? (names.get(authorId) ?? null) : null),
      reasons: [...counts].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count),
      reports: mine.map((row) => ({
        id: row.id,
        reporter: { id: row.reporterId, name: names.get(row.reporterId) ?? '' },
        reason: row.reason as ReportReason,
        note: row.note,
        created_at: iso(row.createdAt),
      })),
      first_reported_at: iso(head.first),
      last_reported_at: iso(head.last),
    })
  }
  return groups
}

/** How many items have open reports (every buble's: the admin's page count). */
export async function countOpenGroups(db: Executor): Promise<number> {
  const [row] = await db
    .select({ n: sql<string>`count(distinct (${reports.targetType}, ${reports.targetId}))` })
    .from(reports)
    .where(isNull(reports.resolvedAt))
  return Number(row?.n ?? 0)
}

type ActionRow = typeof moderationActions.$inferSelect

/** A moderation action as the history shows it. */
export async function asActions(db: Executor, rows: ActionRow[]): Promise<ModerationAction[]> {
  const names = await namesOf(
    db,
    rows.flatMap((row) => [row.moderatorId, row.authorId]),
  )
  return rows.map((row) => ({
    id: row.id,
    buble_id: row.bubleId,
    action: row.action as ModerationAction['action'],
    duration: row.duration as ReportMuteDuration | null,
    target_type: row.targetType as ReportTargetType,
    target_id: row.targetId,
    excerpt: row.excerpt,
    moderator: person(row.moderatorId, row.moderatorId ? (names.get(row.moderatorId) ?? null) : null),
    author: person(row.authorId, row.authorId ? (names.get(row.authorId) ?? null) : null),
    reports_closed: row.reportsClosed,
    created_at: iso(row.createdAt),
  }))
}

/** A buble's moderation actions, the newest first. */
export async function actionHistory(db: Executor, bubleId: string, take: number): Promise<ModerationAction[]> {
  const rows = await db
    .select()
    .from(moderationActions)
    .where(eq(moderationActions.bubleId, bubleId))
    .orderBy(desc(moderationActions.createdAt), desc(moderationActions.id))
    .limit(take)
  return asActions(db, rows)
}

/** What was done to a member's content in a buble (delete and mute; a dismissal changes nothing of theirs). */
export async function noticesOf(
  db: Executor,
  userId: string,
  bubleId: string,
  take: number,
): Promise<ModerationNotice[]> {
  const rows = await db
    .select()
    .from(moderationActions)
    .where(
      and(
        eq(moderationActions.authorId, userId),
        eq(moderationActions.bubleId, bubleId),
        ne(moderationActions.action, 'dismiss'),
      ),
    )
    .orderBy(desc(moderationActions.createdAt), desc(moderationActions.id))
    .limit(take)
  return rows.map((row) => {
    const action = row.action as ModerationNotice['action']
    const duration = row.duration as ReportMuteDuration | null
    const type = row.targetType as ReportTargetType
    return {
      id: row.id,
      buble_id: row.bubleId,
      action,
      duration,
      target_type: type,
      excerpt: row.excerpt,
      text: noticeText(action, type, duration),
      created_at: iso(row.createdAt),
    }
  })
}
