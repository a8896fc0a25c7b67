import type { Profile, User } from '@buble/shared/auth'
import type { Buble, Member, MemberRef } from '@buble/shared/bubles'
import type { CalendarSettings } from '@buble/shared/calendar'
import { type BubleRole, ROLE_DEFAULT_PERMISSIONS } from '@buble/shared/permissions'
import type { DeviceSession } from '@buble/shared/sessions'
import { INITIAL_TOOLS } from '@buble/shared/tools'
import type { ContentType } from '@buble/shared/unread'
import type { Change } from '@buble/sync/protocol'

export const alice: User = {
  id: '0190f5b4-0000-7000-8000-000000000001',
  name: 'Alice Example',
  email: 'alice@example.com',
  email_verified: true,
  role: 'user',
  bio: null,
  avatar_url: null,
  created_at: '2025-01-15T10:00:00.000Z',
}

export const aliceProfile: Profile = {
  ...alice,
  deletion: { deletion_requested: false, deletion_scheduled_for: null, days_remaining: null, hours_remaining: null },
}

/** Alice's calendar settings, as `GET /api/users/calendar` answers them (the profile's Calendar section). */
export const aliceCalendar: CalendarSettings = {
  reminder: '1h',
  feed_url: 'webcal://buble.test/api/calendar/x.ics',
  feed_http_url: 'http://buble.test/api/calendar/x.ics',
}

export const bob: User = {
  ...alice,
  id: '0190f5b4-0000-7000-8000-000000000002',
  name: 'Bob Builder',
  email: 'bob@example.com',
}

/** A person as member lists show them; ids follow from the name, so the same name is the same person. */
export function person(name: string, avatar_url: string | null = null): MemberRef {
  const known = [alice, bob].find((user) => user.name === name)
  const n = [...name].reduce((sum, char) => sum * 31 + char.charCodeAt(0), 7) % 1e12
  return { id: known?.id ?? `0190f5b4-2000-7000-8000-${String(n).padStart(12, '0')}`, name, avatar_url }
}

const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

let bubleCount = 0

/** A buble as the server sends it; by default Alice owns it alone. */
export function makeBuble(overrides: Partial<Buble> = {}): Buble {
  bubleCount += 1
  const name = overrides.name ?? `Buble ${bubleCount}`
  const members = overrides.members ?? [person(alice.name)]
  return {
    id: `0190f5b4-1000-7000-8000-${String(bubleCount).padStart(12, '0')}`,
    slug: slugOf(name),
    name,
    created_at: '2026-11-23T10:00:00.000Z',
    owner_id: alice.id,
    owner: { id: alice.id, name: alice.name, email: alice.email },
    member_count: members.length,
    members,
    my_role: 'owner',
    my_permissions: [...ROLE_DEFAULT_PERMISSIONS.owner],
    tools: [...INITIAL_TOOLS],
    ...overrides,
  }
}

/** What makes a buble someone else's, with Alice a plain member of it. */
export const ownedBy = (owner: User): Partial<Buble> => ({
  owner_id: owner.id,
  owner: { id: owner.id, name: owner.name, email: owner.email },
  my_role: 'member',
  my_permissions: [...ROLE_DEFAULT_PERMISSIONS.member],
})

export function makeMember(
  user: Pick<User, 'id' | 'name' | 'email'> & { avatar_url?: string | null },
  role: BubleRole = 'member',
  joined_at = '2026-11-23T10:00:00.000Z',
): Member {
  return {
    user_id: user.id,
    role,
    permissions: [...ROLE_DEFAULT_PERMISSIONS[role]],
    joined_at,
    user: { name: user.name, email: user.email, avatar_url: user.avatar_url ?? null },
  }
}

export const bubleChange = (buble: Buble): Change => ({
  entity: 'buble',
  op: 'put',
  id: buble.id,
  buble_id: buble.id,
  data: buble,
})

export const memberChange = (bubleId: string, member: Member): Change => ({
  entity: 'member',
  op: 'put',
  id: `${bubleId}:${member.user_id}`,
  buble_id: bubleId,
  data: member,
})

export const unreadChange = (bubleId: string, contentType: ContentType, unreadCount: number): Change => ({
  entity: 'unread',
  op: 'put',
  id: `${bubleId}:${contentType}`,
  buble_id: bubleId,
  data: { contentType, unreadCount },
})

/** A synced row as a pull brings it. */
export const putChange = (entity: Change['entity'], row: { id: string; buble_id: string }): Change => ({
  entity,
  op: 'put',
  id: row.id,
  buble_id: row.buble_id,
  data: row,
})

/** Alice's sessions: this device, and a phone signed in elsewhere (issue 24 §4). */
export const aliceSessions: DeviceSession[] = [
  {
    id: '0190a5b2-0000-7000-8000-0000000000a1',
    device: 'Windows',
    browser: 'Chrome',
    place: null,
    created_at: '2026-11-20T09:00:00.000Z',
    last_used_at: new Date().toISOString(),
    current: true,
  },
  {
    id: '0190a5b2-0000-7000-8000-0000000000a2',
    device: 'iPhone',
    browser: 'Safari',
    place: 'Stockholm, SE',
    created_at: '2026-11-18T09:00:00.000Z',
    last_used_at: new Date(Date.now() - 3 * 60 * 60 * 1000).toISOString(),
    current: false,
  },
]
