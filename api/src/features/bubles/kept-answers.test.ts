import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { bubles } from '../../db/schema.ts'
import { backends } from '../../testing/databases.ts'
import { createHarness, type Harness } from '../../testing/harness.ts'
import { mutation, push } from '../../testing/sync.ts'
import { bubleIdsOf, loadBuble, loadBubles } from './queries.ts'

describe.each(backends())('the buble answers, kept in memory, on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
  })
  afterAll(() => h?.close())

  /**
   * Runs a write and waits for its pokes to come back through NOTIFY: this process hears its own
   * pokes at commit and again then, and the echo forgets what was read in between.
   */
  async function echoed<T>(bubleId: string, write: () => Promise<T>): Promise<T> {
    let heard!: () => void
    const echo = new Promise<void>((resolve) => {
      heard = resolve
    })
    const stop = h.deps.bus.subscribe((event) => 'buble_id' in event && event.buble_id === bubleId && heard())
    try {
      const result = await write()
      await echo
      return result
    } finally {
      stop()
    }
  }

  async function bubleWithMember() {
    const owner = await h.register({ name: 'Owner Olsson' })
    const member = await h.register({ name: 'Member Mattsson' })
    const buble = (await (
      await h.call('POST', '/api/bubles', { token: owner.token, body: { name: 'Kept' } })
    ).json()) as { id: string; slug: string }
    const { code } = await (
      await h.call('POST', `/api/bubles/${buble.id}/invites`, { token: owner.token, body: {} })
    ).json()
    const joined = await echoed(buble.id, () =>
      h.call('POST', `/api/bubles/invites/${code}/accept`, { token: member.token }),
    )
    expect(joined.status).toBe(200)
    return { owner, member, buble }
  }
  const text = async (token: string, path: string) => {
    const res = await h.call('GET', path, { token })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    return res.text()
  }
  const listOf = async (token: string) => JSON.parse(await text(token, '/api/bubles'))
  const oneOf = async (token: string, idOrSlug: string) => JSON.parse(await text(token, `/api/bubles/${idOrSlug}`))

  test('the bytes are the answer as it was built on every request; read again, they come from memory', async () => {
    const { owner, buble } = await bubleWithMember()
    const db = h.database.db
    const built = JSON.stringify(await loadBubles(db, await bubleIdsOf(db, owner.id), owner.id))
    expect(await text(owner.token, '/api/bubles')).toBe(built)
    expect(await text(owner.token, `/api/bubles/${buble.id}`)).toBe(
      JSON.stringify(await loadBuble(db, buble.id, owner.id)),
    )
    // Changed behind the services' back, with no poke: what is kept is answered.
    await db.update(bubles).set({ name: 'Not through the API' }).where(eq(bubles.id, buble.id))
    expect((await listOf(owner.token))[0].name).toBe('Kept')
    expect((await oneOf(owner.token, buble.id.toUpperCase())).name).toBe('Kept')
    // The next poke of the buble forgets it.
    await h.call('PUT', `/api/bubles/${buble.id}/tools`, { token: owner.token, body: { enabled: [] } })
    expect((await listOf(owner.token))[0].name).toBe('Not through the API')
  })

  test('a rename, a role, a renamed member, a join and a leave each show at once', async () => {
    const { owner, member, buble } = await bubleWithMember()
    for (const token of [owner.token, member.token]) {
      await listOf(token)
      await oneOf(token, buble.id)
      await oneOf(token, buble.slug)
    }
    await h.call('PATCH', `/api/bubles/${buble.id}`, { token: owner.token, body: { name: 'Renamed' } })
    expect((await listOf(member.token))[0].name).toBe('Renamed')
    expect((await oneOf(member.token, buble.slug)).name).toBe('Renamed')

    await h.call('PUT', `/api/bubles/${buble.id}/members/role`, {
      token: owner.token,
      body: { userId: member.id, role: 'moderator' },
    })
    expect((await oneOf(member.token, buble.id)).my_role).toBe('moderator')
    expect((await listOf(member.token))[0].my_role).toBe('moderator')

    await push(h, member.token, [mutation('profile.update', { name: 'Member Renamed' })])
    const names = (await oneOf(owner.token, buble.id)).members.map((m: { name: string }) => m.name)
    expect(names).toContain('Member Renamed')

    const latecomer = await h.register({ name: 'Late Larsson' })
    expect(await listOf(latecomer.token)).toEqual([])
    expect((await h.call('GET', `/api/bubles/${buble.id}`, { token: latecomer.token })).status).toBe(404)
    const { code } = await (
      await h.call('POST', `/api/bubles/${buble.id}/invites`, { token: owner.token, body: {} })
    ).json()
    await h.call('POST', `/api/bubles/invites/${code}/accept`, { token: latecomer.token })
    expect((await listOf(latecomer.token)).map((b: { id: string }) => b.id)).toEqual([buble.id])
    expect((await oneOf(latecomer.token, buble.id)).member_count).toBe(3)
    expect((await listOf(owner.token))[0].member_count).toBe(3)

    expect(
      (await h.call('DELETE', `/api/bubles/${buble.id}/members/${member.id}`, { token: member.token })).status,
    ).toBe(204)
    expect(await listOf(member.token)).toEqual([])
    expect((await h.call('GET', `/api/bubles/${buble.id}`, { token: member.token })).status).toBe(404)
    expect((await oneOf(owner.token, buble.id)).member_count).toBe(2)
  })

  test("a platform admin's change of the owner's address shows at once", async () => {
    const { owner, member, buble } = await bubleWithMember()
    const admin = await h.register({ name: 'Platform Admin' })
    await h.database.db.execute(sql`update users set role = 'admin' where id = ${admin.id}::uuid`)
    expect((await oneOf(member.token, buble.id)).owner.email).toBe(owner.email)
    expect((await listOf(member.token))[0].owner.email).toBe(owner.email)
    const email = `moved-${Date.now()}@example.com`
    const res = await h.call('PUT', `/api/admin/users/${owner.id}`, { token: admin.token, body: { email } })
    expect(res.status).toBe(200)
    expect((await oneOf(member.token, buble.id)).owner.email).toBe(email)
    expect((await listOf(member.token))[0].owner.email).toBe(email)
  })

  test('a new buble of the viewer, and a deleted one, show at once', async () => {
    const { owner, member, buble } = await bubleWithMember()
    expect((await listOf(owner.token)).length).toBe(1)
    await h.call('POST', '/api/bubles', { token: owner.token, body: { name: 'Second' } })
    expect((await listOf(owner.token)).map((b: { name: string }) => b.name)).toEqual(['Second', 'Kept'])
    await oneOf(member.token, buble.id)
    expect((await h.call('DELETE', `/api/bubles/${buble.id}`, { token: owner.token })).status).toBe(204)
    expect(await listOf(member.token)).toEqual([])
    expect((await h.call('GET', `/api/bubles/${buble.id}`, { token: member.token })).status).toBe(404)
  })
})
