/**
 * The admin's writes to bubles and their content (CONTRACT §3.4): each through the owning
 * feature's service, so devices get the change, in one sync write with its audit row.
 */

import {
  ADMIN_MESSAGES,
  type AdminBubleDetail,
  type AdminCreateBubleBody,
  type AdminEvent,
  type AdminPoll,
  type AdminUpdateEventBody,
} from '@buble/shared/admin'
import { eq } from 'drizzle-orm'
import { bubles } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import { findUserById, type UserRow } from '../../lib/accounts.ts'
import { AppError, notFound } from '../../lib/errors.ts'
import type { InvitesService } from '../bubles/invites.ts'
import type { BublesService } from '../bubles/service.ts'
import type { EventsService } from '../events/service.ts'
import type { PollsService } from '../polls/service.ts'
import type { WallService } from '../wall/service.ts'
import { auditedWrite } from './audit.ts'
import { bubleDetail, listRow } from './queries.ts'

export interface ContentServices {
  bubles: BublesService
  invites: InvitesService
  events: EventsService
  polls: PollsService
  wall: WallService
}

export function contentWrites(deps: Deps, s: ContentServices) {
  const { db, now } = deps
  const audited = auditedWrite(db, now)

  return {
    /** Owned by `ownerId` (an active account) when given, else by the admin; made as any buble is. */
    async createBuble(admin: UserRow, body: AdminCreateBubleBody): Promise<AdminBubleDetail> {
      const id = await audited(admin, async (w) => {
        let owner = admin
        if (body.ownerId && body.ownerId !== admin.id) {
          const found = await findUserById(w.tx, body.ownerId)
          if (!found || found.status === 'deleted') throw notFound(ADMIN_MESSAGES.userNotFound)
          if (found.status !== 'active')
            throw new AppError('VALIDATION_ERROR', ADMIN_MESSAGES.ownerNotActive, [
              { path: 'ownerId', message: ADMIN_MESSAGES.ownerNotActive },
            ])
          owner = found
        }
        const { buble } = await s.bubles.create(owner, { name: body.name })
        return {
          value: buble.id,
          audit: {
            action: 'buble.create',
            targetType: 'buble',
            targetId: buble.id,
            targetLabel: buble.name,
            detail: { name: buble.name, ownerId: owner.id, ownerEmail: owner.email },
          },
        }
      })
      return (await bubleDetail(db, id))!
    },

    async deleteBuble(admin: UserRow, id: string): Promise<void> {
      await audited(admin, async (w) => {
        const [row] = await w.tx.select().from(bubles).where(eq(bubles.id, id)).limit(1)
        if (!row || !(await s.bubles.adminRemove(id))) throw notFound(ADMIN_MESSAGES.bubleNotFound)
        return {
          value: undefined,
          audit: {
            action: 'buble.delete',
            targetType: 'buble',
            targetId: id,
            targetLabel: row.name,
            detail: { slug: row.slug, ownerId: row.ownerId },
          },
        }
      })
    },

    async updateEvent(admin: UserRow, id: string, body: AdminUpdateEventBody): Promise<AdminEvent> {
      await audited(admin, async () => {
        const before = await s.events.adminUpdateEvent(id, body)
        return {
          value: undefined,
          audit: {
            action: 'event.update',
            targetType: 'event',
            targetId: id,
            targetLabel: body.title ?? before.title,
            detail: { ...body },
          },
        }
      })
      return (await listRow(db, 'events', id, now()))!
    },

    async deleteEvent(admin: UserRow, id: string): Promise<void> {
      await audited(admin, async () => {
        const event = await s.events.adminDeleteEvent(id)
        return {
          value: undefined,
          audit: {
            action: 'event.delete',
            targetType: 'event',
            targetId: id,
            targetLabel: event.title,
            detail: { bubleId: event.bubleId },
          },
        }
      })
    },

    async updatePoll(admin: UserRow, id: string, question: string): Promise<AdminPoll> {
      await audited(admin, async () => {
        const before = await s.polls.adminUpdatePoll(id, question)
        return {
          value: undefined,
          audit: {
            action: 'poll.update',
            targetType: 'poll',
            targetId: id,
            targetLabel: question,
            detail: { question: { from: before.question, to: question } },
          },
        }
      })
      return (await listRow(db, 'polls', id, now()))!
    },

    async deletePoll(admin: UserRow, id: string): Promise<void> {
      await audited(admin, async () => {
        const poll = await s.polls.adminDeletePoll(id)
        return {
          value: undefined,
          audit: {
            action: 'poll.delete',
            targetType: 'poll',
            targetId: id,
            targetLabel: poll.question,
            detail: { bubleId: poll.bubleId },
          },
        }
      })
    },

    async deletePost(admin: UserRow, id: string): Promise<void> {
      await audited(admin, async () => {
        const post = await s.wall.adminDeletePost(id)
        return {
          value: undefined,
          audit: {
            action: 'post.delete',
            targetType: 'post',
            targetId: id,
            targetLabel: post.content,
            detail: { bubleId: post.bubleId, authorId: post.authorId },
          },
        }
      })
    },

    async deleteInvite(admin: UserRow, id: string): Promise<void> {
      await audited(admin, async () => {
        const invite = await s.invites.adminDeleteInvite(id)
        if (!invite) throw notFound(ADMIN_MESSAGES.inviteNotFound)
        return {
          value: undefined,
          audit: {
            action: 'invite.delete',
            targetType: 'invite',
            targetId: id,
            targetLabel: invite.code,
            detail: { bubleId: invite.bubleId, email: invite.email },
          },
        }
      })
    },
  }
}
