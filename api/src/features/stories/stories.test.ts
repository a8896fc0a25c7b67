import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { backends } from '../../testing/databases.ts'
import { createHarness, type Harness } from '../../testing/harness.ts'
import { pullAll } from '../../testing/sync.ts'
import { clubKit, type Person } from '../../testing/test-club.ts'

/** Stories (CONTRACT §3.3): made from an upload into the buble, listed and synced for 24 hours, then removed by a job. */

describe.each(backends())('stories on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
  })
  afterAll(() => h?.close())
  const { club, expectStatus } = clubKit(() => h)

  const upload = async (who: Person, bubleId: string, route: 'image' | 'story', bytes: Buffer, name: string) => {
    const form = new FormData()
    form.set('buble_id', bubleId)
    form.set('file', new Blob([new Uint8Array(bytes)]), name)
    return h.app.request(`/api/uploads/${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${who.token}` },
      body: form,
    })
  }
  const png = () =>
    sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer()

  test('stories: created from an upload, listed until 24 h, then the job removes them, their file, and devices get del', async () => {
    const { member: alice, moderator: bob, outsider, bubleId } = await club()
    const up = await upload(alice, bubleId, 'story', await png(), 'story.png')
    expect(up.status).toBe(201)
    const { url } = (await up.json()) as { url: string }
    const cursor = (await pullAll(h, bob.token)).cursor
    const res = await h.call('POST', '/api/stories', {
      token: alice.token,
      body: { buble_id: bubleId, media_url: url, media_type: 'image', duration_seconds: 7 },
    })
    expect(res.status).toBe(201)
    const story = await res.json()
    expect(story).toEqual({
      id: story.id,
      buble_id: bubleId,
      media_url: url,
      media_type: 'image',
      author: { id: alice.id, name: alice.name, avatar_url: null },
      duration_seconds: 7,
      created_at: h.clock.now.toISOString(),
      expires_at: new Date(h.clock.now.getTime() + 24 * 3600 * 1000).toISOString(),
    })
    const wrongType = await h.call('POST', '/api/stories', {
      token: alice.token,
      body: { buble_id: bubleId, media_url: url, media_type: 'video', duration_seconds: 7 },
    })
    expect(wrongType.status).toBe(400)
    const outside = await h.call('POST', '/api/stories', {
      token: outsider.token,
      body: { buble_id: bubleId, media_url: url, media_type: 'image' },
    })
    expect(outside.status).toBe(404)
    expect(await (await h.call('GET', `/api/bubles/${bubleId}/stories`, { token: bob.token })).json()).toEqual([story])
    const pulled = await pullAll(h, bob.token, cursor)
    expect(pulled.changes).toContainEqual(expect.objectContaining({ entity: 'story', op: 'put', id: story.id }))

    h.clock.advance(24 * 3600 * 1000)
    expect(await (await h.call('GET', `/api/bubles/${bubleId}/stories`, { token: bob.token })).json()).toEqual([])
    const job = h.services.stories.expiryJob
    expect(await h.database.withAdvisoryLock(job.lockKey, (tx) => job.run(tx, h.clock.now))).toBe(true)
    const after = await pullAll(h, bob.token, pulled.cursor)
    expect(after.changes).toContainEqual(expect.objectContaining({ entity: 'story', op: 'del', id: story.id }))
    // The file goes right after the job's commit.
    await expect.poll(async () => (await h.call('GET', url, { token: alice.token })).status).toBe(404)
  })

  test('a story is deleted by its author or a holder of delete_others_content; anyone else is refused; devices get del', async () => {
    const { member: alice, manager: plain, moderator: mod, outsider, bubleId } = await club()
    const share = async () => {
      const up = await upload(alice, bubleId, 'story', await png(), 'story.png')
      const { url } = (await up.json()) as { url: string }
      const res = await h.call('POST', '/api/stories', {
        token: alice.token,
        body: { buble_id: bubleId, media_url: url, media_type: 'image', duration_seconds: 5 },
      })
      return ((await expectStatus(res, 201)) as { id: string }).id
    }
    const remove = (token: string, id: string) => h.call('DELETE', `/api/stories/${id}`, { token })
    const listed = async () =>
      (
        (await (await h.call('GET', `/api/bubles/${bubleId}/stories`, { token: mod.token })).json()) as { id: string }[]
      ).map((story) => story.id)

    const own = await share()
    const others = await share()
    const cursor = (await pullAll(h, mod.token)).cursor
    // A member without delete_others_content may not delete another's story; an outsider does not see it.
    expect((await expectStatus(await remove(plain.token, own), 403)).code).toBe('FORBIDDEN')
    expect((await expectStatus(await remove(outsider.token, own), 404)).code).toBe('NOT_FOUND')
    expect(await listed()).toEqual([own, others])

    await expectStatus(await remove(alice.token, own), 204)
    await expectStatus(await remove(mod.token, others), 204)
    expect(await listed()).toEqual([])
    const pulled = await pullAll(h, mod.token, cursor)
    for (const id of [own, others])
      expect(pulled.changes).toContainEqual(expect.objectContaining({ entity: 'story', op: 'del', id }))
  })
})
