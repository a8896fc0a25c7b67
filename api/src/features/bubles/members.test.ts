import { randomUUID } from 'node:crypto'
import { MEMBER_MESSAGES } from '@buble/shared/members'
import type { Change } from '@buble/sync/protocol'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { users } from '../../db/schema.ts'
import { backends } from '../../testing/databases.ts'
import { createHarness, type Harness, type TestResponse, uniqueEmail } from '../../testing/harness.ts'
import { pullAll } from '../../testing/sync.ts'

/**
 * Member management (CONTRACT §3.2, §4): role changes, custom permissions, removal, ownership
 * transfer and leaving, for every actor role against every target. The expected outcomes are
 * written out by hand as tables, never computed from the rules under test.
 */

type Role = 'owner' | 'admin' | 'moderator' | 'member'
type ActorKind = Role | 'non-member'
type TargetKind = Role | 'self'

const ACTORS: readonly ActorKind[] = ['owner', 'admin', 'moderator', 'member', 'non-member']
// The columns of every table below, in this order.
const TARGETS: readonly TargetKind[] = ['owner', 'admin', 'moderator', 'member', 'self']

// CONTRACT §4, written out rather than imported.
const ALL_PERMISSIONS = [
  'manage_buble',
  'delete_buble',
  'manage_members',
  'invite_members',
  'remove_members',
  'change_roles',
  'manage_events',
  'manage_polls',
  'create_events',
  'create_polls',
  'moderate_content',
  'delete_others_content',
  'pin_posts',
]
const DEFAULTS: Record<Role, string[]> = {
  owner: ALL_PERMISSIONS,
  admin: ALL_PERMISSIONS.filter((p) => p !== 'delete_buble'),
  moderator: [
    'invite_members',
    'change_roles',
    'remove_members',
    'manage_events',
    'manage_polls',
    'create_events',
    'create_polls',
    'moderate_content',
    'delete_others_content',
  ],
  member: ['create_events', 'create_polls'],
}
const without = (list: readonly string[], ...drop: string[]) => list.filter((p) => !drop.includes(p))

// Fixed by CONTRACT §3.2 and the spec.
const ROLE_UPDATED = 'Member role updated successfully'
const REMOVED = 'Member removed successfully'
const TRANSFERRED = 'Ownership transferred successfully'
const MEMBER_NOT_FOUND = 'Member not found'
const BUBLE_NOT_FOUND = 'Buble not found'

/**
 * Outcomes. ok: 200/204 and the change made. self: 403, nobody manages themselves. reach: 403, the
 * target is out of the actor's reach. role: 403, a role the actor may not give. rights: 403, the
 * actor lacks the permission the call needs. owner-only: 403, only the owner transfers ownership.
 * same: 400, a transfer to oneself. gone: 404, the caller is not in the buble. others: 403,
 * leaving is for oneself only. stays: 409, the owner cannot leave.
 */
type Outcome = 'ok' | 'self' | 'reach' | 'role' | 'rights' | 'owner-only' | 'same' | 'gone' | 'others' | 'stays'
type Table = Record<ActorKind, string>

const cells = (table: Table, actor: ActorKind) => table[actor].trim().split(/\s+/) as Outcome[]

/** Every (actor, target, outcome) of a table, checking that it has a cell for each. */
function casesOf(table: Table): [ActorKind, TargetKind, Outcome][] {
  return ACTORS.flatMap((actor) => {
    const row = cells(table, actor)
    if (row.length !== TARGETS.length) throw new Error(`row ${actor} has ${row.length} cells`)
    return TARGETS.map((target, i) => [actor, target, row[i]!] as [ActorKind, TargetKind, Outcome])
  })
}

// PUT /members/role {userId, role} without customPermissions: the role, with its default permissions.
// The owner's column is the actor themselves when the actor is the owner.
//                  owner       admin       moderator   member      self
const ROLE_TABLES: Record<'admin' | 'moderator' | 'member' | 'owner', Table> = {
  admin: {
    owner: '        self        ok          ok          ok          self',
    admin: '        reach       ok          ok          ok          self',
    moderator: '    reach       reach       reach       role        self',
    member: '       reach       reach       reach       reach       self',
    'non-member': ' gone        gone        gone        gone        gone',
  },
  moderator: {
    owner: '        self        ok          ok          ok          self',
    admin: '        reach       ok          ok          ok          self',
    moderator: '    reach       reach       reach       role        self',
    member: '       reach       reach       reach       reach       self',
    'non-member': ' gone        gone        gone        gone        gone',
  },
  // Giving someone the role they have resets their permissions to its defaults: a role change.
  member: {
    owner: '        self        ok          ok          ok          self',
    admin: '        reach       ok          ok          ok          self',
    moderator: '    reach       reach       reach       ok          self',
    member: '       reach       reach       reach       reach       self',
    'non-member': ' gone        gone        gone        gone        gone',
  },
  // Giving `owner` is a transfer: only the owner may.
  owner: {
    owner: '        self        ok          ok          ok          self',
    admin: '        owner-only  owner-only  owner-only  owner-only  self',
    moderator: '    owner-only  owner-only  owner-only  owner-only  self',
    member: '       owner-only  owner-only  owner-only  owner-only  self',
    'non-member': ' gone        gone        gone        gone        gone',
  },
}

// PUT /members/role {userId, role: the target's own role, customPermissions}: permissions only.
// A moderator's defaults lack manage_members.
//                        owner       admin       moderator   member      self
const CUSTOM_TABLE: Table = {
  owner: '        self        ok          ok          ok          self',
  admin: '        owner-only  ok          ok          ok          self',
  moderator: '    owner-only  reach       reach       rights      self',
  member: '       owner-only  reach       reach       reach       self',
  'non-member': ' gone        gone        gone        gone        gone',
}
// Within what an admin holds (no delete_buble): granted to a member, withdrawn from the others.
const CUSTOM = ['create_events', 'invite_members']

// DELETE /members/remove {userId}.
//                        owner       admin       moderator   member      self
const REMOVE_TABLE: Table = {
  owner: '        self        ok          ok          ok          self',
  admin: '        reach       ok          ok          ok          self',
  moderator: '    reach       reach       reach       ok          self',
  member: '       reach       reach       reach       reach       self',
  'non-member': ' gone        gone        gone        gone        gone',
}

