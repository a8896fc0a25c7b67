import { describe, expect, test } from 'vitest'
import {
  assignableRoles,
  BUBLE_ACTIONS,
  BUBLE_ROLES,
  type BubleAction,
  type BubleRole,
  CONTENT_ACTIONS,
  CONTENT_KINDS,
  type ContentAction,
  type ContentKind,
  can,
  canMute,
  effectivePermissions,
  MEMBER_ACTIONS,
  type MemberAction,
  type MemberActor,
  mayGrant,
  mayManageContent,
  mayOnContent,
  PERMISSIONS,
  ROLE_DEFAULT_PERMISSIONS,
  refuseMemberUpdate,
} from './permissions.ts'

/**
 * The expectations are written out by hand from CONTRACT §4, as tables: a rule change is a
 * one-cell diff here. Y allowed, n refused.
 */

type Profile = 'defaults' | 'all thirteen' | 'none'
const PROFILES: Profile[] = ['defaults', 'all thirteen', 'none']
const actorOf = (role: BubleRole, profile: Profile): MemberActor => ({
  userId: `actor-${role}`,
  role,
  permissions: profile === 'defaults' ? ROLE_DEFAULT_PERMISSIONS[role] : profile === 'all thirteen' ? PERMISSIONS : [],
})

// ---- actions on the buble ---------------------------------------------------------------------

// Columns: buble.delete buble.rename buble.leave invite.create tools.manage ownership.transfer content.deleteOthers
//          event.create event.manageOthers poll.create poll.manageOthers post.pin
const BUBLE_TABLE: Record<Profile, Record<BubleRole, string>> = {
  defaults: {
    owner: 'Y Y n Y Y Y Y  Y Y Y Y  Y',
    admin: 'n Y Y Y n n Y  Y Y Y Y  Y',
    moderator: 'n n Y Y n n Y  Y Y Y Y  n',
    member: 'n n Y n n n n  Y n Y n  n',
  },
  'all thirteen': {
    owner: 'Y Y n Y Y Y Y  Y Y Y Y  Y',
    admin: 'Y Y Y Y n n Y  Y Y Y Y  Y',
    moderator: 'Y Y Y Y n n Y  Y Y Y Y  Y',
    member: 'Y Y Y Y n n Y  Y Y Y Y  Y',
  },
  // The owner holds all thirteen whatever is stored.
  none: {
    owner: 'Y Y n Y Y Y Y  Y Y Y Y  Y',
    admin: 'n n Y n n n n  n n n n  n',
    moderator: 'n n Y n n n n  n n n n  n',
    member: 'n n Y n n n n  n n n n  n',
  },
}

const bubleCases = PROFILES.flatMap((profile) =>
  BUBLE_ROLES.flatMap((role) => {
    const cells = BUBLE_TABLE[profile][role].split(/ +/)
    return BUBLE_ACTIONS.map((action, i) => [profile, role, action, cells[i] === 'Y'] as const)
  }),
)

describe('actions on the buble', () => {
  test('the table covers every role, action and profile', () => {
    expect(bubleCases).toHaveLength(PROFILES.length * BUBLE_ROLES.length * BUBLE_ACTIONS.length)
  })

  test.each(bubleCases)('with %s permissions, %s: %s → %s', (profile, role, action, allowed) => {
    expect(can(actorOf(role, profile), action as BubleAction)).toBe(allowed)
  })
})

// Issue 23 §5: pinning takes manage_buble or pin_posts, whatever the role.
describe('pinning posts', () => {
  test.each([
    ['member', ['pin_posts'], true],
    ['member', ['manage_buble'], true],
    ['member', ['create_events', 'create_polls'], false],
    ['member', ['delete_others_content', 'moderate_content'], false],
    ['moderator', ['pin_posts'], true],
    ['moderator', ['moderate_content'], false],
    ['admin', ['manage_buble'], true],
    ['admin', [], false],
    ['owner', [], true],
  ] as const)('a %s holding %j may pin → %s', (role, permissions, allowed) => {
    expect(can({ userId: 'u', role, permissions }, 'post.pin')).toBe(allowed)
  })
})

