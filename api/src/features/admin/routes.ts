/** The platform admin's calls (CONTRACT §3.4, spec part 2 §7): one admin check for the whole router, thin handlers. */

import {
  ADMIN_MESSAGES,
  ADMIN_PAGE_SCHEMAS,
  ADMIN_TABS,
  AdminBubleDetail,
  AdminCreateBubleBody,
  AdminCreateUserBody,
  AdminDashboard,
  AdminEvent,
  AdminExportQuery,
  AdminHealth,
  AdminListQuery,
  AdminPoll,
  AdminResetPasswordBody,
  AdminSendResetEmailResponse,
  type AdminTab,
  AdminUpdateEventBody,
  AdminUpdatePollBody,
  AdminUpdateUserBody,
  AdminUser,
  AdminUserDetail,
} from '@buble/shared/admin'
import { MessageResponse } from '@buble/shared/auth'
import { Hono, type MiddlewareHandler } from 'hono'
import type { AppEnv } from '../../lib/auth.ts'
import { forbidden, notFound } from '../../lib/errors.ts'
import { sendJsonAnswer } from '../../lib/json-answers.ts'
import { describe } from '../../lib/openapi.ts'
import { idFromPath } from '../../lib/path-ids.ts'
import { validate } from '../../lib/validate.ts'
import type { ReportsService } from '../reports/service.ts'
import { byteStream, csvChunks, csvFilename } from './csv.ts'
import type { AdminService } from './service.ts'

const tag = 'admin'

/** Platform role admin, else 403 (no token was already a 401). */
const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.var.user.role !== 'admin') throw forbidden(ADMIN_MESSAGES.accessDenied)
  await next()
}

const KIND: Record<AdminTab, { one: string; missing: string }> = {
  users: { one: 'user', missing: ADMIN_MESSAGES.userNotFound },
  bubles: { one: 'Buble', missing: ADMIN_MESSAGES.bubleNotFound },
  events: { one: 'event', missing: ADMIN_MESSAGES.eventNotFound },
  polls: { one: 'poll', missing: ADMIN_MESSAGES.pollNotFound },
  posts: { one: 'post', missing: ADMIN_MESSAGES.postNotFound },
  invites: { one: 'invite', missing: ADMIN_MESSAGES.inviteNotFound },
}

/** A UUID from the path, or the kind's 404. */
const idOf = (tab: AdminTab, raw: string) => idFromPath(raw, () => notFound(KIND[tab].missing))

/** The admin's Reports tab (issue 24 §1): the reports feature's list of every buble's open reports. */
export type AdminReports = Pick<ReportsService, 'adminPage'>

