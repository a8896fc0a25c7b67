/**
 * Test fixtures for events and polls: a buble with one member of every kind the permission rules
 * tell apart, made through the real calls (invites, role changes, custom permissions).
 */

import { v7 as uuidv7 } from 'uuid'
import { expect } from 'vitest'
import { users } from '../../db/schema.ts'
import { type Harness, type TestResponse, uniqueEmail } from '../../testing/harness.ts'

export type Person = { token: string; id: string; name: string }

export const ROLES = ['owner', 'admin', 'moderator', 'creator', 'member', 'manager', 'revoked', 'outsider'] as const
export type Who = (typeof ROLES)[number]
export type Club = Record<Who, Person> & { bubleId: string; bubleName: string }

export function clubKit(h: () => Harness) {
  let count = 0
  const person = async (name = `Member ${++count}`): Promise<Person> => {
    const { database, clock, deps } = h()
    const [row] = await database.db
      .insert(users)
      .values({ id: uuidv7(), name, email: uniqueEmail('events'), createdAt: clock.now, updatedAt: clock.now })
      .returning()
    return { id: row!.id, name, token: await deps.tokens.sign(row!) }
  }

  const call = (who: Person | undefined, method: string, path: string, body?: unknown): Promise<TestResponse> =>
    h().call(method, path, { token: who?.token, body })

  async function join(owner: Person, bubleId: string, joiner: Person): Promise<void> {
    const { code } = await (await call(owner, 'POST', `/api/bubles/${bubleId}/invites`, {})).json()
    expect((await call(joiner, 'POST', `/api/bubles/invites/${code}/accept`)).status).toBe(200)
  }

  async function setRole(owner: Person, bubleId: string, target: Person, role: string, customPermissions?: string[]) {
    const body = customPermissions ? { userId: target.id, role, customPermissions } : { userId: target.id, role }
    const res = await call(owner, 'PUT', `/api/bubles/${bubleId}/members/role`, body)
    expect(res.status, await res.clone().text()).toBe(200)
  }

  /**
   * owner; admin and moderator with their roles' defaults; creator and member, plain members (the
   * creator makes the content others try to change); manager, a member granted manage_events and
   * manage_polls; revoked, a member without create_events and create_polls; outsider, no member.
   */
  async function club(): Promise<Club> {
    const people = {} as Record<Who, Person>
    for (const who of ROLES) people[who] = await person(`${who} ${++count}`)
    const bubleName = `Club ${count}`
    const created = await call(people.owner, 'POST', '/api/bubles', { name: bubleName })
    expect(created.status).toBe(201)
    const bubleId = (await created.json()).id as string
    for (const who of ROLES) if (who !== 'owner' && who !== 'outsider') await join(people.owner, bubleId, people[who])
    await setRole(people.owner, bubleId, people.admin, 'admin')
    await setRole(people.owner, bubleId, people.moderator, 'moderator')
    await setRole(people.owner, bubleId, people.manager, 'member', [
      'create_events',
      'create_polls',
      'manage_events',
      'manage_polls',
    ])
    await setRole(people.owner, bubleId, people.revoked, 'member', [])
    return { ...people, bubleId, bubleName }
  }

  /** Answers `res`'s JSON after checking its status (the body is shown when it differs). */
  async function expectStatus(res: TestResponse, status: number) {
    expect(res.status, await res.clone().text()).toBe(status)
    return res.status === 204 ? null : res.json()
  }

  return { person, call, join, setRole, club, expectStatus }
}