// ---- actions aimed at another member ----------------------------------------------------------

const TARGETS = ['owner', 'admin', 'moderator', 'member', 'self'] as const
type TargetKind = (typeof TARGETS)[number]

// For each action, columns: owner admin moderator member self.
const MEMBER_TABLE: Record<Profile, Record<BubleRole, Record<MemberAction, string>>> = {
  defaults: {
    owner: {
      'member.changeRole': 'n Y Y Y n',
      'member.changePermissions': 'n Y Y Y n',
      'member.remove': 'n Y Y Y n',
      'ownership.transferTo': 'n Y Y Y n',
    },
    admin: {
      'member.changeRole': 'n Y Y Y n',
      'member.changePermissions': 'n Y Y Y n',
      'member.remove': 'n Y Y Y n',
      'ownership.transferTo': 'n n n n n',
    },
    // A moderator's defaults hold change_roles and remove_members, not manage_members.
    moderator: {
      'member.changeRole': 'n n n Y n',
      'member.changePermissions': 'n n n n n',
      'member.remove': 'n n n Y n',
      'ownership.transferTo': 'n n n n n',
    },
    member: {
      'member.changeRole': 'n n n n n',
      'member.changePermissions': 'n n n n n',
      'member.remove': 'n n n n n',
      'ownership.transferTo': 'n n n n n',
    },
  },
  // Permissions never extend a role's reach.
  'all thirteen': {
    owner: {
      'member.changeRole': 'n Y Y Y n',
      'member.changePermissions': 'n Y Y Y n',
      'member.remove': 'n Y Y Y n',
      'ownership.transferTo': 'n Y Y Y n',
    },
    admin: {
      'member.changeRole': 'n Y Y Y n',
      'member.changePermissions': 'n Y Y Y n',
      'member.remove': 'n Y Y Y n',
      'ownership.transferTo': 'n n n n n',
    },
    moderator: {
      'member.changeRole': 'n n n Y n',
      'member.changePermissions': 'n n n Y n',
      'member.remove': 'n n n Y n',
      'ownership.transferTo': 'n n n n n',
    },
    member: {
      'member.changeRole': 'n n n n n',
      'member.changePermissions': 'n n n n n',
      'member.remove': 'n n n n n',
      'ownership.transferTo': 'n n n n n',
    },
  },
  // And reach without the permission is nothing, except for the owner, who holds all thirteen.
  none: {
    owner: {
      'member.changeRole': 'n Y Y Y n',
      'member.changePermissions': 'n Y Y Y n',
      'member.remove': 'n Y Y Y n',
      'ownership.transferTo': 'n Y Y Y n',
    },
    admin: {
      'member.changeRole': 'n n n n n',
      'member.changePermissions': 'n n n n n',
      'member.remove': 'n n n n n',
      'ownership.transferTo': 'n n n n n',
    },
    moderator: {
      'member.changeRole': 'n n n n n',
      'member.changePermissions': 'n n n n n',
      'member.remove': 'n n n n n',
      'ownership.transferTo': 'n n n n n',
    },
    member: {
      'member.changeRole': 'n n n n n',
      'member.changePermissions': 'n n n n n',
      'member.remove': 'n n n n n',
      'ownership.transferTo': 'n n n n n',
    },
  },
}

const targetOf = (actor: MemberActor, kind: TargetKind) =>
  kind === 'self' ? { userId: actor.userId!, role: actor.role } : { userId: `target-${kind}`, role: kind as BubleRole }

const memberCases = PROFILES.flatMap((profile) =>
  BUBLE_ROLES.flatMap((role) =>
    MEMBER_ACTIONS.flatMap((action) => {
      const cells = MEMBER_TABLE[profile][role][action].split(' ')
      return TARGETS.map((target, i) => [profile, role, action, target, cells[i] === 'Y'] as const)
    }),
  ),
)

