/** Bubles and their lifecycle (CONTRACT §3.2): create, read, delete, invite codes, join, leave. */

import {
  BUBLE_MESSAGES,
  type Buble,
  type CreateBubleBody,
  type CreateInviteBody,
  INVITE_ALPHABET,
  INVITE_CODE_LENGTH,
  INVITE_TTL_MS,
  type Invite,
  type Member,
  newOwnedBuble,
} from '@buble/shared/bubles'
import { can, ROLE_DEFAULT_PERMISSIONS } from '@buble/shared/permissions'
import slugify from '@sindresorhus/slugify'
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import { customAlphabet } from 'nanoid'
import { v7 as uuidv7 } from 'uuid'
import type { Tx } from '../../db/client.ts'
import { bubles, invites, memberships } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import type { AccountDeletionStep, ProfileChangeStep, UserRow } from '../../lib/accounts.ts'
import { claimId, ID_IN_USE } from '../../lib/entity-ids.ts'
import { conflict, forbidden, tokenInvalid } from '../../lib/errors.ts'
import { NEXT_VERSION, type SyncWriter, syncWrite, syncWriteIn } from '../../lib/sync-writes.ts'
import {
  bubleIdsOf,
  bubleNotFound,
  loadBuble,
  loadBubles,
  loadMembers,
  memberKey,
  requireBubleFor,
  requireMembership,
} from './queries.ts'

const newInviteCode = customAlphabet(INVITE_ALPHABET, INVITE_CODE_LENGTH)
const SLUG_MAX = 60
const UUID_SHAPED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** A URL-friendly form of a name; never empty, never shaped like a UUID (paths take either). */
export function slugBase(name: string): string {
  const slug = slugify(name, { locale: 'sv' }).slice(0, SLUG_MAX).replace(/-+$/, '')
  if (!slug) return 'buble'
  return UUID_SHAPED.test(slug) ? `buble-${slug}` : slug
}

const slugSuffix = customAlphabet('23456789abcdefghjkmnpqrstvwxyz', 4)

export type BublesService = ReturnType<typeof bublesService>

