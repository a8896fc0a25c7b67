import { describe, expect, test } from 'vitest'
import { backends } from '../testing/databases.ts'
import { mutation, pullAll, push } from '../testing/sync.ts'
import { type Club, clubSuite, type Person } from '../testing/test-club.ts'

/**
 * Muting (issue 24 §2): who may mute whom, through REST and through sync, and what the member row
 * carries to every device. The outcomes are written out by hand, never computed from the rules.
 */

// Fixed texts, written out rather than imported.
const MUTED = 'Member muted'
const UNMUTED = 'Member unmuted'
const NOT_YOURSELF = 'You cannot mute yourself'
const NOT_REACHED = 'You cannot mute this member'
const NO_MODERATE = 'You are not allowed to mute members'
const INDEFINITELY = 'You are muted in this buble until a moderator unmutes you'

type Actor = 'owner' | 'admin' | 'moderator' | 'member' | 'outsider'
type Target = 'owner' | 'admin' | 'moderator' | 'member' | 'self'
const TARGETS: Target[] = ['owner', 'admin', 'moderator', 'member', 'self']
type Outcome = 'ok' | 'self' | 'reach' | 'gone'

// POST /api/bubles/:id/members/:userId/mute. The owner's column is the actor themselves when the actor is the owner.
//                        owner   admin   moderator member  self
const MUTE_TABLE: Record<Actor, string> = {
  owner: '        self    ok      ok        ok      self',
  admin: '        reach   ok      ok        ok      self',
  moderator: '    reach   reach   reach     ok      self',
  member: '       reach   reach   reach     reach   self',
  outsider: '     gone    gone    gone      gone    gone',
}
const muteCases = (Object.keys(MUTE_TABLE) as Actor[]).flatMap((actor) => {
  const row = MUTE_TABLE[actor].trim().split(/\s+/) as Outcome[]
  return TARGETS.map((target, i) => [actor, target, row[i]!] as const)
})

const refusal = (outcome: Exclude<Outcome, 'ok'>) =>
  outcome === 'gone'
    ? { status: 404, body: { message: 'Buble not found', code: 'NOT_FOUND' } }
    : { status: 403, body: { message: outcome === 'self' ? NOT_YOURSELF : NOT_REACHED, code: 'FORBIDDEN' } }

