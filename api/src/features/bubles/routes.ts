import { AuthResponse, CompleteRegistrationBody, MessageResponse } from '@buble/shared/auth'
import {
  ActiveInvites,
  Buble,
  CreateBubleBody,
  CreateInviteBody,
  Invite,
  InviteCode,
  InvitePreview,
  isInviteCodeShape,
  isUuid,
  Member,
  RegistrationPreview,
  RenameBubleBody,
} from '@buble/shared/bubles'
import { RemoveMemberBody, TransferOwnershipBody, UpdateRoleBody, UpdateRoleResponse } from '@buble/shared/members'
import { MuteResponse } from '@buble/shared/mute-texts'
import { MuteBody } from '@buble/shared/mutes'
import { ToolsBody, ToolsResponse } from '@buble/shared/tools'
import { type Context, Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../lib/auth.ts'
import { clientIp } from '../../lib/client-ip.ts'
import { bubleNotFound, memberNotFound } from '../../lib/memberships.ts'
import type { MutesService } from '../../lib/mutes.ts'
import { describe } from '../../lib/openapi.ts'
import { validate } from '../../lib/validate.ts'
import type { InvitesService } from './invites.ts'
import type { MembersService } from './members.ts'
import type { BublesService } from './service.ts'

const tag = 'bubles'

/** JSON kept as bytes, sent as `c.json` sends JSON. */
const jsonBytes = (c: Context, body: Uint8Array<ArrayBuffer>) =>
  c.body(body, 200, { 'Content-Type': 'application/json' })

/** A buble id from the path; anything but a UUID names no buble. */
function bubleId(raw: string): string {
  if (!isUuid(raw)) throw bubleNotFound()
  return raw.toLowerCase()
}

/** A member's user id from the path; anything but a UUID names no member. */
function memberId(raw: string): string {
  if (!isUuid(raw)) throw memberNotFound()
  return raw.toLowerCase()
}

/**
 * A previewed code, normalised; any text that cannot be a code becomes '', which the service answers
 * as it answers an unknown code (one 410 for every dead code, nothing revealed, no 400 either).
 */
const PreviewCode = z.object({
  code: InviteCode.transform((code) => (isInviteCodeShape(code) ? code : '')).catch(''),
})

export function bublesRoutes({
  bubles,
  members,
  mutes,
  invites,
  trustProxy,
}: {
  bubles: BublesService
  members: MembersService
  mutes: MutesService
  invites: InvitesService
  trustProxy: boolean
}) {
  return (
    new Hono<AppEnv>()
      .get('/', describe({ tag, summary: 'Your bubles, newest first', response: z.array(Buble) }), async (c) =>
        jsonBytes(c, (await bubles.listAnswer(c.var.user)).body),
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
      // Before the routes with an id: these paths are not ids.
      .post(
        '/complete-registration',
        describe({
          tag,
          summary: 'Choose a password for an account an e-mail invite made',
          response: AuthResponse,
          auth: false,
        }),
        validate('json', CompleteRegistrationBody),
        async (c) => c.json(await invites.completeRegistration(c.req.valid('json'))),
      )
      .get(
        '/complete-registration',
        describe({
          tag,
          summary: 'What an e-mail invite registration link is for: the address, the buble and the inviter',
          response: RegistrationPreview,
          auth: false,
        }),
        validate('query', z.object({ token: z.string().min(1).max(200) })),
        async (c) => c.json(await invites.previewRegistration(c.req.valid('query').token, clientIp(c, trustProxy))),
      )
      .get(
        '/invites/:code',
        describe({
          tag,
          summary: "A live invite code's buble name and inviter (public); any dead code: the same 410",
          response: InvitePreview,
          auth: false,
        }),
        validate('param', PreviewCode),
        async (c) => c.json(await invites.previewInvite(c.req.valid('param').code, clientIp(c, trustProxy))),
      )
      .post(
        '/invites/:code/accept',
        describe({ tag, summary: 'Join a buble with an invite code', response: Buble }),
        validate('param', z.object({ code: InviteCode })),
        async (c) => c.json(await invites.acceptInvite(c.var.user, c.req.valid('param').code)),
      )
      .get('/:idOrSlug', describe({ tag, summary: 'One of your bubles, by id or slug', response: Buble }), async (c) =>
        jsonBytes(c, (await bubles.getAnswer(c.var.user, c.req.param('idOrSlug'))).body),
      )
      .patch(
        '/:id',
        describe({ tag, summary: 'Rename a buble (needs manage_buble); the slug stays', response: Buble }),
        validate('json', RenameBubleBody),
        async (c) => c.json(await bubles.rename(c.var.user, bubleId(c.req.param('id')), c.req.valid('json').name)),
      )
      .delete('/:id', describe({ tag, summary: 'Delete a buble (needs delete_buble)', status: 204 }), async (c) => {
        await bubles.remove(c.var.user, bubleId(c.req.param('id')))
        return c.body(null, 204)
      })
      .get('/:id/tools', describe({ tag, summary: 'The overview tools', response: ToolsResponse }), async (c) =>
        c.json(await bubles.tools(c.var.user, bubleId(c.req.param('id')))),
      )
      .put(
        '/:id/tools',
        describe({ tag, summary: 'Turn optional overview tools on or off (the owner)', response: ToolsResponse }),
        validate('json', ToolsBody),
        async (c) => c.json(await bubles.setTools(c.var.user, bubleId(c.req.param('id')), c.req.valid('json'))),
      )
      .post(
        '/:id/invites',
        describe({
          tag,
          summary: 'Generate a single-use invite code, valid 7 days; with an e-mail, mail it',
          status: 201,
          response: Invite,
        }),
        validate('json', CreateInviteBody),
        async (c) =>
          c.json(await invites.createInvite(c.var.user, bubleId(c.req.param('id')), c.req.valid('json')), 201),
      )
      .get(
        '/:id/invites',
        describe({
          tag,
          summary: "The buble's active invite codes, newest first (needs invite_members)",
          response: ActiveInvites,
        }),
        async (c) => c.json(await invites.listInvites(c.var.user, bubleId(c.req.param('id')))),
      )
      .delete(
        '/:id/invites/:code',
        describe({ tag, summary: 'Revoke an active invite code of the buble (needs invite_members)', status: 204 }),
        validate('param', z.object({ id: z.string(), code: InviteCode })),
        async (c) => {
          const { id, code } = c.req.valid('param')
          await invites.revokeInvite(c.var.user, bubleId(id), code)
          return c.body(null, 204)
        },
      )
      .get('/:id/members', describe({ tag, summary: "A buble's members", response: z.array(Member) }), async (c) => {
        const list = await bubles.memberList(c.var.user, bubleId(c.req.param('id')))
        c.header('ETag', list.etag)
        // Private to the signed-in member, and to be checked again before reuse.
        c.header('Cache-Control', 'private, no-cache')
        if (c.req.header('if-none-match') === list.etag) return c.body(null, 304)
        return c.body(list.body, 200, { 'Content-Type': 'application/json; charset=UTF-8' })
      })
      .put(
        '/:id/members/role',
        describe({ tag, summary: "Change a member's role and permissions", response: UpdateRoleResponse }),
        validate('json', UpdateRoleBody),
        async (c) => c.json(await members.changeRole(c.var.user, bubleId(c.req.param('id')), c.req.valid('json'))),
      )
      .delete(
        '/:id/members/remove',
        describe({ tag, summary: 'Remove a member (needs remove_members)', response: MessageResponse }),
        validate('json', RemoveMemberBody),
        async (c) => c.json(await members.removeMember(c.var.user, bubleId(c.req.param('id')), c.req.valid('json'))),
      )
      .post(
        '/:id/members/:userId/mute',
        describe({
          tag,
          summary: 'Mute a member for 1h, 1d, 1w or until unmuted (needs moderate_content)',
          response: MuteResponse,
        }),
        validate('json', MuteBody),
        async (c) => {
          const buble_id = bubleId(c.req.param('id'))
          const args = { buble_id, user_id: memberId(c.req.param('userId')), ...c.req.valid('json') }
          return c.json(await mutes.muteMember(c.var.user, args))
        },
      )
      .delete(
        '/:id/members/:userId/mute',
        describe({ tag, summary: 'Unmute a member (needs moderate_content)', response: MuteResponse }),
        async (c) => {
          const args = { buble_id: bubleId(c.req.param('id')), user_id: memberId(c.req.param('userId')) }
          return c.json(await mutes.unmuteMember(c.var.user, args))
        },
      )
      .delete(
        '/:id/members/:userId',
        describe({ tag, summary: 'Leave a buble (your own user id)', status: 204 }),
        async (c) => {
          const userId = c.req.param('userId')
          await bubles.leave(c.var.user, bubleId(c.req.param('id')), isUuid(userId) ? userId.toLowerCase() : userId)
          return c.body(null, 204)
        },
      )
      .post(
        '/:id/transfer-ownership',
        describe({ tag, summary: 'Hand the buble to another member (the owner)', response: MessageResponse }),
        validate('json', TransferOwnershipBody),
        async (c) =>
          c.json(await members.transferOwnership(c.var.user, bubleId(c.req.param('id')), c.req.valid('json'))),
      )
  )
}