// POST /transfer-ownership {newOwnerId}.
//                        owner       admin       moderator   member      self
const TRANSFER_TABLE: Table = {
  owner: '        same        ok          ok          ok          same',
  admin: '        owner-only  owner-only  owner-only  owner-only  owner-only',
  moderator: '    owner-only  owner-only  owner-only  owner-only  owner-only',
  member: '       owner-only  owner-only  owner-only  owner-only  owner-only',
  'non-member': ' gone        gone        gone        gone        gone',
}

// DELETE /members/:userId: leaving, with one's own id only.
//                        owner       admin       moderator   member      self
const LEAVE_TABLE: Table = {
  owner: '        stays       others      others      others      stays',
  admin: '        others      others      others      others      ok',
  moderator: '    others      others      others      others      ok',
  member: '       others      others      others      others      ok',
  'non-member': ' gone        gone        gone        gone        gone',
}

/** What each refusal answers; `rights` names the permission the route needs. */
function refusalBody(outcome: Outcome, rights?: string) {
  const forbidden = (message: string) => ({ status: 403, body: { message, code: 'FORBIDDEN' } })
  switch (outcome) {
    case 'self':
      return forbidden(MEMBER_MESSAGES.notYourself)
    case 'reach':
      return forbidden(MEMBER_MESSAGES.notReached)
    case 'role':
      return forbidden(MEMBER_MESSAGES.roleNotAssignable)
    case 'rights':
      if (!rights) throw new Error('this route has no rights refusal')
      return forbidden(rights)
    case 'owner-only':
      return forbidden(MEMBER_MESSAGES.onlyOwnerTransfers)
    case 'others':
      return forbidden('You can only leave a Buble yourself')
    case 'stays':
      return {
        status: 409,
        body: {
          message: 'The owner cannot leave a Buble. Transfer ownership to another member first, or delete the Buble.',
          code: 'CONFLICT',
        },
      }
    case 'same':
      return {
        status: 400,
        body: {
          message: MEMBER_MESSAGES.alreadyOwner,
          code: 'VALIDATION_ERROR',
          issues: [{ path: 'newOwnerId', message: MEMBER_MESSAGES.alreadyOwner }],
        },
      }
    case 'gone':
      return { status: 404, body: { message: BUBLE_NOT_FOUND, code: 'NOT_FOUND' } }
    case 'ok':
      throw new Error('not a refusal')
  }
}

type User = { token: string; id: string; email: string; name: string }
type MemberRow = { user_id: string; role: Role; permissions: string[]; joined_at: string; user: unknown }

const sorted = (list: readonly string[]) => [...list].sort()
/** A member list in a stable order with sorted permissions, for comparing lists whose order may move. */
const normalized = (list: MemberRow[]) =>
  [...list]
    .map((m) => ({ ...m, permissions: sorted(m.permissions) }))
    .sort((a, b) => a.user_id.localeCompare(b.user_id))

