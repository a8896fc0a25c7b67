/**
 * Muting a member (issue 24 §2, decision 100): the one service both doors use (REST in the bubles
 * feature, `member.mute` / `member.unmute` through sync) and the reports queue's "mute the author".
 * The mute is a column of the member row, so the row the devices hold carries its end.
 */

import { MUTE_MESSAGES, type MuteResponse } from '@buble/shared/mute-texts'
import { type MuteDuration, mutedUntilFor } from '@buble/shared/mutes'
import { canMute, reaches } from '@buble/shared/permissions'
import { and, eq } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { memberships } from '../db/schema.ts'
import { forbidden } from './errors.ts'
import { findMembership, memberActorOf, memberNotFound, requireMembership } from './memberships.ts'
import { NEXT_VERSION, type SyncWriter, syncWrite } from './sync-writes.ts'

/** Who mutes, and whom, in which buble. */
export interface MuteArgs {
  buble_id: string
  user_id: string
}

export type MutesService = ReturnType<typeof mutesService>

export function mutesService({ db, now }: { db: Db; now: () => Date }) {
  /**
   * The target's row once the actor may mute them: 404 when the actor is not in the buble (it does
   * not exist for them) or the target is not; 403 for oneself, and outside moderate_content or reach.
   */
  async function mutable(w: SyncWriter, actorId: string, { buble_id, user_id }: MuteArgs) {
    const actor = await requireMembership(w.tx, buble_id, actorId)
    const target = await findMembership(w.tx, buble_id, user_id)
    if (!target) throw memberNotFound()
    if (target.userId === actor.userId) throw forbidden(MUTE_MESSAGES.notYourself)
    const rules = memberActorOf(actor)
    if (!canMute(rules, target))
      throw forbidden(reaches(rules, target) ? MUTE_MESSAGES.noModerate : MUTE_MESSAGES.notReached)
    return target
  }

  async function setMutedUntil(w: SyncWriter, bubleId: string, userId: string, until: Date | null) {
    await w.tx
      .update(memberships)
      .set({ mutedUntil: until, version: NEXT_VERSION })
      .where(and(eq(memberships.bubleId, bubleId), eq(memberships.userId, userId)))
    // The member row carries the end: every device of the buble pulls it (the muted one's banner included).
    w.changed(bubleId, 'member')
  }

  return {
    /**
     * Mutes `args.user_id` for `duration` from now (a mute in force is replaced). Joins the sync
     * write already open, if any (a moderation action's), else opens one.
     */
    muteMember(actor: { id: string }, args: MuteArgs & { duration: MuteDuration }): Promise<MuteResponse> {
      return syncWrite(db, async (w) => {
        const target = await mutable(w, actor.id, args)
        const until = mutedUntilFor(args.duration, now())
        await setMutedUntil(w, args.buble_id, target.userId, until)
        return { message: MUTE_MESSAGES.muted, muted_until: until.toISOString() }
      })
    },

    /** Ends a member's mute at once (a member not muted stays so). */
    unmuteMember(actor: { id: string }, args: MuteArgs): Promise<MuteResponse> {
      return syncWrite(db, async (w) => {
        const target = await mutable(w, actor.id, args)
        await setMutedUntil(w, args.buble_id, target.userId, null)
        return { message: MUTE_MESSAGES.unmuted, muted_until: null }
      })
    },
  }
}
