import { randomUUID } from 'node:crypto'
import { inArray, sql } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { posts } from '../../db/schema.ts'
import { backends } from '../../testing/databases.ts'
import { createHarness, type Harness, insertUser, type TestResponse } from '../../testing/harness.ts'
import { phoneMp4 } from '../../testing/video-fixtures.ts'

/**
 * The Media tab's gallery (issue 23 §5): images of posts and chat messages and the files of the
 * stories still showing, newest first, paged by cursor; deleted content and expired stories are
 * not listed; a non-member gets 404.
 */

type User = { token: string; id: string }
type Item = { id: string; source: string; source_id: string; media_type: string; url: string; created_at: string }

describe.each(backends())('the media gallery on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
  })
  afterAll(async () => {
    await h?.close()
  })

  const user = (): Promise<User> => insertUser(h, 'Viewer')
  const ok = async (res: TestResponse, status = 200) => {
    expect(res.status, await res.clone().text()).toBe(status)
    return res.json()
  }
  const upload = async (who: User, bubleId: string, route: 'image' | 'story', bytes: Buffer, name: string) => {
    const form = new FormData()
    form.set('buble_id', bubleId)
    form.set('file', new Blob([new Uint8Array(bytes)]), name)
    const res = await h.app.request(`/api/uploads/${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${who.token}` },
      body: form,
    })
    return ((await ok(res as TestResponse, 201)) as { url: string }).url
  }
  const png = (background: string) =>
    sharp({ create: { width: 40, height: 30, channels: 3, background } })
      .png()
      .toBuffer()
  const step = () => h.clock.advance(60_000)
  const mediaOf = (who: User, bubleId: string, query = '') =>
    h.call('GET', `/api/bubles/${bubleId}/media${query}`, { token: who.token })

  test('posts, chat and current stories, newest first, page by page; expired stories and deleted posts and messages are left out', async () => {
    const [owner, member, outsider] = [await user(), await user(), await user()]
    const bubleId = (
      await ok(await h.call('POST', '/api/bubles', { token: owner.token, body: { name: 'Photo Club' } }), 201)
    ).id as string
    const { code } = await ok(
      await h.call('POST', `/api/bubles/${bubleId}/invites`, { token: owner.token, body: {} }),
      201,
    )
    await ok(await h.call('POST', `/api/bubles/invites/${code}/accept`, { token: member.token }))

    // A story that will have expired, then the rest a minute apart.
    const oldStory = await upload(owner, bubleId, 'story', await png('#111111'), 'old.png')
    await ok(
      await h.call('POST', '/api/stories', {
        token: owner.token,
        body: { buble_id: bubleId, media_url: oldStory, media_type: 'image' },
      }),
      201,
    )
    h.clock.advance(25 * 3600 * 1000)
    const postImage = await upload(member, bubleId, 'image', await png('#222222'), 'post.png')
    const post = await ok(
      await h.call('POST', `/api/wall/${bubleId}/posts`, {
        token: member.token,
        body: { content: 'look', image_url: postImage },
      }),
      201,
    )
    step()
    await ok(
      await h.call('POST', `/api/wall/${bubleId}/posts`, { token: member.token, body: { content: 'no image' } }),
      201,
    )
    step()
    const chatImage = await upload(owner, bubleId, 'image', await png('#333333'), 'chat.png')
    const message = await ok(
      await h.call('POST', `/api/chat/${bubleId}/messages`, { token: owner.token, body: { image_url: chatImage } }),
      201,
    )
    step()
    const video = await upload(member, bubleId, 'story', phoneMp4().file, 'clip.mp4')
    const story = await ok(
      await h.call('POST', '/api/stories', {
        token: member.token,
        body: { buble_id: bubleId, media_url: video, media_type: 'video' },
      }),
      201,
    )
    step()
    const doomedImage = await upload(owner, bubleId, 'image', await png('#444444'), 'doomed.png')
    const doomed = await ok(
      await h.call('POST', `/api/wall/${bubleId}/posts`, {
        token: owner.token,
        body: { content: 'gone soon', image_url: doomedImage },
      }),
      201,
    )
    expect((await h.call('DELETE', `/api/wall/posts/${doomed.id}`, { token: owner.token })).status).toBe(204)
    const goneImage = await upload(member, bubleId, 'image', await png('#555555'), 'gone.png')
    const gone = await ok(
      await h.call('POST', `/api/chat/${bubleId}/messages`, { token: member.token, body: { image_url: goneImage } }),
      201,
    )
    expect((await h.call('DELETE', `/api/chat/messages/${gone.id}`, { token: member.token })).status).toBe(204)

    const all = (await ok(await mediaOf(member, bubleId))) as { items: Item[]; next: string | null }
    expect(all.next).toBeNull()
    expect(all.items.map((item) => [item.source, item.media_type, item.url, item.source_id])).toEqual([
      ['story', 'video', video, story.id],
      ['chat', 'image', chatImage, message.id],
      ['post', 'image', postImage, post.id],
    ])
    expect(all.items[0]).toMatchObject({ id: `story:${story.id}`, author: { id: member.id } })
    // Each file is served by the secure upload URL to a member.
    expect((await h.call('GET', chatImage, { token: member.token })).status).toBe(200)

    // Pages of one, each after the cursor of the one before.
    const seen: string[] = []
    let before = ''
    for (let n = 0; n < 4; n++) {
      const page = (await ok(await mediaOf(owner, bubleId, `?limit=1${before}`))) as {
        items: Item[]
        next: string | null
      }
      seen.push(...page.items.map((item) => item.source))
      if (!page.next) break
      before = `&before=${encodeURIComponent(page.next)}`
    }
    expect(seen).toEqual(['story', 'chat', 'post'])

    // The video story expires too.
    h.clock.advance(24 * 3600 * 1000)
    const later = (await ok(await mediaOf(member, bubleId))) as { items: Item[] }
    expect(later.items.map((item) => item.source)).toEqual(['chat', 'post'])

    // Outsiders learn nothing; a bad cursor or limit is a 400.
    for (const res of [await mediaOf(outsider, bubleId), await mediaOf(outsider, randomUUID())])
      expect({ status: res.status, body: await res.json() }).toEqual({
        status: 404,
        body: { code: 'NOT_FOUND', message: 'Buble not found' },
      })
    expect((await mediaOf(member, 'not-a-uuid')).status).toBe(404)
    expect((await mediaOf(member, bubleId, '?before=yesterday')).status).toBe(400)
    expect((await mediaOf(member, bubleId, '?limit=0')).status).toBe(400)
  })

  test('items made in one millisecond page in their stored order, none lost or repeated', async () => {
    const owner = await user()
    const bubleId = (
      await ok(await h.call('POST', '/api/bubles', { token: owner.token, body: { name: 'Burst Club' } }), 201)
    ).id as string
    const ids: string[] = []
    for (const colour of ['#101010', '#202020', '#303030', '#404040']) {
      const image_url = await upload(owner, bubleId, 'image', await png(colour), 'burst.png')
      const made = await ok(
        await h.call('POST', `/api/wall/${bubleId}/posts`, {
          token: owner.token,
          body: { content: 'burst', image_url },
        }),
        201,
      )
      ids.push(made.id as string)
    }
    // A burst: one millisecond, four microseconds, in an order the ids do not share.
    const micros = ['.123900', '.123100', '.123500', '.123300']
    for (const [i, id] of ids.entries())
      await h.database.db
        .update(posts)
        .set({ createdAt: sql`${`2026-11-20T10:00:00${micros[i]}Z`}::timestamptz` })
        .where(inArray(posts.id, [id]))
    const expected = [ids[0], ids[2], ids[3], ids[1]]

    const seen: string[] = []
    let before = ''
    for (let n = 0; n < 6; n++) {
      const page = (await ok(await mediaOf(owner, bubleId, `?limit=1${before}`))) as {
        items: Item[]
        next: string | null
      }
      seen.push(...page.items.map((item) => item.source_id))
      if (!page.next) break
      expect(page.next).toMatch(/^2026-11-20T10:00:00\.123\d{3}Z~/)
      before = `&before=${encodeURIComponent(page.next)}`
    }
    expect(seen).toEqual(expected)
    // Seven digits is no cursor this server gave.
    expect(
      (await mediaOf(owner, bubleId, `?before=${encodeURIComponent(`2026-11-20T10:00:00.1234567Z~${ids[0]}`)}`)).status,
    ).toBe(400)
  })
})