export function adminRoutes(admin: AdminService, now: () => Date, reports: AdminReports) {
  const router = new Hono<AppEnv>().use('*', requireAdmin)

  router
    .get(
      '/dashboard',
      describe({ tag, summary: 'Counts and the five newest users and bubles', response: AdminDashboard }),
      async (c) => c.json(await admin.dashboard()),
    )
    .get('/health', describe({ tag, summary: 'System health: status and counts', response: AdminHealth }), async (c) =>
      c.json(await admin.health()),
    )
    .get(
      '/audit',
      describe({ tag, summary: 'The audit log of admin writes, newest first', response: ADMIN_PAGE_SCHEMAS.audit }),
      validate('query', AdminListQuery),
      async (c) => {
        return sendJsonAnswer(c, await admin.listAnswer('audit', c.req.valid('query')))
      },
    )

  // One route for every tab: a path without a parameter whose last segment has a dot would be
  // left out of the OpenAPI document as a static file.
  router.get(
    '/:tab/export.csv',
    describe({
      tag,
      summary:
        'Every row of a list (users, bubles, events, polls, posts, invites) matching the search, as streamed CSV',
    }),
    validate('query', AdminExportQuery),
    (c) => {
      const tab = c.req.param('tab') as AdminTab
      if (!ADMIN_TABS.includes(tab)) throw notFound('No such list')
      const at = now()
      const chunks = csvChunks(tab, admin.exportBatches(tab, c.req.valid('query').search, at))
      const body = byteStream(chunks)
      return c.body(body, 200, {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${csvFilename(tab, at)}"`,
        'cache-control': 'no-store',
      })
    },
  )
  for (const tab of ADMIN_TABS) {
    router.get(
      `/${tab}`,
      describe({ tag, summary: `A page of ${tab}, newest first, with search`, response: ADMIN_PAGE_SCHEMAS[tab] }),
      validate('query', AdminListQuery),
      async (c) => {
        return sendJsonAnswer(c, await admin.listAnswer(tab, c.req.valid('query')))
      },
    )
  }

  router.get(
    '/reports',
    describe({ tag, summary: "Every buble's open reports, grouped by item, the most recently reported first" }),
    validate('query', AdminListQuery.pick({ page: true, limit: true })),
    async (c) => c.json(await reports.adminPage(c.req.valid('query'))),
  )

  router
    .get('/users/:id', describe({ tag, summary: 'A user and their bubles', response: AdminUserDetail }), async (c) =>
      c.json(await admin.user(idOf('users', c.req.param('id')))),
    )
    .get(
      '/bubles/:id',
      describe({ tag, summary: 'A buble with every member and its content counts', response: AdminBubleDetail }),
      async (c) => c.json(await admin.buble(idOf('bubles', c.req.param('id')))),
    )
    .post(
      '/users',
      describe({
        tag,
        summary: 'Create an account (active at once, sent a verification mail)',
        status: 201,
        response: AdminUser,
      }),
      validate('json', AdminCreateUserBody),
      async (c) => c.json(await admin.createUser(c.var.user, c.req.valid('json')), 201),
    )
    .post(
      '/bubles',
      describe({
        tag,
        summary: 'Create a buble owned by ownerId, else by you',
        status: 201,
        response: AdminBubleDetail,
      }),
      validate('json', AdminCreateBubleBody),
      async (c) => c.json(await admin.createBuble(c.var.user, c.req.valid('json')), 201),
    )
    .put(
      '/users/:id',
      describe({ tag, summary: "Edit a user's name, e-mail and role (not your own admin role)", response: AdminUser }),
      validate('json', AdminUpdateUserBody),
      async (c) => c.json(await admin.updateUser(c.var.user, idOf('users', c.req.param('id')), c.req.valid('json'))),
    )
    .put(
      '/events/:id',
      describe({ tag, summary: 'Edit an event', response: AdminEvent }),
      validate('json', AdminUpdateEventBody),
      async (c) => c.json(await admin.updateEvent(c.var.user, idOf('events', c.req.param('id')), c.req.valid('json'))),
    )
    .put(
      '/polls/:id',
      describe({ tag, summary: "Edit a poll's question", response: AdminPoll }),
      validate('json', AdminUpdatePollBody),
      async (c) =>
        c.json(await admin.updatePoll(c.var.user, idOf('polls', c.req.param('id')), c.req.valid('json').question)),
    )
    .post(
      '/users/:id/reset-password',
      describe({
        tag,
        summary: "Set a user's password (6+ characters); their tokens stop working",
        response: MessageResponse,
      }),
      validate('json', AdminResetPasswordBody),
      async (c) =>
        c.json(
          await admin.resetPassword(c.var.user, idOf('users', c.req.param('id')), c.req.valid('json').newPassword),
        ),
    )
    .post(
      '/users/:id/send-reset-email',
      describe({
        tag,
        summary: 'Set a random temporary password, mail it to the user and answer it; their tokens stop working',
        response: AdminSendResetEmailResponse,
      }),
      async (c) => c.json(await admin.sendResetEmail(c.var.user, idOf('users', c.req.param('id')))),
    )

  const deletes: Record<AdminTab, (actor: AppEnv['Variables']['user'], id: string) => Promise<void>> = {
    users: admin.deleteUser,
    bubles: admin.deleteBuble,
    events: admin.deleteEvent,
    polls: admin.deletePoll,
    posts: admin.deletePost,
    invites: admin.deleteInvite,
  }
  for (const tab of ADMIN_TABS)
    router.delete(
      `/${tab}/:id`,
      describe({
        tag,
        summary: `Delete a ${KIND[tab].one}${tab === 'users' ? ' (not your own account)' : ''}`,
        status: 204,
      }),
      async (c) => {
        await deletes[tab](c.var.user, idOf(tab, c.req.param('id')))
        return c.body(null, 204)
      },
    )
  return router
}
