/** Reads of bubles and members in their answer shapes (CONTRACT §3.2): a fixed number of queries for any number of bubles. */

import type { Buble, Member, MemberRef } from '@buble/shared/bubles'
import { isUuid } from '@buble/shared/bubles'
import { type BubleRole, effectivePermissions } from '@buble/shared/permissions'
import { enabledToolsOf } from '@buble/shared/tools'
import { and, eq, inArray, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { bubles, memberships, users } from '../../db/schema.ts'
import { bubleNotFound, type MembershipRow, memberKey } from '../../lib/memberships.ts'
import { isoJson, rowsOf } from '../../lib/sql-json.ts'
import { pgUuidArray } from '../../lib/sync-writes.ts'

export type BubleRow = typeof bubles.$inferSelect

/** The buble a path names by id or slug, if the user belongs to it; 404 otherwise. */
export async function requireBubleFor(db: Executor, idOrSlug: string, userId: string): Promise<BubleRow> {
  const [row] = await db
    .select({ buble: bubles })
    .from(bubles)
    .innerJoin(memberships, and(eq(memberships.bubleId, bubles.id), eq(memberships.userId, userId)))
    .where(isUuid(idOrSlug) ? eq(bubles.id, idOrSlug) : eq(bubles.slug, idOrSlug.toLowerCase()))
    .limit(1)
  if (!row) throw bubleNotFound()
  return row.buble
}

interface MemberWithUser {
  membership: MembershipRow
  user: { name: string; email: string; avatarUrl: string | null }
}

/** A member row with its account, as `membersOf` builds it in SQL. */
interface MemberJson extends Omit<MembershipRow, 'joinedAt' | 'mutedUntil'> {
  joinedAt: string
  mutedUntil: string | null
  name: string
  email: string
  avatarUrl: string | null
}

/** The member-list order: the owner, admins, moderators, members; each by how long they have belonged, then name. */
const MEMBER_ORDER = `case x.role when 'owner' then 0 when 'admin' then 1 when 'moderator' then 2 else 3 end, x.joined_at, u.name`

/** A member row `x` with its account `u`, as `MemberJson`. */
const MEMBER_JSON = sql.raw(`json_build_object('bubleId', x.buble_id, 'userId', x.user_id, 'role', x.role,
  'permissions', x.permissions, 'joinedAt', ${isoJson('x.joined_at')},
  'joinedVersion', x.joined_version, 'version', x.version, 'mutedUntil', ${isoJson('x.muted_until')},
  'name', u.name, 'email', u.email, 'avatarUrl', u.avatar_url)`)

function memberWithUser(member: MemberJson | string): MemberWithUser {
  const { name, email, avatarUrl, joinedAt, mutedUntil, ...membership } =
    typeof member === 'string' ? (JSON.parse(member) as MemberJson) : member
  return {
    membership: { ...membership, joinedAt: new Date(joinedAt), mutedUntil: mutedUntil ? new Date(mutedUntil) : null },
    user: { name, email, avatarUrl },
  }
}

/**
 * The members of `bubleIds`: the owner first, then admins, moderators and members, each by how long
 * they have belonged. Each buble's memberships are read by its own index lookup and each account by
 * its key, as two lateral subqueries: planned as one join over the list, or with the accounts joined
 * inside the per-buble subquery, PostgreSQL misjudged new bubles' size and scanned every membership
 * or hashed every account (the plans and timings: docs/decisions/0052).
 */
async function membersOf(db: Executor, bubleIds: readonly string[]): Promise<MemberWithUser[]> {
  if (bubleIds.length === 0) return []
  const rows = rowsOf<{ member: MemberJson | string }>(
    await db.execute(sql`select ${MEMBER_JSON} as member
      from unnest(${pgUuidArray([...bubleIds])}) as wanted(id)
      -- Each a subquery of its own (offset 0): pulled up, they are joins the planner may hash again.
      cross join lateral (select m.* from memberships m where m.buble_id = wanted.id offset 0) x
      cross join lateral (select u.name, u.email, u.avatar_url from users u where u.id = x.user_id offset 0) u
      order by ${sql.raw(MEMBER_ORDER)}`),
  )
  return rows.map(({ member }) => memberWithUser(member))
}

export const toMember = ({ membership, user }: MemberWithUser): Member => ({
  user_id: membership.userId,
  role: membership.role,
  permissions: effectivePermissions(membership),
  joined_at: membership.joinedAt.toISOString(),
  user: { name: user.name, email: user.email, avatar_url: user.avatarUrl },
  ...(membership.mutedUntil ? { muted_until: membership.mutedUntil.toISOString() } : {}),
})

/** The members of one buble, owner first. */
export async function loadMembers(db: Executor, bubleId: string): Promise<Member[]> {
  return (await membersOf(db, [bubleId])).map(toMember)
}

/**
 * Members as the sync pull sends them, keyed `<buble_id>:<user_id>` (the id of a `member` change):
 * exactly those rows. Each row and each account by its own index lookup (lateral subqueries, as in
 * `membersOf`): as one join, PostgreSQL hashed every account to find a page's 500.
 */
export async function loadMembersByKey(db: Executor, keys: readonly string[]): Promise<Map<string, Member>> {
  if (keys.length === 0) return new Map()
  const pairs = keys.map((key) => key.split(':') as [string, string])
  const rows = rowsOf<{ member: MemberJson | string }>(
    await db.execute(sql`select ${MEMBER_JSON} as member
      from unnest(${pgUuidArray(pairs.map(([bubleId]) => bubleId))}, ${pgUuidArray(pairs.map(([, userId]) => userId))})
        as wanted(buble_id, user_id)
      cross join lateral (select m.* from memberships m
        where m.buble_id = wanted.buble_id and m.user_id = wanted.user_id offset 0) x
      cross join lateral (select u.name, u.email, u.avatar_url from users u where u.id = x.user_id offset 0) u`),
  )
  return new Map(
    rows.map(({ member }) => {
      const row = memberWithUser(member)
      return [memberKey(row.membership.bubleId, row.membership.userId), toMember(row)]
    }),
  )
}

/**
 * Each buble's members as refs, in member-list order, one JSON array per buble built by PostgreSQL
 * (the lookups as in `membersOf`): a page of big bubles is 20 arrays to parse, not 10,000 rows.
 */
async function memberRefsOf(db: Executor, bubleIds: readonly string[]): Promise<Map<string, MemberRef[]>> {
  const rows = rowsOf<{ id: string; refs: string }>(
    await db.execute(sql`select wanted.id, (select coalesce(json_agg(
          json_build_object('id', x.user_id, 'name', u.name, 'avatar_url', u.avatar_url) order by ${sql.raw(MEMBER_ORDER)}),
          '[]')::text
        from (select m.user_id, m.role, m.joined_at from memberships m where m.buble_id = wanted.id offset 0) x
        cross join lateral (select u.name, u.avatar_url from users u where u.id = x.user_id offset 0) u) as refs
      from unnest(${pgUuidArray([...bubleIds])}) as wanted(id)`),
  )
  return new Map(rows.map((row) => [row.id, JSON.parse(row.refs) as MemberRef[]]))
}

/** Bubles as `viewerId` sees them (their role and permissions), in the order of `ids`; missing ones are left out. */
export async function loadBubles(db: Executor, ids: readonly string[], viewerId: string): Promise<Buble[]> {
  if (ids.length === 0) return []
  // One after another: inside a transaction all share one connection.
  const rows = await db
    .select({ buble: bubles, owner: { id: users.id, name: users.name, email: users.email } })
    .from(bubles)
    .innerJoin(users, eq(users.id, bubles.ownerId))
    .where(inArray(bubles.id, [...ids]))
  const refs = await memberRefsOf(db, ids)
  const mine = new Map(
    (
      await db
        .select()
        .from(memberships)
        .where(and(eq(memberships.userId, viewerId), inArray(memberships.bubleId, [...ids])))
    ).map((row) => [row.bubleId, row]),
  )
  const byId = new Map(rows.map((row) => [row.buble.id, row]))
  const answer: Buble[] = []
  for (const id of ids) {
    const row = byId.get(id)
    if (!row) continue
    answer.push(toBuble(row.buble, row.owner, refs.get(id) ?? [], mine.get(id)))
  }
  return answer
}

function toBuble(
  buble: BubleRow,
  owner: { id: string; name: string; email: string },
  refs: MemberRef[],
  mine: MembershipRow | undefined,
): Buble {
  // A viewer outside the buble (an admin view, say) holds nothing in it.
  const role: BubleRole = mine?.role ?? 'member'
  return {
    id: buble.id,
    slug: buble.slug,
    name: buble.name,
    created_at: buble.createdAt.toISOString(),
    owner_id: buble.ownerId,
    owner,
    member_count: refs.length,
    members: refs,
    my_role: role,
    my_permissions: mine ? effectivePermissions(mine) : [],
    tools: enabledToolsOf(buble.tools),
  }
}

/** One buble as its member sees it. */
export async function loadBuble(db: Executor, id: string, viewerId: string): Promise<Buble> {
  const [buble] = await loadBubles(db, [id], viewerId)
  if (!buble) throw bubleNotFound()
  return buble
}

/** The ids of a user's bubles, newest first. */
export async function bubleIdsOf(db: Executor, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: bubles.id })
    .from(memberships)
    .innerJoin(bubles, eq(bubles.id, memberships.bubleId))
    .where(eq(memberships.userId, userId))
    .orderBy(sql`${bubles.createdAt} desc`, sql`${bubles.id} desc`)
  return rows.map((row) => row.id)
}
