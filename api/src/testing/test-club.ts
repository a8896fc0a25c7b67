/**
 * Test fixtures for events and polls: a buble with one member of every kind the permission rules
 * tell apart, made through the real calls (invites, role changes, custom permissions).
 */

import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, expect } from 'vitest'
import { users } from '../db/schema.ts'
import type { Backend } from './databases.ts'
import { createHarness, type Harness, type TestResponse, uniqueEmail } from './harness.ts'

export type Person = { token: string; id: string; name: string }

export const ROLES = ['owner', 'admin', 'moderator', 'creator', 'member', 'manager', 'revoked', 'outsider'] as const
export type Who = (typeof ROLES)[number]
export type Club = Record<Who, Person> & { bubleId: string; bubleName: string }

/** Creating an event or a poll: [who, status]; the creator row does not apply to creating. */
export const CREATE_MATRIX: [Who, number][] = [
  ['owner', 201],
  ['admin', 201],
  ['moderator', 201],
  ['member', 201],
  ['manager', 201],
  ['revoked', 403],
  ['outsider', 404],
]

/** Editing the creator's event or poll: [who, status]. */
export const EDIT_MATRIX: [Who, number][] = [
  ['creator', 200],
  ['owner', 200],
  ['admin', 200],
  ['moderator', 200],
  ['manager', 200],
  ['member', 403],
  ['revoked', 403],
  ['outsider', 404],
]

/** Deleting it: the same people as editing, 204 where editing is 200. */
export const DELETE_MATRIX = EDIT_MATRIX.map(([who, status]): [Who, number] => [who, status === 200 ? 204 : status])

/** A harness of its own (rate limits off) for the `describe` this is called in, and the club kit over it. */
export function clubSuite(backend: Backend) {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
  })
  afterAll(() => h?.close())
  return { h: () => h, ...clubKit(() => h) }
}

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

  /** Each call answers `who` a 404 NOT_FOUND (a failure names the path). */
  async function expectNotFound(who: Person, calls: [method: string, path: string, body?: unknown][]) {
    for (const [method, path, body] of calls) {
      const res = await call(who, method, path, body)
      expect({ path, status: res.status, code: (await res.json()).code }).toEqual({
        path,
        status: 404,
        code: 'NOT_FOUND',
      })
    }
  }

  /** Answers `res`'s JSON after checking its status (the body is shown when it differs). */
  async function expectStatus(res: TestResponse, status: number) {
    expect(res.status, await res.clone().text()).toBe(status)
    return res.status === 204 ? null : res.json()
  }

  return { person, call, join, setRole, club, expectStatus, expectNotFound }
}
