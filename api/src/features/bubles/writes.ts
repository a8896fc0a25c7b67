/**
 * The writes every buble and membership service shares: joining, leaving or being removed,
 * deleting a buble, changing a member, handing over ownership. Each runs inside a sync write and
 * records what devices must hear (versions, tombstones, pokes).
 */

import { type BubleRole, type Permission, ROLE_DEFAULT_PERMISSIONS } from '@buble/shared/permissions'
import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import { bubles, invites, memberships, users } from '../../db/schema.ts'
import type { ContentAddedBus } from '../../lib/content-added.ts'
import { type MembershipRow, memberKey } from '../../lib/memberships.ts'
import { NEXT_VERSION, pgUuidArray, type SyncWriter } from '../../lib/sync-writes.ts'

export type MembershipWrites = ReturnType<typeof membershipWrites>

/** An unused code that has not expired at `at`: one that still lets someone in. */
export const activeInviteAt = (at: Date) =>
  and(isNull(invites.usedById), isNull(invites.usedAt), gt(invites.expiresAt, at))

export function membershipWrites(now: () => Date, contentAdded?: ContentAddedBus) {
  /** The buble's member count and list (or its members' roles) changed: every member gets it again. */
  async function touchBuble(w: SyncWriter, bubleId: string) {
    await w.tx.update(bubles).set({ version: NEXT_VERSION }).where(eq(bubles.id, bubleId))
    w.changed(bubleId, 'buble')
  }

  /**
   * Revokes the active codes a member made in a buble. Revoking deletes the row, as a platform
   * admin's withdrawal does: a used code stays as the record of who came in by whom, and an expired
   * one as what it was.
   */
  async function revokeCodesBy(w: SyncWriter, bubleId: string, userId: string) {
    await w.tx
      .delete(invites)
      .where(and(eq(invites.bubleId, bubleId), eq(invites.createdById, userId), activeInviteAt(now())))
  }

  return {
    touchBuble,

    /**
     * The user makes these bubles, just now: they join each as its owner, in one statement for any
     * number. Each join's version is the member row's own (see `addMember`); a new buble is sent whole.
     */
    async addOwner(w: SyncWriter, userId: string, bubleIds: readonly string[]) {
      if (bubleIds.length === 0) return
      const permissions = `{${ROLE_DEFAULT_PERMISSIONS.owner.join(',')}}`
      await w.tx.execute(sql`insert into memberships (buble_id, user_id, role, permissions, joined_at, joined_version, version)
        select b.id, ${userId}, 'owner', ${permissions}::text[], ${now()}, b.v, b.v
        from (select id, buble_next_version() as v
          from unnest(${pgUuidArray(bubleIds)}) with ordinality as t(id, n) order by n) as b`)
      for (const bubleId of bubleIds) {
        w.changed(bubleId, 'member')
        w.changed(bubleId, 'buble')
        w.joined(userId, bubleId)
      }
    },

    /** Someone joins a buble as a member (a code, an e-mail invite, a registration link). */
    async addMember(w: SyncWriter, bubleId: string, userId: string) {
      // The join's version is the member row's own: a device backfilling the buble receives that row,
      // so its cursor cannot pass the join before it has the buble's whole content.
      const permissions = `{${ROLE_DEFAULT_PERMISSIONS.member.join(',')}}`
      await w.tx.execute(sql`insert into memberships (buble_id, user_id, role, permissions, joined_at, joined_version, version)
        select ${bubleId}, ${userId}, 'member', ${permissions}::text[], ${now()}, v, v
        from (select buble_next_version() as v) as next`)
      // A new member starts at zero: joining counts as having read everything before (CONTRACT §6).
      // Marks left from an earlier membership go.
      await w.tx.execute(sql`delete from unread_marks where user_id = ${userId} and buble_id = ${bubleId}`)
      w.changed(bubleId, 'member')
      await touchBuble(w, bubleId)
      w.joined(userId, bubleId)
      // Everyone joining is news to the others.
      if (contentAdded) {
        const [joiner] = await w.tx.select({ name: users.name }).from(users).where(eq(users.id, userId)).limit(1)
        const name = joiner?.name ?? 'Someone'
        contentAdded.announce(w, {
          bubleId,
          contentType: 'members',
          actorId: userId,
          title: `${name} joined`,
          body: `${name} is a new member`,
        })
      }
    },

    /**
     * Removes a membership (removed, left, account deleted): the others see the member go, the
     * user's devices forget the buble, and the codes they made there stop working, so nobody comes
     * back in, or lets anyone in, by a code from before.
     */
    async removeMember(w: SyncWriter, bubleId: string, userId: string) {
      await w.tx.delete(memberships).where(and(eq(memberships.bubleId, bubleId), eq(memberships.userId, userId)))
      await revokeCodesBy(w, bubleId, userId)
      await w.tx.execute(sql`delete from unread_marks where user_id = ${userId} and buble_id = ${bubleId}`)
      await w.deleted('member', bubleId, [memberKey(bubleId, userId)])
      await touchBuble(w, bubleId)
      await w.forget(userId, bubleId)
    },

    /** Sets a member's role and permission list. */
    async updateMember(
      w: SyncWriter,
      bubleId: string,
      userId: string,
      change: { role: BubleRole; permissions: readonly Permission[] | readonly string[] },
    ): Promise<MembershipRow> {
      const [row] = await w.tx
        .update(memberships)
        .set({ role: change.role, permissions: [...change.permissions], version: NEXT_VERSION })
        .where(and(eq(memberships.bubleId, bubleId), eq(memberships.userId, userId)))
        .returning()
      w.changed(bubleId, 'member')
      // The buble carries each viewer's role and permissions.
      await touchBuble(w, bubleId)
      return row!
    },

    /** Hands a buble to another member; the previous owner becomes a plain member. */
    async transferOwnership(w: SyncWriter, bubleId: string, fromUserId: string, toUserId: string) {
      await w.tx
        .update(memberships)
        .set({ role: 'owner', permissions: [...ROLE_DEFAULT_PERMISSIONS.owner], version: NEXT_VERSION })
        .where(and(eq(memberships.bubleId, bubleId), eq(memberships.userId, toUserId)))
      await w.tx
        .update(memberships)
        .set({ role: 'member', permissions: [...ROLE_DEFAULT_PERMISSIONS.member], version: NEXT_VERSION })
        .where(and(eq(memberships.bubleId, bubleId), eq(memberships.userId, fromUserId)))
      await w.tx.update(bubles).set({ ownerId: toUserId, version: NEXT_VERSION }).where(eq(bubles.id, bubleId))
      w.changed(bubleId, 'member')
      w.changed(bubleId, 'buble')
    },

    /** Deletes a buble and everything in it; every member's devices forget it. */
    async deleteBuble(w: SyncWriter, bubleId: string) {
      const members = await w.tx
        .select({ userId: memberships.userId })
        .from(memberships)
        .where(eq(memberships.bubleId, bubleId))
      await w.tx.delete(bubles).where(eq(bubles.id, bubleId))
      // The buble's own tombstones are moot: every device that had it drops it whole.
      await w.tx.execute(sql`delete from sync_tombstones where buble_id = ${bubleId} and user_id is null`)
      for (const member of members) await w.forget(member.userId, bubleId)
    },
  }
}
