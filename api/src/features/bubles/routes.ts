import { MessageResponse } from '@buble/shared/auth'
import { Buble, CreateBubleBody, CreateInviteBody, Invite, InviteCode, isUuid, Member } from '@buble/shared/bubles'
import { Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../lib/auth.ts'
import { describe } from '../../lib/openapi.ts'
import { validate } from '../../lib/validate.ts'
import { bubleNotFound } from './queries.ts'
import type { BublesService } from './service.ts'

const tag = 'bubles'

/** A buble id from the path; anything but a UUID names no buble. */
function bubleId(raw: string): string {
  if (!isUuid(raw)) throw bubleNotFound()
  return raw.toLowerCase()
}

export function bublesRoutes(bubles: BublesService) {
  return new Hono<AppEnv>()
    .get('/', describe({ tag, summary: 'Your bubles, newest first', response: z.array(Buble) }), async (c) =>
      c.json(await bubles.list(c.var.user)),
    )
    .post(
      '/',
      describe({
        tag,
        summary: 'Create a buble (a second call with the same id answers it)',
        status: 201,
        response: Buble,
      }),
      validate('json', CreateBubleBody),
      async (c) => {
        const { buble, created } = await bubles.create(c.var.user, c.req.valid('json'))
        return c.json(buble, created ? 201 : 200)
      },
    )
    .post(
      '/invites/:code/accept',
      describe({ tag, summary: 'Join a buble with an invite code', response: Buble }),
      validate('param', z.object({ code: InviteCode })),
      async (c) => c.json(await bubles.acceptInvite(c.var.user, c.req.valid('param').code)),
    )
    .get('/:idOrSlug', describe({ tag, summary: 'One of your bubles, by id or slug', response: Buble }), async (c) =>
      c.json(await bubles.get(c.var.user, c.req.param('idOrSlug'))),
    )
    .delete('/:id', describe({ tag, summary: 'Delete a buble (needs delete_buble)', status: 204 }), async (c) => {
      await bubles.remove(c.var.user, bubleId(c.req.param('id')))
      return c.body(null, 204)
    })
    .post(
      '/:id/invites',
      describe({ tag, summary: 'Generate a single-use invite code, valid 7 days', status: 201, response: Invite }),
      validate('json', CreateInviteBody),
      async (c) => c.json(await bubles.createInvite(c.var.user, bubleId(c.req.param('id')), c.req.valid('json')), 201),
    )
    .get('/:id/members', describe({ tag, summary: "A buble's members", response: z.array(Member) }), async (c) =>
      c.json(await bubles.members(c.var.user, bubleId(c.req.param('id')))),
    )
    .delete(
      '/:id/members/:userId',
      describe({ tag, summary: 'Leave a buble (your own user id)', status: 204, response: MessageResponse }),
      async (c) => {
        const userId = c.req.param('userId')
        await bubles.leave(c.var.user, bubleId(c.req.param('id')), isUuid(userId) ? userId.toLowerCase() : userId)
        return c.body(null, 204)
      },
    )
}
