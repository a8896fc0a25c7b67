import { randomUUID } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { eq, sql } from 'drizzle-orm'
import sharp from 'sharp'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { memberships, posts, users } from '../../db/schema.ts'
import { backends } from '../../testing/databases.ts'
import { createHarness, type Harness, type TestResponse, uniqueEmail } from '../../testing/harness.ts'
import { mutation, pullAll, push } from '../../testing/sync.ts'

/**
 * The wall (CONTRACT §3.3, §5, §6): posts paged by position, author-only edits, deletes by author
 * or delete_others_content, comments with counts, idempotent reactions, 404 for outsiders on every
 * route, the same writes as sync mutations, and link previews through the guarded fetch.
 */

type User = { token: string; id: string; name: string }

const POST_NOT_FOUND = { code: 'NOT_FOUND', message: 'Post not found' }
const BUBLE_NOT_FOUND = { code: 'NOT_FOUND', message: 'Buble not found' }

/** A local page with Open Graph tags, and a redirect to it; counts the requests it gets. */
async function startPages() {
  let hits = 0
  const server: Server = createServer((req, res) => {
    hits += 1
    if (req.url === '/redirect') {
      res.writeHead(302, { location: '/article' })
      res.end()
      return
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(`<!doctype html><html><head><title>Plain title</title>
      <meta property="og:title" content="Midsummer &amp; herring">
      <meta property="og:description" content="What to bring to the party">
      <meta property="og:image" content="/pic.jpg"></head><body>Hello</body></html>`)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    port,
    hits: () => hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

describe.each(backends())('the wall on %s', (backend) => {
  let h: Harness
  let pages: Awaited<ReturnType<typeof startPages>>
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
    pages = await startPages()
  })
  afterAll(async () => {
    await h?.close()
    await pages?.close()
  })

  let userCount = 0
  const user = async (name = `Poster ${++userCount}`): Promise<User> => {
    const [row] = await h.database.db
      .insert(users)
      .values({ id: uuidv7(), name, email: uniqueEmail('wall'), createdAt: h.clock.now, updatedAt: h.clock.now })
      .returning()
    return { id: row!.id, name, token: await h.deps.tokens.sign(row!) }
  }
  const createBuble = async (owner: User): Promise<string> => {
    const res = await h.call('POST', '/api/bubles', { token: owner.token, body: { name: 'Wall Club' } })
    expect(res.status).toBe(201)
    return (await res.json()).id
  }
  const join = async (owner: User, joiner: User, bubleId: string) => {
    const { code } = await (
      await h.call('POST', `/api/bubles/${bubleId}/invites`, { token: owner.token, body: {} })
    ).json()
    expect((await h.call('POST', `/api/bubles/invites/${code}/accept`, { token: joiner.token })).status).toBe(200)
  }
  const setRole = async (owner: User, bubleId: string, target: User, role: string) => {
    const res = await h.call('PUT', `/api/bubles/${bubleId}/members/role`, {
      token: owner.token,
      body: { userId: target.id, role },
    })
    expect(res.status).toBe(200)
  }
  /** A buble with an owner, two members and a moderator. */
  const club = async () => {
    const [owner, alice, bob, mod, outsider] = [await user(), await user(), await user(), await user(), await user()]
    const bubleId = await createBuble(owner)
    for (const member of [alice, bob, mod]) await join(owner, member, bubleId)
    await setRole(owner, bubleId, mod, 'moderator')
    return { owner, alice, bob, mod, outsider, bubleId }
  }
  const post = async (who: User, bubleId: string, body: Record<string, unknown>) => {
    const res = await h.call('POST', `/api/wall/${bubleId}/posts`, { token: who.token, body })
    expect(res.status, await res.clone().text()).toBe(201)
    return res.json()
  }
  const pageOf = async (who: User, bubleId: string, query = '') => {
    const res = await h.call('GET', `/api/wall/${bubleId}/posts${query}`, { token: who.token })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('application/json')
    return res.json()
  }
  const expectBody = async (res: TestResponse, status: number, body: unknown) => {
    expect({ status: res.status, body: await res.json() }).toEqual({ status, body })
  }
  const postRow = async (id: string) => (await h.database.db.select().from(posts).where(eq(posts.id, id)))[0]

  describe('posts', () => {
    test('a post answers CONTRACT shape; the same id again answers it, another user gets 409', async () => {
      const { alice, bob, bubleId } = await club()
      const id = randomUUID()
      const created = await post(alice, bubleId, { id, content: '  Hello wall  ' })
      expect(created).toEqual({
        id,
        buble_id: bubleId,
        content: 'Hello wall',
        author_id: alice.id,
        author_name: alice.name,
        author: { id: alice.id, name: alice.name, avatar_url: null },
        created_at: h.clock.now.toISOString(),
        is_edited: false,
        image_url: null,
        link_url: null,
        link_title: null,
        link_description: null,
        link_image: null,
        reactions: {},
        reactionsSummary: {},
        commentsCount: 0,
        pinned_at: null,
      })
      const again = await h.call('POST', `/api/wall/${bubleId}/posts`, {
        token: alice.token,
        body: { id, content: 'x' },
      })
      await expectBody(again, 200, created)
      const theirs = await h.call('POST', `/api/wall/${bubleId}/posts`, {
        token: bob.token,
        body: { id, content: 'x' },
      })
      expect(theirs.status).toBe(409)
      expect((await theirs.json()).code).toBe('CONFLICT')
    })

    test('pages of 10, newest first, hasMore while an older page has posts; deep pages follow deletes', async () => {
      const { alice, bob, bubleId } = await club()
      const made: string[] = []
      for (let i = 1; i <= 25; i++) {
        made.push((await post(i % 2 ? alice : bob, bubleId, { content: `post ${i}` })).id)
        h.clock.advance(1000)
      }
      const newestFirst = [...made].reverse()
      const p1 = await pageOf(alice, bubleId, '?page=1')
      expect(p1.posts.map((p: { id: string }) => p.id)).toEqual(newestFirst.slice(0, 10))
      expect([p1.page, p1.hasMore]).toEqual([1, true])
      const p3 = await pageOf(alice, bubleId, '?page=3')
      expect(p3.posts.map((p: { id: string }) => p.id)).toEqual(newestFirst.slice(20))
      expect(p3.hasMore).toBe(false)
      const p2 = await pageOf(alice, bubleId, '?page=2&limit=10')
      expect(p2.hasMore).toBe(true)
      expect((await pageOf(alice, bubleId, '?page=4')).posts).toEqual([])
      // Without a page: the first.
      expect((await pageOf(alice, bubleId)).posts.map((p: { id: string }) => p.id)).toEqual(newestFirst.slice(0, 10))

      // Deleting posts on several pages shifts the deeper ones up, with no gap and no repeat.
      for (const gone of [made[3], made[12], made[24]] as string[]) {
        expect(
          (await h.call('DELETE', `/api/wall/posts/${gone}`, { token: (await authorOf(gone)).token })).status,
        ).toBe(204)
      }
      const left = newestFirst.filter((id) => ![made[3], made[12], made[24]].includes(id))
      const all: string[] = []
      for (let page = 1; ; page++) {
        const answer = await pageOf(bob, bubleId, `?page=${page}&limit=7`)
        all.push(...answer.posts.map((p: { id: string }) => p.id))
        if (!answer.hasMore) break
      }
      expect(all).toEqual(left)
      const latest = await h.call('GET', `/api/wall/${bubleId}/posts/latest?limit=5`, { token: bob.token })
      expect((await latest.json()).posts.map((p: { id: string }) => p.id)).toEqual(left.slice(0, 5))

      async function authorOf(id: string) {
        const row = await postRow(id)
        return row!.authorId === alice.id ? alice : bob
      }
    })

    test('only the author edits; the edit marks the post edited', async () => {
      const { owner, alice, mod, bubleId } = await club()
      const { id } = await post(alice, bubleId, { content: 'first draft' })
      for (const other of [owner, mod]) {
        const res = await h.call('PUT', `/api/wall/posts/${id}`, { token: other.token, body: { content: 'hijack' } })
        await expectBody(res, 403, { code: 'FORBIDDEN', message: 'Only the author can edit this' })
      }
      expect((await postRow(id))!.content).toBe('first draft')
      const res = await h.call('PUT', `/api/wall/posts/${id}`, { token: alice.token, body: { content: 'final' } })
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({ id, content: 'final', is_edited: true })
    })

    test('the author or delete_others_content deletes; a plain member does not', async () => {
      const { owner, alice, bob, mod, bubleId } = await club()
      const a = await post(alice, bubleId, { content: 'by alice' })
      const b = await post(alice, bubleId, { content: 'also by alice' })
      const c = await post(alice, bubleId, { content: 'alice again' })
      await expectBody(await h.call('DELETE', `/api/wall/posts/${a.id}`, { token: bob.token }), 403, {
        code: 'FORBIDDEN',
        message: 'You may not delete this',
      })
      expect(await postRow(a.id)).toBeDefined()
      expect((await h.call('DELETE', `/api/wall/posts/${a.id}`, { token: mod.token })).status).toBe(204)
      expect((await h.call('DELETE', `/api/wall/posts/${b.id}`, { token: owner.token })).status).toBe(204)
      expect((await h.call('DELETE', `/api/wall/posts/${c.id}`, { token: alice.token })).status).toBe(204)
      for (const gone of [a, b, c]) expect(await postRow(gone.id)).toBeUndefined()
      await expectBody(await h.call('DELETE', `/api/wall/posts/${a.id}`, { token: alice.token }), 404, POST_NOT_FOUND)
    })

    test('bad input: empty or too long content, bad pages, unknown reaction types, non-UUID ids', async () => {
      const { alice, bubleId } = await club()
      const bad = async (res: TestResponse, message: string) => {
        expect(res.status).toBe(400)
        expect(await res.json()).toMatchObject({ code: 'VALIDATION_ERROR', message })
      }
      await bad(
        await h.call('POST', `/api/wall/${bubleId}/posts`, { token: alice.token, body: { content: '   ' } }),
        'Content is required',
      )
      await bad(
        await h.call('POST', `/api/wall/${bubleId}/posts`, {
          token: alice.token,
          body: { content: 'x'.repeat(10_001) },
        }),
        'A post may be at most 10000 characters',
      )
      await bad(
        await h.call('POST', `/api/wall/${bubleId}/posts`, {
          token: alice.token,
          body: { content: 'hi', image_url: 'https://evil.example/x.png' },
        }),
        'image_url must be a file uploaded to Buble',
      )
      await bad(
        await h.call('POST', `/api/wall/${bubleId}/posts`, {
          token: alice.token,
          body: { content: 'hi', image_url: '/api/uploads/secure/image_nope.webp' },
        }),
        'image_url must be an image uploaded to this buble',
      )
      expect((await h.call('GET', `/api/wall/${bubleId}/posts?page=0`, { token: alice.token })).status).toBe(400)
      expect((await h.call('GET', `/api/wall/${bubleId}/posts?limit=500`, { token: alice.token })).status).toBe(400)
      const { id } = await post(alice, bubleId, { content: 'react to me' })
      await bad(
        await h.call('POST', `/api/wall/posts/${id}/reactions`, { token: alice.token, body: { reactionType: 'meh' } }),
        'reactionType must be one of like, love, laugh, wow, sad, angry',
      )
      await expectBody(
        await h.call('PUT', '/api/wall/posts/not-a-uuid', { token: alice.token, body: { content: 'x' } }),
        404,
        POST_NOT_FOUND,
      )
      await expectBody(await h.call('GET', '/api/wall/nope/posts', { token: alice.token }), 404, BUBLE_NOT_FOUND)
    })
  })

  describe('comments and reactions', () => {
    test('comments oldest first, counted on the post; author edits; author or moderator deletes', async () => {
      const { alice, bob, mod, bubleId } = await club()
      const { id } = await post(alice, bubleId, { content: 'discuss' })
      const c1 = await h.call('POST', `/api/wall/posts/${id}/comments`, { token: bob.token, body: { content: 'one' } })
      expect(c1.status).toBe(201)
      const first = await c1.json()
      expect(first).toEqual({
        id: first.id,
        post_id: id,
        buble_id: bubleId,
        content: 'one',
        author: { id: bob.id, name: bob.name, avatar_url: null },
        author_name: bob.name,
        created_at: h.clock.now.toISOString(),
        isEdited: false,
      })
      h.clock.advance(1000)
      const second = await (
        await h.call('POST', `/api/wall/posts/${id}/comments`, { token: alice.token, body: { content: 'two' } })
      ).json()
      const list = await (await h.call('GET', `/api/wall/posts/${id}/comments`, { token: mod.token })).json()
      expect(list.map((c: { content: string }) => c.content)).toEqual(['one', 'two'])
      expect((await pageOf(bob, bubleId)).posts[0].commentsCount).toBe(2)

      const edit = (who: User) =>
        h.call('PUT', `/api/wall/comments/${first.id}`, { token: who.token, body: { content: 'one, edited' } })
      expect((await edit(alice)).status).toBe(403)
      const edited = await edit(bob)
      expect(await edited.json()).toMatchObject({ content: 'one, edited', isEdited: true })

      expect((await h.call('DELETE', `/api/wall/comments/${second.id}`, { token: bob.token })).status).toBe(403)
      expect((await h.call('DELETE', `/api/wall/comments/${second.id}`, { token: mod.token })).status).toBe(204)
      expect((await h.call('DELETE', `/api/wall/comments/${first.id}`, { token: bob.token })).status).toBe(204)
      expect((await pageOf(bob, bubleId)).posts[0].commentsCount).toBe(0)
      expect(await (await h.call('GET', `/api/wall/posts/${id}/comments`, { token: mod.token })).json()).toEqual([])
      const tooLong = await h.call('POST', `/api/wall/posts/${id}/comments`, {
        token: bob.token,
        body: { content: 'x'.repeat(2001) },
      })
      expect(tooLong.status).toBe(400)
    })

    test('reactions are idempotent, summarised, and removed by body or query', async () => {
      const { alice, bob, bubleId } = await club()
      const { id } = await post(alice, bubleId, { content: 'react' })
      const react = (who: User, reactionType: string) =>
        h.call('POST', `/api/wall/posts/${id}/reactions`, { token: who.token, body: { reactionType } })
      await react(bob, 'like')
      await react(bob, 'like')
      await react(bob, 'love')
      const answer = await (await react(alice, 'like')).json()
      expect(answer).toEqual({
        reactions: { [bob.id]: ['like', 'love'], [alice.id]: ['like'] },
        reactionsSummary: { like: 2, love: 1 },
      })
      const versionBefore = (await postRow(id))!.version
      await react(alice, 'like')
      // A repeated reaction changes nothing, not even the version devices pull by.
      expect((await postRow(id))!.version).toBe(versionBefore)
      const byBody = await h.call('DELETE', `/api/wall/posts/${id}/reactions`, {
        token: bob.token,
        body: { reactionType: 'love' },
      })
      expect(await byBody.json()).toEqual({
        reactions: { [bob.id]: ['like'], [alice.id]: ['like'] },
        reactionsSummary: { like: 2 },
      })
      const byQuery = await h.call('DELETE', `/api/wall/posts/${id}/reactions?reactionType=like`, { token: bob.token })
      expect((await byQuery.json()).reactionsSummary).toEqual({ like: 1 })
      const again = await h.call('DELETE', `/api/wall/posts/${id}/reactions?reactionType=like`, { token: bob.token })
      expect((await again.json()).reactionsSummary).toEqual({ like: 1 })
      const missing = await h.call('DELETE', `/api/wall/posts/${id}/reactions`, { token: bob.token })
      expect(missing.status).toBe(400)
      expect((await pageOf(alice, bubleId)).posts[0]).toMatchObject({ reactionsSummary: { like: 1 } })
    })
  })

  test('a non-member gets 404 on every wall route and changes nothing', async () => {
    const { alice, outsider, bubleId } = await club()
    const { id } = await post(alice, bubleId, { content: 'members only' })
    const comment = await (
      await h.call('POST', `/api/wall/posts/${id}/comments`, { token: alice.token, body: { content: 'c' } })
    ).json()
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/wall/${bubleId}/posts`],
      ['GET', `/api/wall/${bubleId}/posts/latest`],
      ['POST', `/api/wall/${bubleId}/posts`, { content: 'sneaky' }],
      ['PUT', `/api/wall/posts/${id}`, { content: 'sneaky' }],
      ['DELETE', `/api/wall/posts/${id}`],
      ['GET', `/api/wall/posts/${id}/comments`],
      ['POST', `/api/wall/posts/${id}/comments`, { content: 'sneaky' }],
      ['PUT', `/api/wall/comments/${comment.id}`, { content: 'sneaky' }],
      ['DELETE', `/api/wall/comments/${comment.id}`],
      ['POST', `/api/wall/posts/${id}/reactions`, { reactionType: 'like' }],
      ['DELETE', `/api/wall/posts/${id}/reactions?reactionType=like`],
      ['GET', `/api/bubles/${bubleId}/stories`],
    ]
    for (const [method, path, body] of calls) {
      const res = await h.call(method, path, { token: outsider.token, body })
      expect(res.status, `${method} ${path}`).toBe(404)
      expect((await res.json()).code).toBe('NOT_FOUND')
    }
    const page = await pageOf(alice, bubleId)
    expect(page.posts).toHaveLength(1)
    expect(page.posts[0]).toMatchObject({ content: 'members only', reactions: {}, commentsCount: 1 })
    expect((await h.call('GET', `/api/wall/${bubleId}/posts`)).status).toBe(401)
  })

  describe('in sync', () => {
    test('post, comment and reaction pushed twice are applied once; others pull them and count them unread', async () => {
      const { alice, bob, bubleId } = await club()
      const before = await pullAll(h, bob.token)
      const postId = randomUUID()
      const batch = [
        mutation('post.create', { id: postId, buble_id: bubleId, content: 'written on a train' }),
        mutation('comment.create', { id: randomUUID(), post_id: postId, content: 'and a comment' }),
        mutation('reaction.add', { post_id: postId, reactionType: 'wow' }),
      ]
      const first = await push(h, alice.token, batch)
      expect(first.map((r) => r.status)).toEqual(['applied', 'applied', 'applied'])
      const replay = await push(h, alice.token, batch)
      expect(replay.map((r) => r.status)).toEqual(['duplicate', 'duplicate', 'duplicate'])
      expect(replay[0]!.data).toEqual(first[0]!.data)
      const count = await h.database.db.execute(sql`select count(*)::int as n from posts where id = ${postId}`)
      expect((count as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1)

      const { changes } = await pullAll(h, bob.token, before.cursor)
      const pulledPost = changes.filter((c) => c.entity === 'post' && c.id === postId)
      expect(pulledPost.at(-1)!.data).toMatchObject({
        content: 'written on a train',
        commentsCount: 1,
        reactions: { [alice.id]: ['wow'] },
        reactionsSummary: { wow: 1 },
      })
      expect(changes.filter((c) => c.entity === 'comment' && c.op === 'put')).toHaveLength(1)
      const wallUnread = changes.filter((c) => c.entity === 'unread' && c.id === `${bubleId}:wall`).at(-1)
      expect(wallUnread?.data).toEqual({ contentType: 'wall', unreadCount: 1 })
      const own = await (await h.call('GET', `/api/unread/buble/${bubleId}`, { token: alice.token })).json()
      expect(own.find((c: { contentType: string }) => c.contentType === 'wall').unreadCount).toBe(0)
    })

    test('an offline edit of a post a moderator deleted is rejected, and the delete reaches devices as del', async () => {
      const { alice, mod, bubleId } = await club()
      const { id } = await post(alice, bubleId, { content: 'original' })
      const cursor = (await pullAll(h, alice.token)).cursor
      expect((await h.call('DELETE', `/api/wall/posts/${id}`, { token: mod.token })).status).toBe(204)
      const [result] = await push(h, alice.token, [mutation('post.update', { id, content: 'my careful edit' })])
      expect(result).toMatchObject({ status: 'rejected', code: 'NOT_FOUND', message: 'Post not found' })
      const { changes } = await pullAll(h, alice.token, cursor)
      expect(changes).toContainEqual(expect.objectContaining({ entity: 'post', op: 'del', id }))
    })

    test('bad args and a non-member are rejected per mutation', async () => {
      const { alice, outsider, bubleId } = await club()
      const results = await push(h, outsider.token, [
        mutation('post.create', { id: randomUUID(), buble_id: bubleId, content: 'let me in' }),
        mutation('post.create', { id: randomUUID(), buble_id: bubleId, content: '' }),
        mutation('reaction.add', { post_id: randomUUID(), reactionType: 'like' }),
      ])
      expect(results.map((r) => [r.status, r.code])).toEqual([
        ['rejected', 'NOT_FOUND'],
        ['rejected', 'VALIDATION_ERROR'],
        ['rejected', 'NOT_FOUND'],
      ])
      expect((await pageOf(alice, bubleId)).posts).toEqual([])
    })
  })

  describe('link previews', () => {
    test('without the test-only option, loopback, private and link-local links get no preview and no request', async () => {
      const { alice, bubleId } = await club()
      const hitsBefore = pages.hits()
      const targets = [
        pages.url('/article'),
        `http://[::1]:${pages.port}/article`,
        'http://169.254.169.254/latest/meta-data/',
        pages.url('/redirect'),
      ]
      const made = []
      for (const target of targets) made.push(await post(alice, bubleId, { content: `look ${target}` }))
      await h.services.previewer.idle()
      for (const { id } of made) {
        const row = await postRow(id)
        expect(row!.linkUrl).not.toBeNull()
        expect(row!.linkFetchedAt).not.toBeNull()
        expect([row!.linkTitle, row!.linkDescription, row!.linkImage]).toEqual([null, null, null])
      }
      expect(pages.hits()).toBe(hitsBefore)
    })
  })

  test('the same app factory with allowLoopbackFetch fills a preview after the post is saved, through sync', async () => {
    const local = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' }, { allowLoopbackFetch: true })
    try {
      const [row] = await local.database.db
        .insert(users)
        .values({
          id: uuidv7(),
          name: 'Linker',
          email: uniqueEmail('link'),
          createdAt: local.clock.now,
          updatedAt: local.clock.now,
        })
        .returning()
      const token = await local.deps.tokens.sign(row!)
      const bubleId = (await (await local.call('POST', '/api/bubles', { token, body: { name: 'Links' } })).json()).id
      const cursor = (await pullAll(local, token)).cursor
      const res = await local.call('POST', `/api/wall/${bubleId}/posts`, {
        token,
        body: { content: `party info: ${pages.url('/redirect')}.` },
      })
      const created = await res.json()
      // The answer does not wait for the preview.
      expect(created.link_url).toBe(pages.url('/redirect'))
      await local.services.previewer.idle()
      const page = await (await local.call('GET', `/api/wall/${bubleId}/posts`, { token })).json()
      expect(page.posts[0]).toMatchObject({
        link_url: pages.url('/redirect'),
        link_title: 'Midsummer & herring',
        link_description: 'What to bring to the party',
        link_image: pages.url('/pic.jpg'),
      })
      const { changes } = await pullAll(local, token, cursor)
      expect(changes.filter((c) => c.entity === 'post').at(-1)!.data).toMatchObject({
        link_title: 'Midsummer & herring',
      })

      // A post pushed from a device: its preview waits for the batch's commit, then comes the same way.
      const pushedId = randomUUID()
      const [pushed] = await push(local, token, [
        mutation('post.create', { id: pushedId, buble_id: bubleId, content: `again ${pages.url('/article')}` }),
      ])
      expect(pushed!.status).toBe('applied')
      await local.services.previewer.idle()
      const again = await (await local.call('GET', `/api/wall/${bubleId}/posts`, { token })).json()
      expect(again.posts[0]).toMatchObject({ id: pushedId, link_title: 'Midsummer & herring' })
    } finally {
      await local.close()
    }
  })

  describe('images', () => {
    const upload = async (who: User, bubleId: string, route: 'image' | 'story', bytes: Buffer, name: string) => {
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

    test('a post shows an image uploaded into its buble; deleting the post removes the file', async () => {
      const { alice, bob, bubleId } = await club()
      const up = await upload(alice, bubleId, 'image', await png(), 'photo.png')
      expect(up.status).toBe(201)
      const { url } = (await up.json()) as { url: string }
      const created = await post(alice, bubleId, { content: 'look', image_url: url })
      expect(created.image_url).toBe(url)
      expect((await h.call('GET', url, { token: bob.token })).status).toBe(200)
      // Another buble's file cannot be borrowed.
      const other = await createBuble(bob)
      const borrowed = await h.call('POST', `/api/wall/${other}/posts`, {
        token: bob.token,
        body: { content: 'mine now', image_url: url },
      })
      expect(borrowed.status).toBe(400)
      expect((await h.call('DELETE', `/api/wall/posts/${created.id}`, { token: alice.token })).status).toBe(204)
      // The file goes once the delete has committed, in the background: wait for it.
      await expect.poll(async () => (await h.call('GET', url, { token: alice.token })).status).toBe(404)
    })
  })

  test('pages kept in memory follow every change: a post, a reaction, a comment, a removal', async () => {
    const { owner, alice, bob, bubleId } = await club()
    const first = await post(alice, bubleId, { content: 'one' })
    expect((await pageOf(bob, bubleId)).posts.map((p: { id: string }) => p.id)).toEqual([first.id])
    const second = await post(alice, bubleId, { content: 'two' })
    expect((await pageOf(bob, bubleId)).posts.map((p: { id: string }) => p.id)).toEqual([second.id, first.id])
    await h.call('POST', `/api/wall/posts/${first.id}/reactions`, { token: owner.token, body: { reactionType: 'sad' } })
    await h.call('POST', `/api/wall/posts/${first.id}/comments`, { token: owner.token, body: { content: 'hm' } })
    expect((await pageOf(bob, bubleId)).posts[1]).toMatchObject({ reactionsSummary: { sad: 1 }, commentsCount: 1 })
    const removed = await h.call('DELETE', `/api/bubles/${bubleId}/members/remove`, {
      token: owner.token,
      body: { userId: bob.id },
    })
    expect(removed.status).toBe(200)
    await expectBody(await h.call('GET', `/api/wall/${bubleId}/posts`, { token: bob.token }), 404, BUBLE_NOT_FOUND)
  })

  test('membership is what counts: a removed member loses access at once', async () => {
    const { owner, alice, bubleId } = await club()
    const { id } = await post(alice, bubleId, { content: 'still mine?' })
    await h.database.db.delete(memberships).where(eq(memberships.userId, alice.id))
    await expectBody(
      await h.call('PUT', `/api/wall/posts/${id}`, { token: alice.token, body: { content: 'x' } }),
      404,
      POST_NOT_FOUND,
    )
    expect((await pageOf(owner, bubleId)).posts).toHaveLength(1)
  })
})