describe('actions aimed at another member', () => {
  test('the table covers every role, action, target and profile', () => {
    expect(memberCases).toHaveLength(PROFILES.length * BUBLE_ROLES.length * MEMBER_ACTIONS.length * TARGETS.length)
  })

  test.each(memberCases)('with %s permissions, %s: %s on %s → %s', (profile, role, action, target, allowed) => {
    const actor = actorOf(role, profile)
    expect(can(actor, action as MemberAction, targetOf(actor, target))).toBe(allowed)
  })
})

// ---- muting (issue 24 §2) ---------------------------------------------------------------------

// Columns: owner admin moderator member self. moderate_content plus the reach of removal.
const MUTE_TABLE: Record<Profile, Record<BubleRole, string>> = {
  defaults: {
    owner: 'n Y Y Y n',
    admin: 'n Y Y Y n',
    moderator: 'n n n Y n',
    member: 'n n n n n',
  },
  // moderate_content never extends a role's reach.
  'all thirteen': {
    owner: 'n Y Y Y n',
    admin: 'n Y Y Y n',
    moderator: 'n n n Y n',
    member: 'n n n n n',
  },
  // Without moderate_content nobody mutes, except the owner, who holds it whatever is stored.
  none: {
    owner: 'n Y Y Y n',
    admin: 'n n n n n',
    moderator: 'n n n n n',
    member: 'n n n n n',
  },
}

const muteCases = PROFILES.flatMap((profile) =>
  BUBLE_ROLES.flatMap((role) => {
    const cells = MUTE_TABLE[profile][role].split(' ')
    return TARGETS.map((target, i) => [profile, role, target, cells[i] === 'Y'] as const)
  }),
)

describe('muting a member', () => {
  test('the table covers every role, target and profile', () => {
    expect(muteCases).toHaveLength(PROFILES.length * BUBLE_ROLES.length * TARGETS.length)
  })

  test.each(muteCases)('with %s permissions, %s muting %s → %s', (profile, role, target, allowed) => {
    const actor = actorOf(role, profile)
    expect(canMute(actor, targetOf(actor, target))).toBe(allowed)
  })

  test.each([
    ['admin', ['moderate_content'], 'admin', true],
    ['admin', ['remove_members', 'delete_others_content'], 'member', false],
    ['moderator', ['moderate_content'], 'member', true],
    ['moderator', ['moderate_content'], 'moderator', false],
    ['member', ['moderate_content'], 'member', false],
  ] as const)('a %s holding only %j muting a %s → %s', (role, permissions, targetRole, allowed) => {
    expect(canMute({ userId: 'a', role, permissions }, { userId: 't', role: targetRole })).toBe(allowed)
  })
})

// ---- which roles may be given -----------------------------------------------------------------

describe('assignable roles', () => {
  test.each([
    ['owner', 'defaults', ['admin', 'moderator', 'member']],
    ['admin', 'defaults', ['admin', 'moderator', 'member']],
    ['moderator', 'defaults', ['member']],
    ['member', 'defaults', []],
    ['member', 'all thirteen', []],
    ['moderator', 'all thirteen', ['member']],
    ['admin', 'none', []],
    ['owner', 'none', ['admin', 'moderator', 'member']],
  ] as const)('%s with %s permissions may give %j', (role, profile, roles) => {
    expect(assignableRoles(actorOf(role, profile))).toEqual(roles)
  })
})

// ---- a role and permission change, as the server checks it ------------------------------------

