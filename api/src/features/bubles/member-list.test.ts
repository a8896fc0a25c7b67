import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { backends } from '../../testing/databases.ts'
import { createHarness, type Harness } from '../../testing/harness.ts'
import { mutation, push } from '../../testing/sync.ts'

describe.each(backends())('the member list, kept in memory, on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
  })
  afterAll(() => h?.close())

  async function bubleWithMember() {
    const owner = await h.register({ name: 'Owner Olsson' })
    const member = await h.register({ name: 'Member Mattsson' })
    const buble = (await (
      await h.call('POST', '/api/bubles', { token: owner.token, body: { name: 'Listed' } })
    ).json()) as {
      id: string
    }
    const { code } = await (
      await h.call('POST', `/api/bubles/${buble.id}/invites`, { token: owner.token, body: {} })
    ).json()
    await h.call('POST', `/api/bubles/invites/${code}/accept`, { token: member.token })
    return { owner, member, bubleId: buble.id }
  }
  const list = (token: string, bubleId: string, etag?: string) =>
    h.call('GET', `/api/bubles/${bubleId}/members`, { token, headers: etag ? { 'if-none-match': etag } : {} })

  test('answers JSON with an ETag; the same ETag again is a 304 with no body', async () => {
    const { owner, bubleId } = await bubleWithMember()
    const first = await list(owner.token, bubleId)
    expect(first.status).toBe(200)
    expect(first.headers.get('content-type')).toMatch(/^application\/json/)
    expect(first.headers.get('cache-control')).toBe('private, no-cache')
    const etag = first.headers.get('etag')!
    expect((await first.json()).map((m: { user: { name: string } }) => m.user.name)).toEqual([
      'Owner Olsson',
      'Member Mattsson',
    ])
    const again = await list(owner.token, bubleId, etag)
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
  })

  test('a role change, a renamed member and a removal show at once, each with a new ETag', async () => {
    const { owner, member, bubleId } = await bubleWithMember()
    const before = (await list(owner.token, bubleId)).headers.get('etag')!
    await h.call('PUT', `/api/bubles/${bubleId}/members/role`, {
      token: owner.token,
      body: { userId: member.id, role: 'moderator' },
    })
    const promoted = await list(owner.token, bubleId, before)
    expect(promoted.status).toBe(200)
    expect((await promoted.json())[1]).toMatchObject({ user_id: member.id, role: 'moderator' })
    const afterRole = promoted.headers.get('etag')!
    expect(afterRole).not.toBe(before)

    await push(h, member.token, [mutation('profile.update', { name: 'Member Renamed' })])
    const renamed = await list(owner.token, bubleId, afterRole)
    expect(renamed.status).toBe(200)
    expect((await renamed.json())[1].user.name).toBe('Member Renamed')
  })

  test('someone removed is refused at once, though the list was just read for them', async () => {
    const { owner, member, bubleId } = await bubleWithMember()
    expect((await list(member.token, bubleId)).status).toBe(200)
    await h.call('DELETE', `/api/bubles/${bubleId}/members/remove`, { token: owner.token, body: { userId: member.id } })
    const after = await list(member.token, bubleId)
    expect(after.status).toBe(404)
    expect(await after.json()).toEqual({ code: 'NOT_FOUND', message: 'Buble not found' })
    const outsider = await h.register()
    expect((await list(outsider.token, bubleId)).status).toBe(404)
  })
})
