/** Reports in sync: their two mutations, and the moderators' Reports counter. */

import type { REPORT_MUTATIONS } from '@buble/shared/mutations'
import type { MutationHandlersOf, UnreadSource } from '../../lib/sync-sources.ts'
import type { ReportsService } from './service.ts'

/** New reports by others count on the Reports counter, for members holding moderate_content only. */
export const reportsUnreadSources: UnreadSource[] = [
  {
    contentType: 'reports',
    table: 'reports',
    bubleColumn: 'buble_id',
    addedColumn: 'added_version',
    authorColumn: 'reporter_id',
    onlyWith: 'moderate_content',
  },
]

export const reportsMutations = (reports: ReportsService): MutationHandlersOf<typeof REPORT_MUTATIONS> => ({
  'report.create': async (user, { buble_id, ...body }) => (await reports.create(user, buble_id, body)).value,
  'report.resolve': (user, { buble_id, ...body }) => reports.resolve(user, buble_id, body),
})