// Rows: actor; columns: the role asked for (owner admin moderator member), for each target role
// (owner admin moderator member), without custom permissions (the new role's defaults apply).
// Cells: '.' allowed, R not reached, C no change_roles, A role not assignable, G grants a
// permission the actor does not hold.
const ROLE_CHANGE_TABLE: Record<BubleRole, Record<BubleRole, string>> = {
  owner: { owner: 'R R R R', admin: 'A . . .', moderator: 'A . . .', member: 'A . . .' },
  admin: { owner: 'R R R R', admin: 'A . . .', moderator: 'A . . .', member: 'A . . .' },
  moderator: { owner: 'R R R R', admin: 'R R R R', moderator: 'R R R R', member: 'A A A .' },
  member: { owner: 'R R R R', admin: 'R R R R', moderator: 'R R R R', member: 'R R R R' },
}
const CODE = {
  '.': null,
  R: 'not-reached',
  C: 'no-change-roles',
  A: 'role-not-assignable',
  G: 'grant-not-held',
} as const

const roleChangeCases = BUBLE_ROLES.flatMap((actorRole) =>
  BUBLE_ROLES.flatMap((targetRole) => {
    const cells = ROLE_CHANGE_TABLE[actorRole][targetRole].split(' ') as (keyof typeof CODE)[]
    return BUBLE_ROLES.map((asked, i) => [actorRole, targetRole, asked, CODE[cells[i]!]] as const)
  }),
)

describe("a role change with the new role's defaults", () => {
  test.each(roleChangeCases)('%s making a %s into %s → %s', (actorRole, targetRole, asked, refusal) => {
    const actor = actorOf(actorRole, 'defaults')
    const target = { userId: 'target', role: targetRole, permissions: ROLE_DEFAULT_PERMISSIONS[targetRole] }
    expect(refuseMemberUpdate(actor, target, { role: asked })).toBe(refusal)
  })
})

describe('custom permissions', () => {
  const member = { userId: 'target', role: 'member' as const, permissions: ROLE_DEFAULT_PERMISSIONS.member }

  test('changing them needs manage_members, and changing the role as well needs change_roles too', () => {
    const changeRolesOnly: MemberActor = { userId: 'a', role: 'admin', permissions: ['change_roles', 'create_polls'] }
    expect(refuseMemberUpdate(changeRolesOnly, member, { role: 'member', customPermissions: ['create_polls'] })).toBe(
      'no-manage-members',
    )
    const manageOnly: MemberActor = {
      userId: 'a',
      role: 'admin',
      permissions: ['manage_members', 'create_events', 'create_polls'],
    }
    expect(refuseMemberUpdate(manageOnly, member, { role: 'member', customPermissions: ['create_polls'] })).toBeNull()
    expect(refuseMemberUpdate(manageOnly, member, { role: 'moderator', customPermissions: ['create_polls'] })).toBe(
      'no-change-roles',
    )
  })

  test('nobody grants, or takes away, a permission they do not hold; the owner holds them all', () => {
    const admin = actorOf('admin', 'defaults')
    expect(refuseMemberUpdate(admin, member, { role: 'member', customPermissions: ['delete_buble'] })).toBe(
      'grant-not-held',
    )
    const keeper = { ...member, permissions: ['create_polls', 'delete_buble'] }
    // Keeping what the target already has is not granting it.
    expect(refuseMemberUpdate(admin, keeper, { role: 'member', customPermissions: ['delete_buble'] })).toBeNull()
    expect(refuseMemberUpdate(admin, keeper, { role: 'member', customPermissions: ['create_polls'] })).toBe(
      'grant-not-held',
    )
    const owner = actorOf('owner', 'none')
    expect(refuseMemberUpdate(owner, member, { role: 'admin', customPermissions: [...PERMISSIONS] })).toBeNull()
  })

  test("a role's defaults count as granted: an admin without manage_events cannot make a moderator", () => {
    const thin: MemberActor = {
      userId: 'a',
      role: 'admin',
      permissions: ROLE_DEFAULT_PERMISSIONS.admin.filter((p) => p !== 'manage_events'),
    }
    expect(refuseMemberUpdate(thin, member, { role: 'moderator' })).toBe('grant-not-held')
    expect(refuseMemberUpdate(thin, member, { role: 'moderator', customPermissions: ['create_polls'] })).toBeNull()
  })
})

