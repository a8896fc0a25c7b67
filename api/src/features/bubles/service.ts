/** Bubles and their lifecycle (CONTRACT §3.2): create, read, rename, tools, delete, leave; account hooks. */

import { BUBLE_MESSAGES, type Buble, type CreateBubleBody, newOwnedBuble } from '@buble/shared/bubles'
import { can } from '@buble/shared/permissions'
import { storedToolsOf, type ToolsBody, type ToolsResponse, toolsOf } from '@buble/shared/tools'
import slugify from '@sindresorhus/slugify'
import { and, asc, eq, exists, inArray, sql } from 'drizzle-orm'
import { customAlphabet } from 'nanoid'
import { v7 as uuidv7 } from 'uuid'
import type { Tx } from '../../db/client.ts'
import { bubles, memberships } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import type { AccountDeletionStep, ProfileChangeStep, UserRow } from '../../lib/accounts.ts'
import { claimId } from '../../lib/entity-ids.ts'
import { conflict, forbidden } from '../../lib/errors.ts'
import { memberActorOf, requireMembership } from '../../lib/memberships.ts'
import type { PokeClock } from '../../lib/poke-clock.ts'
import { batchAnswers, firstOfEach, type ONE_BY_ONE } from '../../lib/sync-sources.ts'
import { NEXT_VERSION, type SyncWriter, syncWrite, syncWriteIn } from '../../lib/sync-writes.ts'
import { createKeptBubleAnswers, type KeptAnswer } from './kept-answers.ts'
import { createMemberListCache, type MemberList } from './member-list-cache.ts'
import { loadBuble, loadMembers } from './queries.ts'
import type { MembershipWrites } from './writes.ts'

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

