/**
 * How reports read (issue 24 §1): the names of what is reported and why, and the notice its author
 * gets. Apart from shared/reports.ts, whose schemas every device loads at once with the mutations.
 */

import { MUTE_DURATION_LABELS } from './mute-texts.ts'
import type { ReportAction, ReportMuteDuration, ReportReason, ReportTargetType } from './reports.ts'

export const TARGET_LABELS: Readonly<Record<ReportTargetType, string>> = {
  post: 'post',
  comment: 'comment',
  chat_message: 'chat message',
  story: 'story',
  event: 'event',
  poll: 'poll',
}

export const REASON_LABELS: Readonly<Record<ReportReason, string>> = {
  spam: 'Spam',
  harassment: 'Harassment',
  inappropriate: 'Inappropriate',
  other: 'Other',
}

/** The author's notice (push and in-app), naming the content and the action but no reporter. */
export function noticeText(
  action: Exclude<ReportAction, 'dismiss'>,
  type: ReportTargetType,
  duration?: ReportMuteDuration | null,
): string {
  const what = TARGET_LABELS[type]
  if (action === 'delete') return `A moderator removed your ${what} after it was reported.`
  if (!duration || duration === 'indefinite')
    return `A moderator muted you until further notice after your ${what} was reported.`
  return `A moderator muted you for ${MUTE_DURATION_LABELS[duration]} after your ${what} was reported.`
}

/** What the server answers a refused report or action. */
export const REPORT_REFUSALS = {
  contentNotFound: 'Content not found',
  ownContent: 'You cannot report your own content',
  notModerator: 'Only moderators can handle reports in this Buble',
  mayNotDelete: 'You may not delete this',
  mayNotMute: 'You may not mute this member',
  noOpenReports: 'There are no open reports of this content',
} as const
