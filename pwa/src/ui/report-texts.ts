/** The texts of reporting content and of the moderation queue (issue 24 §1), declared once. */

import { TARGET_LABELS } from '@buble/shared/report-labels'
import type { ReportReason, ReportTargetType } from '@buble/shared/reports'

export const REPORT_TEXTS = {
  report: 'Report',
  reported: 'Reported',
  dialogTitle: (type: ReportTargetType) => `Report this ${TARGET_LABELS[type]}`,
  intro: 'Only the moderators of this Buble see your report. The author is not told who reported it.',
  reasonLegend: 'Reason',
  pickReason: 'Pick a reason',
  noteLabel: 'Note for the moderators (optional)',
  send: 'Send report',
  sending: 'Sending…',
  failed: 'Failed to send report',
  sent: 'Thanks. Your report goes to the moderators of this Buble.',
  queued: 'Thanks. Your report is saved on this device and goes to the moderators when you are back online.',
} as const

export const REASON_HINTS: Readonly<Record<ReportReason, string>> = {
  spam: 'Advertising, scams or repeated posting',
  harassment: 'Bullying, threats or hate aimed at someone',
  inappropriate: 'Content that does not belong in this Buble',
  other: 'Something else: say what in the note',
}
