import { DeviceSessionList, EndSessionsResponse, SessionIdParam } from '@buble/shared/sessions'
import { Hono } from 'hono'
import type { AppEnv } from '../../lib/auth.ts'
import { describe } from '../../lib/openapi.ts'
import { validate } from '../../lib/validate.ts'
import type { SessionsService } from './service.ts'

const tag = 'users'

/** Mounted at /api/users/sessions. */
export function sessionsRoutes(sessions: SessionsService) {
  return new Hono<AppEnv>()
    .get(
      '/',
      describe({ tag, summary: 'The devices signed in to your account, this one marked', response: DeviceSessionList }),
      async (c) => c.json(await sessions.list(c.var.user, c.var.sessionId)),
    )
    .post(
      '/end-others',
      describe({
        tag,
        summary: 'Sign out everywhere else: every session but this one ends',
        response: EndSessionsResponse,
      }),
      async (c) => c.json(await sessions.endOthers(c.var.user, c.var.sessionId)),
    )
    .delete(
      '/current',
      describe({
        tag,
        summary: "Sign this device out: its token's session ends at once",
        response: EndSessionsResponse,
      }),
      async (c) => c.json(await sessions.endCurrent(c.var.user, c.var.sessionId)),
    )
    .delete(
      '/:id',
      describe({
        tag,
        summary: 'Sign one session out: its token stops working at once',
        response: EndSessionsResponse,
      }),
      validate('param', SessionIdParam),
      async (c) => c.json(await sessions.end(c.var.user, c.req.valid('param').id)),
    )
}
