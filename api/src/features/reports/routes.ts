/** The reports' REST calls (issue 24 §1, decision 101): thin adapters over the service. */

import { CreateReportBody, ResolveReportsBody } from '@buble/shared/reports'
import { Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../lib/auth.ts'
import { describe } from '../../lib/openapi.ts'
import { bubleIdFromPath } from '../../lib/path-ids.ts'
import { validate } from '../../lib/validate.ts'
import type { ReportsService } from './service.ts'

const PageQuery = z.object({ cursor: z.string().max(200).optional() })

export function reportsRoutes(reports: ReportsService) {
  const tag = 'reports'
  const bubleOf = (raw: string) => bubleIdFromPath(raw)
  return new Hono<AppEnv>()
    .post(
      '/bubles/:id/reports',
      describe({ tag, summary: 'Report content of the buble (one open report per item; again updates it)' }),
      validate('json', CreateReportBody),
      async (c) => {
        const { value, created } = await reports.create(c.var.user, bubleOf(c.req.param('id')), c.req.valid('json'))
        return c.json(value, created ? 201 : 200)
      },
    )
    .get('/bubles/:id/reports/mine', describe({ tag, summary: 'Your own open reports in the buble' }), async (c) =>
      c.json({ reports: await reports.mine(c.var.user, bubleOf(c.req.param('id'))) }),
    )
    .get(
      '/bubles/:id/reports',
      describe({ tag, summary: 'The moderation queue: open reports grouped by item (moderate_content)' }),
      validate('query', PageQuery),
      async (c) => c.json(await reports.queue(c.var.user, bubleOf(c.req.param('id')), c.req.valid('query').cursor)),
    )
    .get(
      '/bubles/:id/reports/history',
      describe({ tag, summary: "The moderators' actions, newest first (moderate_content)" }),
      async (c) => c.json({ actions: await reports.history(c.var.user, bubleOf(c.req.param('id'))) }),
    )
    .post(
      '/bubles/:id/reports/resolve',
      describe({ tag, summary: "Dismiss, delete or mute on an item's open reports (moderate_content)" }),
      validate('json', ResolveReportsBody),
      async (c) => c.json(await reports.resolve(c.var.user, bubleOf(c.req.param('id')), c.req.valid('json'))),
    )
    .get(
      '/bubles/:id/moderation/notices',
      describe({ tag, summary: 'What moderators did to your content in the buble (no reporter named)' }),
      async (c) => c.json({ notices: await reports.notices(c.var.user, bubleOf(c.req.param('id'))) }),
    )
}