describe('defaults and effective permissions', () => {
  test('each role starts with the defaults of CONTRACT §4', () => {
    expect(ROLE_DEFAULT_PERMISSIONS.owner).toHaveLength(13)
    expect(ROLE_DEFAULT_PERMISSIONS.admin).toHaveLength(12)
    expect(ROLE_DEFAULT_PERMISSIONS.admin).toContain('pin_posts')
    expect(ROLE_DEFAULT_PERMISSIONS.admin).not.toContain('delete_buble')
    expect([...ROLE_DEFAULT_PERMISSIONS.moderator].sort()).toEqual(
      [
        'invite_members',
        'change_roles',
        'remove_members',
        'manage_events',
        'manage_polls',
        'create_events',
        'create_polls',
        'moderate_content',
        'delete_others_content',
      ].sort(),
    )
    expect(ROLE_DEFAULT_PERMISSIONS.member).toEqual(['create_events', 'create_polls'])
  })

  test('the owner holds all thirteen whatever is stored; others hold what is stored, in a fixed order', () => {
    expect(effectivePermissions({ role: 'owner', permissions: [] })).toEqual([...PERMISSIONS])
    expect(effectivePermissions({ role: 'member', permissions: ['create_polls', 'bogus', 'create_events'] })).toEqual([
      'create_events',
      'create_polls',
    ])
    expect(mayGrant({ role: 'member', permissions: ['create_polls'] }, 'create_polls')).toBe(true)
    expect(mayGrant({ role: 'member', permissions: ['create_polls'] }, 'create_events')).toBe(false)
  })
})

// ---- content rules ----------------------------------------------------------------------------

// Who acts on content, in column order: its author (a member with defaults), then on someone
// else's: a member, a moderator, an admin, the owner (defaults each), and an admin holding none.
const CONTENT_ACTORS: MemberActor[] = [
  { ...actorOf('member', 'defaults'), userId: 'author' },
  actorOf('member', 'defaults'),
  actorOf('moderator', 'defaults'),
  actorOf('admin', 'defaults'),
  actorOf('owner', 'defaults'),
  actorOf('admin', 'none'),
]
const CONTENT_TABLE: Record<ContentKind, Record<ContentAction, string>> = {
  post: { 'content.edit': 'Y n n n n n', 'content.delete': 'Y n Y Y Y n' },
  comment: { 'content.edit': 'Y n n n n n', 'content.delete': 'Y n Y Y Y n' },
  chat_message: { 'content.edit': 'Y n n n n n', 'content.delete': 'Y n Y Y Y n' },
  story: { 'content.edit': 'n n n n n n', 'content.delete': 'Y n Y Y Y n' },
  event: { 'content.edit': 'Y n Y Y Y n', 'content.delete': 'Y n Y Y Y n' },
  poll: { 'content.edit': 'Y n Y Y Y n', 'content.delete': 'Y n Y Y Y n' },
}
const contentCases = CONTENT_KINDS.flatMap((kind) =>
  CONTENT_ACTIONS.flatMap((action) => {
    const cells = CONTENT_TABLE[kind][action].split(/ +/)
    return CONTENT_ACTORS.map((_, i) => [kind, action, i, cells[i] === 'Y'] as const)
  }),
)

describe('content rules', () => {
  test('the table covers every kind, action and actor', () => {
    expect(contentCases).toHaveLength(CONTENT_KINDS.length * CONTENT_ACTIONS.length * CONTENT_ACTORS.length)
  })

  test.each(contentCases)('%s, %s by actor %i → %s', (kind, action, i, allowed) => {
    expect(mayOnContent(CONTENT_ACTORS[i]!, action, { kind, authorId: 'author' })).toBe(allowed)
  })

  test('events and polls: managing is editing', () => {
    for (const actor of CONTENT_ACTORS)
      for (const kind of ['event', 'poll'] as const)
        expect(mayManageContent(actor, kind, 'author')).toBe(
          mayOnContent(actor, 'content.edit', { kind, authorId: 'author' }),
        )
  })
})