describe.each(backends())('member management on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
  })
  afterAll(() => h?.close())

  let userCount = 0
  /**
   * A signed-in account made straight in the database: registering hashes a password with
   * argon2, which these hundreds of cases cannot afford. Everything else goes through the API.
   */
  const user = async (name = `Member ${++userCount}`): Promise<User> => {
    const email = uniqueEmail('members')
    const [row] = await h.database.db
      .insert(users)
      .values({ id: uuidv7(), name, email, emailVerified: true, createdAt: h.clock.now, updatedAt: h.clock.now })
      .returning()
    return { id: row!.id, email, name, token: await h.deps.tokens.sign(row!) }
  }

  const expectStatus = async (res: TestResponse, status: number) => {
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${await res.text()}`)
    return res
  }
  const create = async (token: string, name: string): Promise<{ id: string; slug: string }> =>
    (await expectStatus(await h.call('POST', '/api/bubles', { token, body: { name } }), 201)).json()
  const getBuble = (token: string, id: string) => h.call('GET', `/api/bubles/${id}`, { token })
  const bubleOf = async (token: string, id: string) => (await expectStatus(await getBuble(token, id), 200)).json()
  const bubleIds = async (token: string): Promise<string[]> =>
    (await (await expectStatus(await h.call('GET', '/api/bubles', { token }), 200)).json()).map(
      (b: { id: string }) => b.id,
    )
  const membersOf = async (token: string, bubleId: string): Promise<MemberRow[]> =>
    (await expectStatus(await h.call('GET', `/api/bubles/${bubleId}/members`, { token }), 200)).json()
  const join = async (owner: User, joiner: User, bubleId: string) => {
    const res = await h.call('POST', `/api/bubles/${bubleId}/invites`, { token: owner.token, body: {} })
    const { code } = await (await expectStatus(res, 201)).json()
    await expectStatus(await h.call('POST', `/api/bubles/invites/${code}/accept`, { token: joiner.token }), 200)
  }

  const changeRole = (token: string, bubleId: string, body: Record<string, unknown>) =>
    h.call('PUT', `/api/bubles/${bubleId}/members/role`, { token, body })
  const setRole = async (token: string, bubleId: string, userId: string, role: Role, customPermissions?: string[]) =>
    expectStatus(
      await changeRole(token, bubleId, customPermissions ? { userId, role, customPermissions } : { userId, role }),
      200,
    )
  const remove = (token: string, bubleId: string, body: unknown) =>
    h.call('DELETE', `/api/bubles/${bubleId}/members/remove`, { token, body })
  const transfer = (token: string, bubleId: string, body: unknown) =>
    h.call('POST', `/api/bubles/${bubleId}/transfer-ownership`, { token, body })
  const leave = (token: string, bubleId: string, userId: string) =>
    h.call('DELETE', `/api/bubles/${bubleId}/members/${userId}`, { token })

  const expectRefused = async (res: TestResponse, outcome: Outcome, rights?: string) => {
    const { status, body } = refusalBody(outcome, rights)
    expect({ status: res.status, body: await res.json() }).toEqual({ status, body })
  }
  const expectError = async (res: TestResponse, status: number, code: string, message?: string) => {
    expect(res.status).toBe(status)
    const body = await res.json()
    expect(body.code).toBe(code)
    expect(typeof body.message).toBe('string')
    if (message !== undefined) expect(body.message).toBe(message)
    return body
  }

  /** The member list as it should be after giving `userId` a role and permissions. */
  const withMember = (list: MemberRow[], userId: string, role: Role, permissions: readonly string[]) =>
    normalized(list.map((m) => (m.user_id === userId ? { ...m, role, permissions: [...permissions] } : m)))
  /** The member list as it should be after `from` handed the buble to `to`. */
  const handedOver = (list: MemberRow[], from: string, to: string) =>
    normalized(
      list.map((m) =>
        m.user_id === to
          ? { ...m, role: 'owner' as const, permissions: ALL_PERMISSIONS }
          : m.user_id === from
            ? { ...m, role: 'member' as const, permissions: DEFAULTS.member }
            : m,
      ),
    )
  const withoutMember = (list: MemberRow[], userId: string) => normalized(list.filter((m) => m.user_id !== userId))

  // Devices: each user's cursor, so a pull after a call brings just what that call changed.
  const cursors = new Map<string, string>()
  const catchUp = async (who: User) => {
    const { cursor } = await pullAll(h, who.token, cursors.get(who.id))
    cursors.set(who.id, cursor)
  }
  const pulled = async (who: User): Promise<Change[]> => {
    const { changes, cursor } = await pullAll(h, who.token, cursors.get(who.id))
    cursors.set(who.id, cursor)
    return changes
  }
  /** The rows of a member and of the buble came to `who`'s device, each as REST now answers it. */
  const expectMemberAndBublePulled = async (changes: Change[], who: User, bubleId: string, memberId: string) => {
    const member = (await membersOf(who.token, bubleId)).find((m) => m.user_id === memberId)
    expect(changes).toContainEqual({
      entity: 'member',
      op: 'put',
      id: `${bubleId}:${memberId}`,
      buble_id: bubleId,
      data: member,
    })
    const buble = changes.findLast((c) => c.entity === 'buble' && c.id === bubleId)
    expect(buble).toEqual({
      entity: 'buble',
      op: 'put',
      id: bubleId,
      buble_id: bubleId,
      data: await bubleOf(who.token, bubleId),
    })
  }

  // ---- the matrix ---------------------------------------------------------------------------

  /**
   * One buble per actor row: its owner, an admin, a moderator and a member as targets, and the
   * actor (another of the actor's role, the owner themselves, or someone outside the buble).
   * Before each case the buble is brought back to that line-up.
   */
  interface Team {
    bubleId: string
    owner: User
    targets: Record<TargetKind, User>
    actor: User
    /** Who should hold which role (the non-member actor is in none). */
    lineUp: [User, Role][]
  }
  const teams = new Map<ActorKind, Team>()

  describe('the matrix', () => {
    beforeAll(async () => {
      const owner = await user('Olga Owner')
      const admin = await user('Ada Admin')
      const moderator = await user('Mo Moderator')
      const member = await user('Mel Member')
      const others: Record<ActorKind, User> = {
        owner,
        admin: await user('Adam Second Admin'),
        moderator: await user('Moa Second Moderator'),
        member: await user('Mika Second Member'),
        'non-member': await user('Nina Outsider'),
      }
      for (const kind of ACTORS) {
        const actor = others[kind]
        const { id } = await create(owner.token, `Matrix ${kind}`)
        const lineUp: [User, Role][] = [
          [owner, 'owner'],
          [admin, 'admin'],
          [moderator, 'moderator'],
          [member, 'member'],
        ]
        if (kind !== 'owner' && kind !== 'non-member') lineUp.push([actor, kind])
        for (const [who, role] of lineUp.slice(1)) {
          await join(owner, who, id)
          if (role !== 'member') await setRole(owner.token, id, who.id, role)
        }
        teams.set(kind, {
          bubleId: id,
          owner,
          targets: { owner, admin, moderator, member, self: actor },
          actor,
          lineUp,
        })
      }
    })

    /** Brings a team's buble back to its line-up, each with their role's defaults; answers the member list. */
    async function restore(team: Team): Promise<MemberRow[]> {
      const { bubleId, owner } = team
      let list = await membersOf(owner.token, bubleId)
      const holder = list.find((m) => m.role === 'owner')!
      if (holder.user_id !== owner.id) {
        const current = team.lineUp.find(([who]) => who.id === holder.user_id)![0]
        await expectStatus(await transfer(current.token, bubleId, { newOwnerId: owner.id }), 200)
        list = await membersOf(owner.token, bubleId)
      }
      let changed = false
      for (const [who, role] of team.lineUp.slice(1)) {
        const row = list.find((m) => m.user_id === who.id)
        if (!row) await join(owner, who, bubleId)
        if (!row || row.role !== role || sorted(row.permissions).join() !== sorted(DEFAULTS[role]).join())
          await setRole(owner.token, bubleId, who.id, role)
        changed ||= !row || row.role !== role
      }
      if (changed) list = await membersOf(owner.token, bubleId)
      const roles = (rows: [string, string][]) => [...rows].sort(([a], [b]) => a.localeCompare(b))
      expect(roles(list.map((m) => [m.user_id, m.role]))).toEqual(
        roles(team.lineUp.map(([who, role]) => [who.id, role])),
      )
      return membersOf(owner.token, bubleId)
    }

    /** A member of the buble who is neither actor nor target: they watch the change arrive. */
    const observerOf = (team: Team, actor: User, target: User) =>
      [team.targets.member, team.targets.moderator, team.targets.admin, team.owner].find(
        (who) => who.id !== actor.id && who.id !== target.id,
      )!

    /** Runs one case: a refusal answers its body and changes nothing; an allowed call is checked by `allowed`. */
    async function runCase(
      actorKind: ActorKind,
      targetKind: TargetKind,
      outcome: Outcome,
      call: (team: Team, actor: User, target: User) => Promise<TestResponse>,
      rights: string | undefined,
      allowed: (
        res: TestResponse,
        ctx: { team: Team; actor: User; target: User; observer: User; before: MemberRow[]; after: MemberRow[] },
      ) => Promise<void>,
    ) {
      const team = teams.get(actorKind)!
      const actor = team.actor
      const target = team.targets[targetKind]
      const before = await restore(team)
      const observer = observerOf(team, actor, target)
      if (outcome === 'ok') await Promise.all([catchUp(observer), catchUp(actor), catchUp(target)])
      const res = await call(team, actor, target)
      const after = await membersOf(team.owner.token, team.bubleId)
      if (outcome !== 'ok') {
        await expectRefused(res, outcome, rights)
        expect(after).toEqual(before)
        return
      }
      await allowed(res, { team, actor, target, observer, before, after })
    }

    describe('role change', () => {
      const cases = (['admin', 'moderator', 'member', 'owner'] as const).flatMap((role) =>
        casesOf(ROLE_TABLES[role]).map(([actor, target, outcome]) => [actor, target, role, outcome] as const),
      )
      test('the tables have a cell for every actor, target and role', () => {
        expect(cases).toHaveLength(ACTORS.length * TARGETS.length * 4)
      })

      test.each(cases)('%s giving %s the role %s → %s', (actorKind, targetKind, role, outcome) =>
        runCase(
          actorKind,
          targetKind,
          outcome,
          (team, actor, target) => changeRole(actor.token, team.bubleId, { userId: target.id, role }),
          MEMBER_MESSAGES.noChangeRoles,
          async (res, { team, actor, target, observer, before, after }) => {
            expect(res.status).toBe(200)
            const body = await res.json()
            const mine = after.find((m) => m.user_id === target.id)
            expect(body).toEqual({ message: ROLE_UPDATED, member: mine })
            if (role === 'owner') {
              expect(normalized(after)).toEqual(handedOver(before, actor.id, target.id))
              expect((await bubleOf(observer.token, team.bubleId)).owner_id).toBe(target.id)
            } else {
              expect(normalized(after)).toEqual(withMember(before, target.id, role, DEFAULTS[role]))
            }
            // The other members' devices get the member row and the buble; the target's its new role.
            await expectMemberAndBublePulled(await pulled(observer), observer, team.bubleId, target.id)
            const forTarget = (await pulled(target)).findLast((c) => c.entity === 'buble' && c.id === team.bubleId)
            expect(forTarget?.data).toMatchObject({ my_role: role })
            expect(sorted((forTarget!.data as { my_permissions: string[] }).my_permissions)).toEqual(
              sorted(DEFAULTS[role]),
            )
          },
        ),
      )
    })

    describe('custom permissions', () => {
      const cases = casesOf(CUSTOM_TABLE)
      test('the table has a cell for every actor and target', () => {
        expect(cases).toHaveLength(ACTORS.length * TARGETS.length)
      })

      test.each(cases)('%s setting the permissions of %s → %s', (actorKind, targetKind, outcome) =>
        runCase(
          actorKind,
          targetKind,
          outcome,
          async (team, actor, target) => {
            const role = team.lineUp.find(([who]) => who.id === target.id)?.[1] ?? 'member'
            return changeRole(actor.token, team.bubleId, { userId: target.id, role, customPermissions: CUSTOM })
          },
          MEMBER_MESSAGES.noManageMembers,
          async (res, { team, target, observer, before, after }) => {
            expect(res.status).toBe(200)
            const role = before.find((m) => m.user_id === target.id)!.role
            expect(normalized(after)).toEqual(withMember(before, target.id, role, CUSTOM))
            expect(await res.json()).toEqual({
              message: ROLE_UPDATED,
              member: after.find((m) => m.user_id === target.id),
            })
            await expectMemberAndBublePulled(await pulled(observer), observer, team.bubleId, target.id)
            const forTarget = (await pulled(target)).findLast((c) => c.entity === 'buble' && c.id === team.bubleId)
            expect(sorted((forTarget!.data as { my_permissions: string[] }).my_permissions)).toEqual(sorted(CUSTOM))
          },
        ),
      )
    })

    describe('remove', () => {
      const cases = casesOf(REMOVE_TABLE)
      test('the table has a cell for every actor and target', () => {
        expect(cases).toHaveLength(ACTORS.length * TARGETS.length)
      })

      test.each(cases)('%s removing %s → %s', (actorKind, targetKind, outcome) =>
        runCase(
          actorKind,
          targetKind,
          outcome,
          (team, actor, target) => remove(actor.token, team.bubleId, { userId: target.id }),
          MEMBER_MESSAGES.noRemove,
          async (res, { team, target, observer, before, after }) => {
            expect(res.status).toBe(200)
            expect(await res.json()).toEqual({ message: REMOVED })
            expect(normalized(after)).toEqual(withoutMember(before, target.id))
            expect(await bubleIds(target.token)).not.toContain(team.bubleId)
            // The others see the member go; the removed user's devices forget the buble.
            const seen = await pulled(observer)
            expect(seen).toContainEqual({
              entity: 'member',
              op: 'del',
              id: `${team.bubleId}:${target.id}`,
              buble_id: team.bubleId,
            })
            expect(seen.findLast((c) => c.entity === 'buble' && c.id === team.bubleId)?.data).toEqual(
              await bubleOf(observer.token, team.bubleId),
            )
            expect(await pulled(target)).toContainEqual({
              entity: 'buble',
              op: 'del',
              id: team.bubleId,
              buble_id: team.bubleId,
            })
          },
        ),
      )
    })

    describe('transfer ownership', () => {
      const cases = casesOf(TRANSFER_TABLE)
      test('the table has a cell for every actor and target', () => {
        expect(cases).toHaveLength(ACTORS.length * TARGETS.length)
      })

      test.each(cases)('%s handing the buble to %s → %s', (actorKind, targetKind, outcome) =>
        runCase(
          actorKind,
          targetKind,
          outcome,
          (team, actor, target) => transfer(actor.token, team.bubleId, { newOwnerId: target.id }),
          undefined,
          async (res, { team, actor, target, observer, before, after }) => {
            expect(res.status).toBe(200)
            expect(await res.json()).toEqual({ message: TRANSFERRED })
            expect(normalized(after)).toEqual(handedOver(before, actor.id, target.id))
            const buble = await bubleOf(target.token, team.bubleId)
            expect(buble).toMatchObject({
              owner_id: target.id,
              owner: { id: target.id, name: target.name, email: target.email },
              my_role: 'owner',
            })
            expect((await bubleOf(actor.token, team.bubleId)).my_role).toBe('member')
            const seen = await pulled(observer)
            await expectMemberAndBublePulled(seen, observer, team.bubleId, target.id)
            await expectMemberAndBublePulled(seen, observer, team.bubleId, actor.id)
          },
        ),
      )
    })

    describe('leave', () => {
      const cases = casesOf(LEAVE_TABLE)
      test('the table has a cell for every actor and target', () => {
        expect(cases).toHaveLength(ACTORS.length * TARGETS.length)
      })

      test.each(cases)('%s leaving with the id of %s → %s', (actorKind, targetKind, outcome) =>
        runCase(
          actorKind,
          targetKind,
          outcome,
          (team, actor, target) => leave(actor.token, team.bubleId, target.id),
          undefined,
          async (res, { team, actor, observer, before, after }) => {
            expect(res.status).toBe(204)
            expect(await res.text()).toBe('')
            expect(normalized(after)).toEqual(withoutMember(before, actor.id))
            const seen = await pulled(observer)
            expect(seen).toContainEqual({
              entity: 'member',
              op: 'del',
              id: `${team.bubleId}:${actor.id}`,
              buble_id: team.bubleId,
            })
            expect(seen.findLast((c) => c.entity === 'buble' && c.id === team.bubleId)?.data).toEqual(
              await bubleOf(observer.token, team.bubleId),
            )
            expect(await pulled(actor)).toContainEqual({
              entity: 'buble',
              op: 'del',
              id: team.bubleId,
              buble_id: team.bubleId,
            })
          },
        ),
      )
    })
  })

  // ---- beyond the matrix --------------------------------------------------------------------

  /** A buble with an owner, an admin, a moderator and two plain members. */
  const squad = async (name = 'Squad') => {
    const owner = await user('Owen Owner')
    const admin = await user('Alma Admin')
    const moderator = await user('Milo Moderator')
    const member = await user('Mira Member')
    const other = await user('Otis Member')
    const { id, slug } = await create(owner.token, name)
    for (const who of [admin, moderator, member, other]) await join(owner, who, id)
    await setRole(owner.token, id, admin.id, 'admin')
    await setRole(owner.token, id, moderator.id, 'moderator')
    return { owner, admin, moderator, member, other, bubleId: id, slug }
  }
  const permissionsOf = async (token: string, bubleId: string, userId: string) =>
    sorted((await membersOf(token, bubleId)).find((m) => m.user_id === userId)!.permissions)

  describe('custom permissions and what they allow', () => {
    test('customPermissions become exactly the member’s list (duplicates dropped) and show as their my_permissions', async () => {
      const { owner, member, bubleId } = await squad()
      const res = await setRole(owner.token, bubleId, member.id, 'member', [
        'invite_members',
        'manage_buble',
        'invite_members',
      ])
      const body = await res.json()
      expect(body.message).toBe(ROLE_UPDATED)
      expect(body.member).toMatchObject({ user_id: member.id, role: 'member' })
      expect(sorted(body.member.permissions)).toEqual(['invite_members', 'manage_buble'])
      expect(await permissionsOf(owner.token, bubleId, member.id)).toEqual(['invite_members', 'manage_buble'])
      expect(sorted((await bubleOf(member.token, bubleId)).my_permissions)).toEqual(['invite_members', 'manage_buble'])
    })

    test('an empty list leaves a member holding nothing, and the same role without customPermissions resets the defaults', async () => {
      const { owner, moderator, bubleId } = await squad()
      await setRole(owner.token, bubleId, moderator.id, 'moderator', [])
      expect(await permissionsOf(owner.token, bubleId, moderator.id)).toEqual([])
      expect((await bubleOf(moderator.token, bubleId)).my_permissions).toEqual([])
      await setRole(owner.token, bubleId, moderator.id, 'moderator')
      expect(await permissionsOf(owner.token, bubleId, moderator.id)).toEqual(sorted(DEFAULTS.moderator))
    })

    test('a role and customPermissions in one call set both the role and exactly that list', async () => {
      const { owner, member, bubleId } = await squad()
      await setRole(owner.token, bubleId, member.id, 'moderator', ['create_polls'])
      const row = (await membersOf(owner.token, bubleId)).find((m) => m.user_id === member.id)!
      expect(row).toMatchObject({ role: 'moderator', permissions: ['create_polls'] })
    })

    test('granted permissions take effect and withdrawn ones stop: a member given invite_members invites, then cannot', async () => {
      const { owner, member, bubleId } = await squad()
      const makeInvite = () => h.call('POST', `/api/bubles/${bubleId}/invites`, { token: member.token, body: {} })
      expect((await makeInvite()).status).toBe(403)
      await setRole(owner.token, bubleId, member.id, 'member', [...DEFAULTS.member, 'invite_members'])
      expect((await makeInvite()).status).toBe(201)
      await setRole(owner.token, bubleId, member.id, 'member')
      expect((await makeInvite()).status).toBe(403)
    })

    test('whatever the owner’s row stores, the owner holds all thirteen', async () => {
      const { owner, member, bubleId } = await squad()
      // A transfer back and forth leaves the owner's row written by the transfer: still all thirteen.
      await expectStatus(await transfer(owner.token, bubleId, { newOwnerId: member.id }), 200)
      await expectStatus(await transfer(member.token, bubleId, { newOwnerId: owner.id }), 200)
      expect(await permissionsOf(owner.token, bubleId, owner.id)).toEqual(sorted(ALL_PERMISSIONS))
      expect(sorted((await bubleOf(owner.token, bubleId)).my_permissions)).toEqual(sorted(ALL_PERMISSIONS))
    })

    test('permissions never extend reach: a member holding everything an admin holds still manages nobody', async () => {
      const { owner, member, other, moderator, bubleId } = await squad()
      await setRole(owner.token, bubleId, member.id, 'member', DEFAULTS.admin)
      const before = await membersOf(owner.token, bubleId)
      await expectRefused(await changeRole(member.token, bubleId, { userId: other.id, role: 'moderator' }), 'reach')
      await expectRefused(
        await changeRole(member.token, bubleId, { userId: other.id, role: 'member', customPermissions: [] }),
        'reach',
      )
      await expectRefused(await remove(member.token, bubleId, { userId: other.id }), 'reach')
      await expectRefused(await remove(member.token, bubleId, { userId: moderator.id }), 'reach')
      expect(await membersOf(owner.token, bubleId)).toEqual(before)
      // What the list does grant, it grants: they may rename the buble.
      expect(
        (await h.call('PATCH', `/api/bubles/${bubleId}`, { token: member.token, body: { name: 'Renamed' } })).status,
      ).toBe(200)
    })
  })

  describe('nobody grants or withdraws what they do not hold', () => {
    test('an admin cannot grant delete_buble (403, nothing changes); the owner can', async () => {
      const { owner, admin, member, bubleId } = await squad()
      const before = await membersOf(owner.token, bubleId)
      const grant = { userId: member.id, role: 'member', customPermissions: [...DEFAULTS.member, 'delete_buble'] }
      await expectRefused(await changeRole(admin.token, bubleId, grant), 'rights', MEMBER_MESSAGES.grantNotHeld)
      await expectRefused(
        await changeRole(admin.token, bubleId, { userId: owner.id, role: 'owner', customPermissions: ALL_PERMISSIONS }),
        'owner-only',
      )
      expect(await membersOf(owner.token, bubleId)).toEqual(before)
      await expectStatus(await changeRole(owner.token, bubleId, grant), 200)
      expect(await permissionsOf(owner.token, bubleId, member.id)).toEqual(sorted(grant.customPermissions))
    })

    test('an admin cannot withdraw delete_buble either, by a custom list or by resetting the role; changes that leave it alone pass', async () => {
      const { owner, admin, member, bubleId } = await squad()
      await setRole(owner.token, bubleId, member.id, 'member', ['create_events', 'delete_buble'])
      const before = await membersOf(owner.token, bubleId)
      await expectRefused(
        await changeRole(admin.token, bubleId, {
          userId: member.id,
          role: 'member',
          customPermissions: ['create_events'],
        }),
        'rights',
        MEMBER_MESSAGES.grantNotHeld,
      )
      await expectRefused(
        await changeRole(admin.token, bubleId, { userId: member.id, role: 'member' }),
        'rights',
        MEMBER_MESSAGES.grantNotHeld,
      )
      await expectRefused(
        await changeRole(admin.token, bubleId, { userId: member.id, role: 'moderator' }),
        'rights',
        MEMBER_MESSAGES.grantNotHeld,
      )
      expect(await membersOf(owner.token, bubleId)).toEqual(before)
      // delete_buble kept, create_polls added: only what changes hands counts.
      await expectStatus(
        await changeRole(admin.token, bubleId, {
          userId: member.id,
          role: 'member',
          customPermissions: ['create_events', 'create_polls', 'delete_buble'],
        }),
        200,
      )
      expect(await permissionsOf(owner.token, bubleId, member.id)).toEqual([
        'create_events',
        'create_polls',
        'delete_buble',
      ])
    })

    test('an admin whose own list lacks manage_events cannot give a role whose defaults include it', async () => {
      const { owner, admin, member, bubleId } = await squad()
      await setRole(owner.token, bubleId, admin.id, 'admin', without(DEFAULTS.admin, 'manage_events'))
      const before = await membersOf(owner.token, bubleId)
      await expectRefused(
        await changeRole(admin.token, bubleId, { userId: member.id, role: 'moderator' }),
        'rights',
        MEMBER_MESSAGES.grantNotHeld,
      )
      await expectRefused(
        await changeRole(admin.token, bubleId, { userId: member.id, role: 'admin' }),
        'rights',
        MEMBER_MESSAGES.grantNotHeld,
      )
      expect(await membersOf(owner.token, bubleId)).toEqual(before)
      // A list without manage_events is theirs to give.
      await expectStatus(
        await changeRole(admin.token, bubleId, {
          userId: member.id,
          role: 'moderator',
          customPermissions: without(DEFAULTS.moderator, 'manage_events'),
        }),
        200,
      )
    })

    test('a moderator given manage_members edits a plain member’s list within what they hold, never beyond', async () => {
      const { owner, moderator, member, admin, bubleId } = await squad()
      await setRole(owner.token, bubleId, moderator.id, 'moderator', [...DEFAULTS.moderator, 'manage_members'])
      const before = await membersOf(owner.token, bubleId)
      await expectRefused(
        await changeRole(moderator.token, bubleId, {
          userId: member.id,
          role: 'member',
          customPermissions: [...DEFAULTS.member, 'manage_buble'],
        }),
        'rights',
        MEMBER_MESSAGES.grantNotHeld,
      )
      await expectRefused(
        await changeRole(moderator.token, bubleId, { userId: member.id, role: 'moderator', customPermissions: [] }),
        'role',
      )
      await expectRefused(
        await changeRole(moderator.token, bubleId, { userId: admin.id, role: 'admin', customPermissions: [] }),
        'reach',
      )
      expect(await membersOf(owner.token, bubleId)).toEqual(before)
      await expectStatus(
        await changeRole(moderator.token, bubleId, {
          userId: member.id,
          role: 'member',
          customPermissions: ['create_events', 'invite_members'],
        }),
        200,
      )
      expect(await permissionsOf(owner.token, bubleId, member.id)).toEqual(['create_events', 'invite_members'])
    })

    test('changing a role needs change_roles and sending customPermissions needs manage_members; a call doing both needs both', async () => {
      const { owner, admin, member, other, bubleId } = await squad()
      // No change_roles: only the list may change, and only with the same role.
      await setRole(owner.token, bubleId, admin.id, 'admin', without(DEFAULTS.admin, 'change_roles'))
      const noRoles = await membersOf(owner.token, bubleId)
      await expectRefused(
        await changeRole(admin.token, bubleId, { userId: member.id, role: 'moderator' }),
        'rights',
        MEMBER_MESSAGES.noChangeRoles,
      )
      await expectRefused(
        await changeRole(admin.token, bubleId, { userId: member.id, role: 'moderator', customPermissions: [] }),
        'rights',
        MEMBER_MESSAGES.noChangeRoles,
      )
      // Without customPermissions even the same role is a reset, which is a role change.
      await expectRefused(
        await changeRole(admin.token, bubleId, { userId: member.id, role: 'member' }),
        'rights',
        MEMBER_MESSAGES.noChangeRoles,
      )
      expect(await membersOf(owner.token, bubleId)).toEqual(noRoles)
      await expectStatus(
        await changeRole(admin.token, bubleId, {
          userId: member.id,
          role: 'member',
          customPermissions: ['create_polls'],
        }),
        200,
      )

      // No manage_members: roles may change, lists may not.
      await setRole(owner.token, bubleId, admin.id, 'admin', without(DEFAULTS.admin, 'manage_members'))
      const noMembers = await membersOf(owner.token, bubleId)
      await expectRefused(
        await changeRole(admin.token, bubleId, {
          userId: other.id,
          role: 'member',
          customPermissions: ['create_polls'],
        }),
        'rights',
        MEMBER_MESSAGES.noManageMembers,
      )
      await expectRefused(
        await changeRole(admin.token, bubleId, { userId: other.id, role: 'moderator', customPermissions: [] }),
        'rights',
        MEMBER_MESSAGES.noManageMembers,
      )
      expect(await membersOf(owner.token, bubleId)).toEqual(noMembers)
      await expectStatus(await changeRole(admin.token, bubleId, { userId: other.id, role: 'moderator' }), 200)
      expect((await membersOf(owner.token, bubleId)).find((m) => m.user_id === other.id)?.role).toBe('moderator')
    })

    test('removing needs remove_members: an admin or moderator without it is refused, even for a member they reach', async () => {
      const { owner, admin, moderator, member, bubleId } = await squad()
      await setRole(owner.token, bubleId, admin.id, 'admin', without(DEFAULTS.admin, 'remove_members'))
      await setRole(owner.token, bubleId, moderator.id, 'moderator', without(DEFAULTS.moderator, 'remove_members'))
      const before = await membersOf(owner.token, bubleId)
      await expectRefused(await remove(admin.token, bubleId, { userId: member.id }), 'rights', MEMBER_MESSAGES.noRemove)
      await expectRefused(
        await remove(moderator.token, bubleId, { userId: member.id }),
        'rights',
        MEMBER_MESSAGES.noRemove,
      )
      expect(await membersOf(owner.token, bubleId)).toEqual(before)
    })
  })

  describe('bad input changes nothing', () => {
    test.each([
      ['an unknown role', { role: 'superuser' }, 'role'],
      ['a missing role', { role: undefined }, 'role'],
      ['an unknown permission', { role: 'member', customPermissions: ['create_events', 'fly'] }, 'customPermissions.1'],
      [
        'customPermissions that is not a list',
        { role: 'member', customPermissions: 'create_events' },
        'customPermissions',
      ],
      ['a userId that is not a UUID', { role: 'member', userId: 'not-a-uuid' }, 'userId'],
      ['a missing userId', { role: 'member', userId: undefined }, 'userId'],
    ])('a role change with %s is a 400 VALIDATION_ERROR naming the field', async (_what, change, path) => {
      const { owner, member, bubleId } = await squad()
      const before = await membersOf(owner.token, bubleId)
      const res = await changeRole(owner.token, bubleId, { userId: member.id, ...change })
      const body = await expectError(res, 400, 'VALIDATION_ERROR')
      expect(body.issues[0].path).toBe(path)
      expect(body.message).toBe(body.issues[0].message)
      expect(await membersOf(owner.token, bubleId)).toEqual(before)
    })

    test('a userId that is not a member is a 404 "Member not found" for role changes and removal', async () => {
      const { owner, bubleId } = await squad()
      const stranger = await user('Stan Stranger')
      const before = await membersOf(owner.token, bubleId)
      for (const userId of [stranger.id, randomUUID()]) {
        expect(await (await changeRole(owner.token, bubleId, { userId, role: 'admin' })).json()).toEqual({
          message: MEMBER_NOT_FOUND,
          code: 'NOT_FOUND',
        })
        const removed = await remove(owner.token, bubleId, { userId })
        expect(removed.status).toBe(404)
        expect(await removed.json()).toEqual({ message: MEMBER_NOT_FOUND, code: 'NOT_FOUND' })
      }
      expect(await bubleIds(stranger.token)).toEqual([])
      expect(await membersOf(owner.token, bubleId)).toEqual(before)
    })

    test('demoting the owner is a 403, by the owner themselves or by an admin, and the owner stays', async () => {
      const { owner, admin, bubleId } = await squad()
      const before = await membersOf(owner.token, bubleId)
      for (const role of ['admin', 'moderator', 'member'])
        await expectRefused(await changeRole(owner.token, bubleId, { userId: owner.id, role }), 'self')
      for (const role of ['admin', 'member'])
        await expectRefused(await changeRole(admin.token, bubleId, { userId: owner.id, role }), 'reach')
      expect(await membersOf(owner.token, bubleId)).toEqual(before)
      expect((await bubleOf(admin.token, bubleId)).owner_id).toBe(owner.id)
    })

    test('removing oneself through remove is a 403 for every role; leaving is the way out', async () => {
      const { owner, admin, moderator, member, bubleId } = await squad()
      const before = await membersOf(owner.token, bubleId)
      for (const who of [owner, admin, moderator, member])
        await expectRefused(await remove(who.token, bubleId, { userId: who.id }), 'self')
      expect(await membersOf(owner.token, bubleId)).toEqual(before)
    })

    test('a removal with no userId, or one that is not a UUID, is a 400', async () => {
      const { owner, member, bubleId } = await squad()
      const before = await membersOf(owner.token, bubleId)
      for (const body of [{}, { userId: 'abc' }, { userId: 42 }]) {
        const res = await remove(owner.token, bubleId, body)
        expect((await expectError(res, 400, 'VALIDATION_ERROR')).issues[0].path).toBe('userId')
      }
      expect(await membersOf(owner.token, bubleId)).toEqual(before)
      expect(before.some((m) => m.user_id === member.id)).toBe(true)
    })

    test('a transfer to oneself is a 400, to a non-member a 404 "Member not found", to a non-UUID a 400', async () => {
      const { owner, bubleId } = await squad()
      const stranger = await user()
      const before = await membersOf(owner.token, bubleId)
      await expectRefused(await transfer(owner.token, bubleId, { newOwnerId: owner.id }), 'same')
      await expectRefused(await transfer(owner.token, bubleId, { newOwnerId: owner.id.toUpperCase() }), 'same')
      for (const newOwnerId of [stranger.id, randomUUID()]) {
        const res = await transfer(owner.token, bubleId, { newOwnerId })
        expect(res.status).toBe(404)
        expect(await res.json()).toEqual({ message: MEMBER_NOT_FOUND, code: 'NOT_FOUND' })
      }
      for (const body of [{}, { newOwnerId: 'me' }]) {
        const res = await transfer(owner.token, bubleId, body)
        expect((await expectError(res, 400, 'VALIDATION_ERROR')).issues[0].path).toBe('newOwnerId')
      }
      expect(await membersOf(owner.token, bubleId)).toEqual(before)
      expect((await bubleOf(owner.token, bubleId)).owner_id).toBe(owner.id)
    })

    test('an unknown buble, a non-UUID buble id, and a buble the caller left all answer 404 "Buble not found"', async () => {
      const { owner, member, other, bubleId, slug } = await squad()
      await expectStatus(await leave(other.token, bubleId, other.id), 204)
      const before = await membersOf(owner.token, bubleId)
      const notFound = { message: BUBLE_NOT_FOUND, code: 'NOT_FOUND' }
      for (const [token, id] of [
        [owner.token, randomUUID()],
        [owner.token, slug],
        [other.token, bubleId],
      ] as const) {
        for (const res of [
          await changeRole(token, id, { userId: member.id, role: 'admin' }),
          await remove(token, id, { userId: member.id }),
          await transfer(token, id, { newOwnerId: member.id }),
        ]) {
          expect(res.status).toBe(404)
          expect(await res.json()).toEqual(notFound)
        }
      }
      expect(await membersOf(owner.token, bubleId)).toEqual(before)
    })

    test('every membership call needs a token', async () => {
      const { owner, member, bubleId } = await squad()
      const before = await membersOf(owner.token, bubleId)
      for (const res of [
        await changeRole('', bubleId, { userId: member.id, role: 'admin' }),
        await remove('', bubleId, { userId: member.id }),
        await transfer('', bubleId, { newOwnerId: member.id }),
        await leave('', bubleId, member.id),
      ])
        await expectError(res, 401, 'UNAUTHORIZED')
      expect(await membersOf(owner.token, bubleId)).toEqual(before)
    })

    test('a userId in upper case names the same member', async () => {
      const { owner, member, bubleId } = await squad()
      const res = await setRole(owner.token, bubleId, member.id.toUpperCase(), 'moderator')
      expect((await res.json()).member).toMatchObject({ user_id: member.id, role: 'moderator' })
    })
  })

  describe('after a transfer', () => {
    test('the previous owner is a plain member with member defaults and the new owner holds all thirteen, everywhere', async () => {
      const { owner, admin, member, bubleId } = await squad()
      await expectStatus(await transfer(owner.token, bubleId, { newOwnerId: admin.id }), 200)
      const list = await membersOf(member.token, bubleId)
      expect(list[0]).toMatchObject({ user_id: admin.id, role: 'owner' })
      expect(sorted(list[0]!.permissions)).toEqual(sorted(ALL_PERMISSIONS))
      const previous = list.find((m) => m.user_id === owner.id)!
      expect(previous.role).toBe('member')
      expect(sorted(previous.permissions)).toEqual(sorted(DEFAULTS.member))
      expect(await bubleOf(member.token, bubleId)).toMatchObject({
        owner_id: admin.id,
        owner: { id: admin.id, name: admin.name, email: admin.email },
      })
      expect(sorted((await bubleOf(owner.token, bubleId)).my_permissions)).toEqual(sorted(DEFAULTS.member))
    })

    test('the previous owner may leave and manages no one; the new owner manages everyone and cannot leave', async () => {
      const { owner, admin, moderator, member, other, bubleId } = await squad()
      await expectStatus(await transfer(owner.token, bubleId, { newOwnerId: member.id }), 200)
      await expectRefused(await transfer(owner.token, bubleId, { newOwnerId: other.id }), 'owner-only')
      await expectRefused(await remove(owner.token, bubleId, { userId: other.id }), 'reach')
      await expectRefused(await leave(member.token, bubleId, member.id), 'stays')
      await expectStatus(await setRole(member.token, bubleId, moderator.id, 'admin'), 200)
      await expectStatus(await leave(owner.token, bubleId, owner.id), 204)
      expect(await bubleIds(owner.token)).not.toContain(bubleId)
      expect((await membersOf(member.token, bubleId)).map((m) => [m.user_id, m.role])).toEqual([
        [member.id, 'owner'],
        [admin.id, 'admin'],
        [moderator.id, 'admin'],
        [other.id, 'member'],
      ])
    })

    test('the role call with role owner is a transfer: the answer carries the new owner, the old owner is a member', async () => {
      const { owner, moderator, bubleId } = await squad()
      const res = await setRole(owner.token, bubleId, moderator.id, 'owner')
      const body = await res.json()
      expect(body.message).toBe(ROLE_UPDATED)
      expect(body.member).toMatchObject({ user_id: moderator.id, role: 'owner' })
      expect(sorted(body.member.permissions)).toEqual(sorted(ALL_PERMISSIONS))
      expect((await bubleOf(owner.token, bubleId)).my_role).toBe('member')
      expect((await bubleOf(owner.token, bubleId)).owner_id).toBe(moderator.id)
    })

    test('two transfers sent at once hand the buble to exactly one member; the other is refused', async () => {
      const { owner, admin, member, bubleId } = await squad()
      const answers = await Promise.all([
        transfer(owner.token, bubleId, { newOwnerId: admin.id }),
        transfer(owner.token, bubleId, { newOwnerId: member.id }),
      ])
      expect(answers.map((res) => res.status).sort()).toEqual([200, 403])
      const owners = (await membersOf(owner.token, bubleId)).filter((m) => m.role === 'owner')
      expect(owners).toHaveLength(1)
      const winner = answers[0]!.status === 200 ? admin : member
      expect(owners[0]!.user_id).toBe(winner.id)
      expect((await bubleOf(owner.token, bubleId)).owner_id).toBe(winner.id)
    })
  })

  describe('removal', () => {
    test('a removed member loses the buble everywhere and may come back with a new code', async () => {
      const { owner, admin, member, bubleId } = await squad()
      await expectStatus(await remove(admin.token, bubleId, { userId: member.id }), 200)
      expect(await bubleIds(member.token)).toEqual([])
      for (const res of [
        await getBuble(member.token, bubleId),
        await h.call('GET', `/api/bubles/${bubleId}/members`, { token: member.token }),
      ]) {
        expect(res.status).toBe(404)
        expect(await res.json()).toEqual({ message: BUBLE_NOT_FOUND, code: 'NOT_FOUND' })
      }
      expect((await bubleOf(owner.token, bubleId)).members.map((m: { id: string }) => m.id)).not.toContain(member.id)
      // Removing them again: they are not a member.
      const again = await remove(admin.token, bubleId, { userId: member.id })
      expect(again.status).toBe(404)
      expect(await again.json()).toEqual({ message: MEMBER_NOT_FOUND, code: 'NOT_FOUND' })
      await join(owner, member, bubleId)
      expect(await bubleOf(member.token, bubleId)).toMatchObject({ my_role: 'member' })
    })
  })
})