export function bublesService(deps: Deps) {
  const { db, now } = deps

  /** Makes a buble owned by `user` and answers it as REST does, without reading it back. */
  async function insertBuble(w: SyncWriter, user: UserRow, id: string, name: string): Promise<Buble> {
    const base = slugBase(name)
    const createdAt = now()
    let slug = base
    for (let attempt = 0; ; attempt++) {
      slug = attempt === 0 ? base : `${base}-${slugSuffix()}`
      const inserted = await w.tx
        .insert(bubles)
        .values({ id, slug, name, ownerId: user.id, createdAt })
        .onConflictDoNothing({ target: bubles.slug })
        .returning({ id: bubles.id })
      if (inserted.length > 0) break
      if (attempt >= 20) throw new Error('no free slug')
    }
    await addMember(w, id, user.id, 'owner', { newBuble: true })
    return newOwnedBuble({
      id,
      slug,
      name,
      created_at: createdAt.toISOString(),
      owner: { id: user.id, name: user.name, email: user.email, avatar_url: user.avatarUrl },
    })
  }

  async function addMember(
    w: SyncWriter,
    bubleId: string,
    userId: string,
    role: 'owner' | 'member',
    { newBuble = false } = {},
  ) {
    // The join's version is the member row's own: a device backfilling the buble receives that row,
    // so its cursor cannot pass the join before it has the buble's whole content.
    const permissions = `{${ROLE_DEFAULT_PERMISSIONS[role].join(',')}}`
    await w.tx.execute(sql`insert into memberships (buble_id, user_id, role, permissions, joined_at, joined_version, version)
      select ${bubleId}, ${userId}, ${role}, ${permissions}::text[], ${now()}, v, v
      from (select nextval('sync_version') as v) as next`)
    // The buble's member count and list changed too (a new buble is sent whole anyway).
    if (!newBuble) await w.tx.update(bubles).set({ version: NEXT_VERSION }).where(eq(bubles.id, bubleId))
    w.changed(bubleId, 'member')
    w.changed(bubleId, 'buble')
    w.joined(userId, bubleId)
  }

  /** Removes a membership: the others see the member go, the user's devices forget the buble. */
  async function removeMember(w: SyncWriter, bubleId: string, userId: string): Promise<void> {
    await w.tx.delete(memberships).where(and(eq(memberships.bubleId, bubleId), eq(memberships.userId, userId)))
    await w.deleted('member', bubleId, [memberKey(bubleId, userId)])
    // The buble's member count and list changed too.
    await w.tx.update(bubles).set({ version: NEXT_VERSION }).where(eq(bubles.id, bubleId))
    w.changed(bubleId, 'buble')
    await w.forget(userId, bubleId)
  }

  /** Deletes a buble and everything in it; every member's devices forget it. */
  async function deleteBuble(w: SyncWriter, bubleId: string): Promise<void> {
    const members = await w.tx
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(eq(memberships.bubleId, bubleId))
    await w.tx.delete(bubles).where(eq(bubles.id, bubleId))
    // The buble's own tombstones are moot: every device that had it drops it whole.
    await w.tx.execute(sql`delete from sync_tombstones where buble_id = ${bubleId} and user_id is null`)
    for (const member of members) await w.forget(member.userId, bubleId)
  }

  /**
   * Account deletion (CONTRACT §3.1): each buble the user owns passes to its longest-standing
   * admin, else longest-standing member, else is deleted; then every membership goes.
   */
  const accountDeletionStep: AccountDeletionStep = (tx: Tx, user: UserRow) =>
    syncWriteIn(tx, async (w) => {
      const mine = await w.tx.select().from(memberships).where(eq(memberships.userId, user.id))
      for (const membership of mine) {
        if (membership.role === 'owner') {
          const [heir] = await w.tx
            .select()
            .from(memberships)
            .where(and(eq(memberships.bubleId, membership.bubleId), sql`${memberships.userId} <> ${user.id}`))
            .orderBy(sql`case ${memberships.role} when 'admin' then 0 else 1 end`, asc(memberships.joinedAt))
            .limit(1)
          if (!heir) {
            await deleteBuble(w, membership.bubleId)
            continue
          }
          await w.tx
            .update(memberships)
            .set({ role: 'owner', permissions: [...ROLE_DEFAULT_PERMISSIONS.owner], version: NEXT_VERSION })
            .where(and(eq(memberships.bubleId, heir.bubleId), eq(memberships.userId, heir.userId)))
          await w.tx.update(bubles).set({ ownerId: heir.userId }).where(eq(bubles.id, membership.bubleId))
          w.changed(membership.bubleId, 'member')
        }
        await removeMember(w, membership.bubleId, user.id)
      }
    })

  /** A member's name or avatar changed: their member rows and bubles are sent again. */
  const profileChangeStep: ProfileChangeStep = async (w, user) => {
    const mine = await w.tx
      .update(memberships)
      .set({ version: NEXT_VERSION })
      .where(eq(memberships.userId, user.id))
      .returning({ bubleId: memberships.bubleId })
    if (mine.length === 0) return
    const ids = mine.map((row) => row.bubleId)
    await w.tx.update(bubles).set({ version: NEXT_VERSION }).where(inArray(bubles.id, ids))
    for (const id of ids) {
      w.changed(id, 'member')
      w.changed(id, 'buble')
    }
  }

  return {
    accountDeletionStep,
    profileChangeStep,

    /** The caller's bubles, newest first. */
    async list(user: UserRow): Promise<Buble[]> {
      return loadBubles(db, await bubleIdsOf(db, user.id), user.id)
    },

    async get(user: UserRow, idOrSlug: string): Promise<Buble> {
      const row = await requireBubleFor(db, idOrSlug, user.id)
      return loadBuble(db, row.id, user.id)
    },

    /** Creates a buble owned by the caller; the same client id again answers the buble made with it. */
    create(user: UserRow, args: CreateBubleBody): Promise<{ buble: Buble; created: boolean }> {
      return syncWrite(db, async (w) => {
        const id = args.id ?? uuidv7()
        if ((await claimId(w.tx, id, 'buble', user.id)) === 'existing') {
          const [existing] = await w.tx.select({ id: bubles.id }).from(bubles).where(eq(bubles.id, id)).limit(1)
          // Made with this id and deleted since: the id is spent.
          if (!existing) throw conflict(ID_IN_USE)
          return { buble: await loadBuble(w.tx, id, user.id), created: false }
        }
        return { buble: await insertBuble(w, user, id, args.name), created: true }
      })
    },

    remove(user: UserRow, bubleId: string): Promise<void> {
      return syncWrite(db, async (w) => {
        const membership = await requireMembership(w.tx, bubleId, user.id)
        if (!can(membership, 'buble.delete')) throw forbidden('You are not allowed to delete this Buble')
        await deleteBuble(w, bubleId)
      })
    },

    createInvite(user: UserRow, bubleId: string, _args: CreateInviteBody): Promise<Invite> {
      return syncWrite(db, async (w) => {
        const membership = await requireMembership(w.tx, bubleId, user.id)
        if (!can(membership, 'invite.create')) throw forbidden('You are not allowed to invite members to this Buble')
        const expiresAt = new Date(now().getTime() + INVITE_TTL_MS)
        for (;;) {
          const code = newInviteCode()
          const inserted = await w.tx
            .insert(invites)
            .values({ id: uuidv7(), code, bubleId, createdById: user.id, expiresAt, createdAt: now() })
            .onConflictDoNothing({ target: invites.code })
            .returning({ code: invites.code })
          if (inserted[0]) return { code: inserted[0].code, expires_at: expiresAt.toISOString() }
        }
      })
    },

    /** Joins the buble of an unused, unexpired code; the code is spent only by a successful join. */
    acceptInvite(user: UserRow, code: string): Promise<Buble> {
      return syncWrite(db, async (w) => {
        const [invite] = await w.tx.select().from(invites).where(eq(invites.code, code)).limit(1).for('update')
        if (!invite || invite.usedById || invite.usedAt || invite.expiresAt <= now())
          throw tokenInvalid(BUBLE_MESSAGES.inviteInvalid)
        const [already] = await w.tx
          .select({ role: memberships.role })
          .from(memberships)
          .where(and(eq(memberships.bubleId, invite.bubleId), eq(memberships.userId, user.id)))
          .limit(1)
        if (already) throw conflict(BUBLE_MESSAGES.alreadyMember)
        await w.tx.update(invites).set({ usedById: user.id, usedAt: now() }).where(eq(invites.id, invite.id))
        await addMember(w, invite.bubleId, user.id, 'member')
        return loadBuble(w.tx, invite.bubleId, user.id)
      })
    },

    async members(user: UserRow, bubleId: string): Promise<Member[]> {
      await requireMembership(db, bubleId, user.id)
      return loadMembers(db, bubleId)
    },

    /** Leaves a buble (only for oneself); the owner must hand it over first. */
    leave(user: UserRow, bubleId: string, userId: string = user.id): Promise<void> {
      return syncWrite(db, async (w) => {
        const membership = await requireMembership(w.tx, bubleId, user.id)
        if (userId !== user.id) throw forbidden(BUBLE_MESSAGES.leaveOthers)
        if (!can(membership, 'buble.leave')) throw conflict(BUBLE_MESSAGES.ownerCannotLeave)
        await removeMember(w, bubleId, user.id)
      })
    },
  }
}

export { bubleNotFound }