export function bublesService(deps: Deps, writes: MembershipWrites, pokes: PokeClock) {
  const { db, now } = deps
  const memberLists = createMemberListCache(pokes)
  const answers = createKeptBubleAnswers(db, pokes)

  /** A buble `user` made just now, as REST answers it (nothing to read back). */
  const ownedBuble = (user: UserRow, made: { id: string; slug: string; name: string; createdAt: Date }): Buble =>
    newOwnedBuble({
      id: made.id,
      slug: made.slug,
      name: made.name,
      created_at: made.createdAt.toISOString(),
      owner: { id: user.id, name: user.name, email: user.email, avatar_url: user.avatarUrl },
    })

  /** Makes a buble owned by `user` under the first free slug and answers it as REST does. */
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
    await writes.addOwner(w, user.id, [id])
    return ownedBuble(user, { id, slug, name, createdAt })
  }

  /**
   * New bubles of one owner in one statement inside the open write `w` (a device's queue of
   * bubles made offline): the ids claimed, each buble under its slug, or a spare one with a suffix
   * when that is taken (or used earlier in the batch), the owner joined. One whose id was claimed
   * before is answered `ONE_BY_ONE`, and `create` gives it the exact answer (the buble made with
   * that id, or a 409). A slug taken by a write racing this one (or a spare taken too) fails the
   * statement; the push then makes them one at a time, as `create` does, retrying slugs.
   */
  async function createBublesAtOnce(
    w: SyncWriter,
    user: UserRow,
    items: readonly { id: string; name: string }[],
  ): Promise<(Buble | typeof ONE_BY_ONE)[]> {
    const firsts = firstOfEach(items)
    const slugs = new Set<string>()
    const input = firsts.map((item, n) => {
      const base = slugBase(item.name)
      let slug = base
      while (slugs.has(slug)) slug = `${base}-${slugSuffix()}`
      slugs.add(slug)
      return { n, id: item.id, name: item.name, slug, spare: `${base}-${slugSuffix()}` }
    })
    const createdAt = now()
    const { rows } = (await w.tx.execute(sql`with input as materialized (
        select x.* from jsonb_to_recordset(${JSON.stringify(input)}::jsonb) as x(n int, id uuid, name text, slug text, spare text)
      ),
      claimed as (
        insert into entity_ids (id, kind, user_id) select id, 'buble', ${user.id} from input
        on conflict do nothing
        returning id
      ),
      made as (
        insert into bubles (id, slug, name, owner_id, created_at)
        select i.id, case when exists (select 1 from bubles b where b.slug = i.slug) then i.spare else i.slug end,
          i.name, ${user.id}, ${createdAt.toISOString()}::timestamptz
        from input i join claimed c on c.id = i.id
        order by i.n
        returning id, slug
      )
      select id, slug from made`)) as unknown as { rows: { id: string; slug: string }[] }
    const names = new Map(firsts.map((item) => [item.id, item.name]))
    const made = new Map(rows.map((row) => [row.id, { id: row.id, slug: row.slug, name: names.get(row.id)! }]))
    await writes.addOwner(
      w,
      user.id,
      input.filter((item) => made.has(item.id)).map((item) => item.id),
    )
    return batchAnswers(items, new Map([...made].map(([id, buble]) => [id, ownedBuble(user, { ...buble, createdAt })])))
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
            await writes.deleteBuble(w, membership.bubleId)
            continue
          }
          await writes.transferOwnership(w, membership.bubleId, user.id, heir.userId)
        }
        await writes.removeMember(w, membership.bubleId, user.id)
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

    /** The caller's bubles, newest first, as the JSON sent: from memory while nothing in them changed. */
    listAnswer: (user: UserRow): Promise<KeptAnswer> => answers.list(user.id),

    /** One of the caller's bubles by id or slug, as the JSON sent: from memory while nothing in it changed. */
    getAnswer: (user: UserRow, idOrSlug: string): Promise<KeptAnswer> => answers.one(user.id, idOrSlug),

    /** Creates a buble owned by the caller; the same client id again answers the buble made with it. */
    create(user: UserRow, args: CreateBubleBody): Promise<{ buble: Buble; created: boolean }> {
      return syncWrite(db, async (w) => {
        const id = args.id ?? uuidv7()
        // The buble made with this id, only while the caller is still a member: deleted since, or
        // left (handed over first), the id is spent and its buble is not theirs to read.
        const stillMember = exists(
          w.tx
            .select({ id: memberships.bubleId })
            .from(memberships)
            .where(and(eq(memberships.bubleId, id), eq(memberships.userId, user.id))),
        )
        if ((await claimId(w.tx, id, 'buble', user.id, stillMember)) === 'existing')
          return { buble: await loadBuble(w.tx, id, user.id), created: false }
        return { buble: await insertBuble(w, user, id, args.name), created: true }
      })
    },

    /** New bubles several at once, inside the push's open write (the batcher of `buble.create`). */
    createAtOnce: (user: UserRow, items: readonly { id: string; name: string }[]) =>
      syncWrite(db, (w) => createBublesAtOnce(w, user, items)),

    /** Renames a buble; the slug stays, so links keep working. */
    rename(user: UserRow, bubleId: string, name: string): Promise<Buble> {
      return syncWrite(db, async (w) => {
        const membership = await requireMembership(w.tx, bubleId, user.id)
        if (!can(memberActorOf(membership), 'buble.rename')) throw forbidden(BUBLE_MESSAGES.notAllowedToRename)
        await w.tx.update(bubles).set({ name, version: NEXT_VERSION }).where(eq(bubles.id, bubleId))
        w.changed(bubleId, 'buble')
        return loadBuble(w.tx, bubleId, user.id)
      })
    },

    /** The member list as JSON (and its ETag), from memory while nothing in the buble changed. */
    async memberList(user: UserRow, bubleId: string): Promise<MemberList> {
      const cached = memberLists.get(bubleId, user.id)
      if (cached) return cached
      const since = pokes.mark()
      await requireMembership(db, bubleId, user.id)
      return memberLists.set(bubleId, await loadMembers(db, bubleId), since)
    },

    close() {
      memberLists.close()
      answers.close()
    },

    async tools(user: UserRow, bubleId: string): Promise<ToolsResponse> {
      await requireMembership(db, bubleId, user.id)
      const [row] = await db.select({ tools: bubles.tools }).from(bubles).where(eq(bubles.id, bubleId))
      return { tools: toolsOf(row?.tools ?? []) }
    },

    /** Sets which optional tools are on (the owner only, spec part 2 §6). */
    setTools(user: UserRow, bubleId: string, body: ToolsBody): Promise<ToolsResponse> {
      return syncWrite(db, async (w) => {
        const membership = await requireMembership(w.tx, bubleId, user.id)
        if (!can(memberActorOf(membership), 'tools.manage')) throw forbidden(BUBLE_MESSAGES.onlyOwnerTools)
        const stored = storedToolsOf(body.enabled)
        await w.tx.update(bubles).set({ tools: stored, version: NEXT_VERSION }).where(eq(bubles.id, bubleId))
        w.changed(bubleId, 'buble')
        return { tools: toolsOf(stored) }
      })
    },

    remove(user: UserRow, bubleId: string): Promise<void> {
      return syncWrite(db, async (w) => {
        const membership = await requireMembership(w.tx, bubleId, user.id)
        if (!can(memberActorOf(membership), 'buble.delete')) throw forbidden('You are not allowed to delete this Buble')
        await writes.deleteBuble(w, bubleId)
      })
    },

    /** A platform admin's delete (CONTRACT §3.4): as `remove`, without the membership check; false when there is no such buble. */
    adminRemove(bubleId: string): Promise<boolean> {
      return syncWrite(db, async (w) => {
        const [row] = await w.tx.select({ id: bubles.id }).from(bubles).where(eq(bubles.id, bubleId)).limit(1)
        if (!row) return false
        await writes.deleteBuble(w, bubleId)
        return true
      })
    },

    /** Leaves a buble (only for oneself); the owner must hand it over first. */
    leave(user: UserRow, bubleId: string, userId: string = user.id): Promise<void> {
      return syncWrite(db, async (w) => {
        const membership = await requireMembership(w.tx, bubleId, user.id)
        if (userId !== user.id) throw forbidden(BUBLE_MESSAGES.leaveOthers)
        if (!can(memberActorOf(membership), 'buble.leave')) throw conflict(BUBLE_MESSAGES.ownerCannotLeave)
        await writes.removeMember(w, bubleId, user.id)
      })
    },
  }
}
