/**
 * Reports and the moderation queue (issue 24 §1, decision 101): what a member reports, the queue's
 * grouped entries, the moderators' actions and the notice their author gets. Texts are declared here once.
 */

import { z } from 'zod'
import { ClientId, Uuid } from './bubles.ts'
import { MUTE_DURATIONS, type MuteDuration } from './mutes.ts'
import { CONTENT_KINDS, type ContentKind } from './permissions.ts'

/** What can be reported: every kind of content a member makes in a buble. */
export const REPORT_TARGET_TYPES = CONTENT_KINDS
export type ReportTargetType = ContentKind

export const REPORT_REASONS = ['spam', 'harassment', 'inappropriate', 'other'] as const
export type ReportReason = (typeof REPORT_REASONS)[number]

/** What a moderator does with an item's open reports. */
export const REPORT_ACTIONS = ['dismiss', 'delete', 'mute'] as const
export type ReportAction = (typeof REPORT_ACTIONS)[number]

/** How long a mute from the queue lasts: the muting feature's durations (issue 24 §2). */
export const REPORT_MUTE_DURATIONS = MUTE_DURATIONS
export type ReportMuteDuration = MuteDuration

/** A report's optional note to the moderators: at most this many characters. */
export const REPORT_NOTE_MAX = 1000

/** Queue and admin lists are paged by this many items. */
export const REPORTS_PAGE_SIZE = 20

export const REPORT_MESSAGES = {
  badTargetType: `target_type must be one of ${REPORT_TARGET_TYPES.join(', ')}`,
  badReason: `reason must be one of ${REPORT_REASONS.join(', ')}`,
  noteTooLong: `note may be at most ${REPORT_NOTE_MAX} characters`,
  badAction: `action must be one of ${REPORT_ACTIONS.join(', ')}`,
  badDuration: `duration must be one of ${REPORT_MUTE_DURATIONS.join(', ')}`,
  durationRequired: 'duration is required to mute',
} as const

export const ReportTargetTypeSchema = z.enum(REPORT_TARGET_TYPES, { error: REPORT_MESSAGES.badTargetType })
export const ReportReasonSchema = z.enum(REPORT_REASONS, { error: REPORT_MESSAGES.badReason })

/** The note, trimmed, empty as null, within the limit. */
export const ReportNote = z
  .string()
  .trim()
  .max(REPORT_NOTE_MAX, { error: REPORT_MESSAGES.noteTooLong })
  .nullish()
  .transform((value) => (value ? value : null))

/** `POST /api/bubles/:bubleId/reports`. */
export const CreateReportBody = z.object({
  id: ClientId.optional(),
  target_type: ReportTargetTypeSchema,
  target_id: Uuid('target_id must be a UUID'),
  reason: ReportReasonSchema,
  note: ReportNote,
})
export type CreateReportBody = z.infer<typeof CreateReportBody>

/** `POST /api/bubles/:bubleId/reports/resolve`: one action on every open report of one item. */
export const ResolveReportsBody = z
  .object({
    target_type: ReportTargetTypeSchema,
    target_id: Uuid('target_id must be a UUID'),
    action: z.enum(REPORT_ACTIONS, { error: REPORT_MESSAGES.badAction }),
    duration: z.enum(REPORT_MUTE_DURATIONS, { error: REPORT_MESSAGES.badDuration }).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.action === 'mute' && !body.duration)
      ctx.addIssue({ code: 'custom', path: ['duration'], message: REPORT_MESSAGES.durationRequired })
  })
export type ResolveReportsBody = z.infer<typeof ResolveReportsBody>

/** A member as a report shows them. */
export interface ReportPerson {
  id: string
  name: string
}

/** A reporter's own report, as answered to them (never anyone else's). */
export interface Report {
  id: string
  buble_id: string
  target_type: ReportTargetType
  target_id: string
  reason: ReportReason
  note: string | null
  created_at: string
  resolved_at: string | null
}

/** One entry of the queue: the open reports of one item, grouped (moderators only). */
export interface ReportGroup {
  buble_id: string
  buble_name: string
  target_type: ReportTargetType
  target_id: string
  /** The content as it was reported (its text, or a title); `exists` false once it is gone. */
  excerpt: string
  exists: boolean
  author: ReportPerson | null
  /** Each reason with how many open reports give it, the most given first. */
  reasons: { reason: ReportReason; count: number }[]
  reports: { id: string; reporter: ReportPerson; reason: ReportReason; note: string | null; created_at: string }[]
  first_reported_at: string
  last_reported_at: string
}

/** A moderator's action, as the queue's history and the admin list show it. */
export interface ModerationAction {
  id: string
  buble_id: string
  action: ReportAction
  duration: ReportMuteDuration | null
  target_type: ReportTargetType
  target_id: string
  excerpt: string
  moderator: ReportPerson | null
  author: ReportPerson | null
  reports_closed: number
  created_at: string
}

/** What the author of reported content is told: what happened, never who reported it. */
export interface ModerationNotice {
  id: string
  buble_id: string
  action: Exclude<ReportAction, 'dismiss'>
  duration: ReportMuteDuration | null
  target_type: ReportTargetType
  excerpt: string
  text: string
  created_at: string
}

export interface ReportQueue {
  groups: ReportGroup[]
  /** The next page's cursor, null after the last. */
  next: string | null
}

/** `GET /api/admin/reports?page=&limit=`: every buble's open reports, grouped, paged like the admin's other lists. */
export interface AdminReportsPage {
  reports: ReportGroup[]
  pagination: { page: number; limit: number; pages: number; total: number }
}