describe.each(backends())('muting on %s', (backend) => {
  const { h, club, call, join, person, setRole, expectStatus } = clubSuite(backend)
  let c: Club
  /** A second admin and moderator: the targets of their own role, apart from the actor. */
  const other = {} as Record<'admin' | 'moderator', Person>
  const HOUR = 3600_000

  const targetOf = (actor: Actor, target: Target): Person =>
    target === 'self'
      ? c[actor]
      : target === 'member'
        ? c.creator
        : target !== 'owner' && target === actor
          ? other[target]
          : c[target]
  const mute = (who: Person, target: Person, duration: string, bubleId = c.bubleId) =>
    call(who, 'POST', `/api/bubles/${bubleId}/members/${target.id}/mute`, { duration })
  const unmute = (who: Person, target: Person) =>
    call(who, 'DELETE', `/api/bubles/${c.bubleId}/members/${target.id}/mute`)
  const memberRow = async (who: Person, target: Person) =>
    (
      (await expectStatus(await call(who, 'GET', `/api/bubles/${c.bubleId}/members`), 200)) as { user_id: string }[]
    ).find((m) => m.user_id === target.id) as { user_id: string; muted_until?: string }

  test('the club is made', async () => {
    c = await club()
    for (const role of ['admin', 'moderator'] as const) {
      other[role] = await person(`other ${role}`)
      await join(c.owner, c.bubleId, other[role])
      await setRole(c.owner, c.bubleId, other[role], role)
    }
  })

  test.each(muteCases)('%s muting %s → %s', async (actor, target, outcome) => {
    const whom = targetOf(actor, target)
    const res = await mute(c[actor], whom, '1d')
    if (outcome !== 'ok') {
      expect({ status: res.status, body: await res.json() }).toEqual(refusal(outcome))
      if (actor !== 'outsider') expect((await memberRow(c.owner, whom)).muted_until).toBeUndefined()
      return
    }
    const end = new Date(h().clock.now.getTime() + 24 * HOUR).toISOString()
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 200,
      body: { message: MUTED, muted_until: end },
    })
    // Everyone's member list shows the end; unmuting takes it away.
    expect((await memberRow(c.member, whom)).muted_until).toBe(end)
    expect(await expectStatus(await unmute(c[actor], whom), 200)).toEqual({ message: UNMUTED, muted_until: null })
    expect((await memberRow(c.member, whom)).muted_until).toBeUndefined()
  })

  test('unmuting follows the same rules', async () => {
    await expectStatus(await mute(c.owner, c.admin, '1h'), 200)
    const refused = await unmute(c.moderator, c.admin)
    expect({ status: refused.status, body: await refused.json() }).toEqual(refusal('reach'))
    const outsider = await unmute(c.outsider, c.admin)
    expect(outsider.status).toBe(404)
    expect((await memberRow(c.owner, c.admin)).muted_until).toBeDefined()
    await expectStatus(await unmute(c.owner, c.admin), 200)
  })

  test('without moderate_content even a reached member is out of bounds; the owner holds it whatever is stored', async () => {
    const { moderator, creator } = c
    await setRole(c.owner, c.bubleId, moderator, 'moderator', ['remove_members', 'change_roles'])
    const res = await mute(moderator, creator, '1h')
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 403,
      body: { message: NO_MODERATE, code: 'FORBIDDEN' },
    })
    await setRole(c.owner, c.bubleId, moderator, 'moderator')
    await expectStatus(await mute(moderator, creator, '1h'), 200)
    await expectStatus(await unmute(moderator, creator), 200)
  })

  test('bad input: an unknown duration is 400, a member who is not there 404, a path id that is no UUID 404', async () => {
    const bad = await mute(c.owner, c.creator, '2h')
    expect(bad.status).toBe(400)
    expect((await bad.json()).code).toBe('VALIDATION_ERROR')
    const gone = await mute(c.owner, c.outsider, '1h')
    expect({ status: gone.status, body: await gone.json() }).toEqual({
      status: 404,
      body: { message: 'Member not found', code: 'NOT_FOUND' },
    })
    const noUuid = await call(c.owner, 'POST', `/api/bubles/${c.bubleId}/members/nobody/mute`, { duration: '1h' })
    expect(noUuid.status).toBe(404)
    const noBuble = await mute(c.owner, c.creator, '1h', 'not-a-buble')
    expect(noBuble.status).toBe(404)
  })

  test('member.mute and member.unmute through sync: the same rules, the same texts, and the row reaches the muted device', async () => {
    const { creator, member, moderator } = c
    const { cursor } = await pullAll(h(), creator.token)
    const [applied, refused] = await push(h(), moderator.token, [
      mutation('member.mute', { buble_id: c.bubleId, user_id: creator.id, duration: 'indefinite' }),
      mutation('member.mute', { buble_id: c.bubleId, user_id: c.admin.id, duration: '1h' }),
    ])
    expect(applied).toMatchObject({
      status: 'applied',
      data: { message: MUTED, muted_until: '9999-12-31T00:00:00.000Z' },
    })
    expect(refused).toMatchObject({ status: 'rejected', code: 'FORBIDDEN', message: NOT_REACHED })
    // The muted member's own device holds the row with the end: its banner works offline.
    const { changes } = await pullAll(h(), creator.token, cursor)
    expect(changes).toContainEqual(
      expect.objectContaining({
        entity: 'member',
        op: 'put',
        id: `${c.bubleId}:${creator.id}`,
        data: expect.objectContaining({ user_id: creator.id, muted_until: '9999-12-31T00:00:00.000Z' }),
      }),
    )
    // A mute without an end refuses with its own words.
    const post = await call(creator, 'POST', `/api/wall/${c.bubleId}/posts`, { content: 'hello' })
    expect({ status: post.status, body: await post.json() }).toEqual({
      status: 403,
      body: { message: INDEFINITELY, code: 'FORBIDDEN' },
    })
    const [self] = await push(h(), member.token, [
      mutation('member.unmute', { buble_id: c.bubleId, user_id: creator.id }),
    ])
    expect(self).toMatchObject({ status: 'rejected', code: 'FORBIDDEN', message: NOT_REACHED })
    const [unmuted] = await push(h(), moderator.token, [
      mutation('member.unmute', { buble_id: c.bubleId, user_id: creator.id }),
    ])
    expect(unmuted).toMatchObject({ status: 'applied', data: { message: UNMUTED, muted_until: null } })
    expect((await memberRow(creator, creator)).muted_until).toBeUndefined()
  })

  test('a mute in force is replaced by the next, and ends by itself: no job, now < muted_until', async () => {
    const { creator } = c
    await expectStatus(await mute(c.owner, creator, '1w'), 200)
    const { muted_until } = (await expectStatus(await mute(c.owner, creator, '1h'), 200)) as { muted_until: string }
    expect(muted_until).toBe(new Date(h().clock.now.getTime() + HOUR).toISOString())
    const path = `/api/wall/${c.bubleId}/posts`
    expect((await call(creator, 'POST', path, { content: 'too soon' })).status).toBe(403)
    h().clock.advance(HOUR - 1000)
    expect((await call(creator, 'POST', path, { content: 'still too soon' })).status).toBe(403)
    h().clock.advance(1000)
    expect((await call(creator, 'POST', path, { content: 'back' })).status).toBe(201)
  })
})
