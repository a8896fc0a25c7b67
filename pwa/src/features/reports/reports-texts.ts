/** The texts of the Reports section (issue 24 §1), declared once. */

import { MUTE_DURATION_LABELS } from '@buble/shared/mute-texts'
import { REASON_LABELS, TARGET_LABELS } from '@buble/shared/report-labels'
import type { ModerationAction, ReportReason, ReportTargetType } from '@buble/shared/reports'
import { plural } from '../../ui/format.ts'

export const REPORTS_TEXTS = {
  heading: 'Reports',
  intro: 'Reports from members of this Buble. Only moderators see them, and who reported what.',
  loading: 'Loading reports…',
  failed: 'Failed to load reports',
  offline: 'You are offline. The reports load when you are back online.',
  offlineKept:
    'You are offline. These are the reports loaded before; what you do now is sent when you are back online.',
  empty: 'No open reports',
  emptyHint: 'Nothing needs a moderator now.',
  loadMore: 'Load more',
  gone: 'This content is no longer there.',
  dismiss: 'Dismiss',
  delete: (type: ReportTargetType) => `Delete ${TARGET_LABELS[type]}`,
  deleteTitle: (type: ReportTargetType) => `Delete this ${TARGET_LABELS[type]}?`,
  deleteBody:
    'It is removed for everyone in this Buble, and its reports close. The author is told, without who reported it.',
  deleting: 'Deleting…',
  muteLabel: 'Mute the author for',
  mute: 'Mute author',
  actionFailed: 'Failed to handle report',
  done: {
    dismiss: 'Reports dismissed.',
    delete: (type: ReportTargetType) => `The ${TARGET_LABELS[type]} was deleted.`,
    mute: (name: string, duration: keyof typeof MUTE_DURATION_LABELS) =>
      duration === 'indefinite'
        ? `${name} is muted until unmuted.`
        : `${name} is muted for ${MUTE_DURATION_LABELS[duration]}.`,
  },
  historyHeading: 'History',
  historyEmpty: 'No actions yet.',
  historyFailed: 'Failed to load the history',
  noticesHeading: 'About your content',
  noticesFailed: 'Failed to load the notices',
  noticesEmpty: 'Moderators have not acted on anything of yours in this Buble.',
  byline: (type: ReportTargetType, author: string | undefined) =>
    `${capital(TARGET_LABELS[type])} by ${author ?? 'a former member'}`,
  reportsCount: (n: number) => plural(n, 'report'),
  reason: (reason: ReportReason) => REASON_LABELS[reason],
} as const

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

/** One line of the history: who did what to whose content, and how many reports it closed. */
export function historyLine(action: ModerationAction): string {
  const who = action.moderator?.name ?? 'A former moderator'
  const what = TARGET_LABELS[action.target_type]
  const whose = action.author ? `${action.author.name}'s ${what}` : `a ${what}`
  const closed = plural(action.reports_closed, 'report')
  switch (action.action) {
    case 'dismiss':
      return `${who} dismissed ${closed} on ${whose}`
    case 'delete':
      return `${who} deleted ${whose} (${closed})`
    case 'mute': {
      const length =
        action.duration && action.duration !== 'indefinite'
          ? `for ${MUTE_DURATION_LABELS[action.duration]}`
          : 'until unmuted'
      return `${who} muted ${action.author?.name ?? 'the author'} ${length} over a ${what} (${closed})`
    }
  }
}
