import { mentionToken } from '@buble/shared/mentions'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { backends } from '../testing/databases.ts'
import { createHarness, type Harness, insertUser } from '../testing/harness.ts'
import { type DeviceKeys, decrypt, newDeviceKeys, startPushService } from '../testing/push-service.ts'
import { mutation, pullAll, push } from '../testing/sync.ts'

/**
 * Mentions (issue 23 §1, decision 94) through the real app: a post, comment or chat message naming a
 * member as `<@id>` pushes them "Ana mentioned you in Book club" (muted or not, never with push off),
 * and marks the tab with `@` until they read it; over REST and over the sync push alike.
 */

type User = { token: string; id: string; name: string; device?: DeviceKeys; path: string }

describe.each(backends())('mentions on %s', (backend) => {
  let h: Harness
  let service: Awaited<ReturnType<typeof startPushService>>
  beforeAll(async () => {
    service = await startPushService()
    h = await createHarness(
      backend,
      { BUBLE_RATE_LIMITS: 'off' },
      { allowLoopbackFetch: true, push: { retryBaseMs: 5 } },
    )
  })
  afterAll(async () => {
    await h?.services.pushSending.idle()
    await h?.close()
    await service?.close()
  })
  beforeEach(() => {
    service.received.length = 0
  })

  let count = 0
  /** An account made in the database, with one push subscription. */
  const user = async (name: string): Promise<User> => {
    const who: User = { ...(await insertUser(h, name)), path: `/${name}-${++count}` }
    const device = newDeviceKeys()
    const res = await h.call('POST', '/api/push/subscriptions', {
      token: who.token,
      body: { endpoint: `${service.origin}${who.path}`, keys: device.keys },
    })
    expect(res.status).toBe(201)
    who.device = device
    return who
  }
  const call = async (who: User, method: string, path: string, body?: unknown, status = 200) => {
    const res = await h.call(method, path, { token: who.token, ...(body === undefined ? {} : { body }) })
    expect(res.status, `${method} ${path}`).toBe(status)
    return res.status === 204 ? null : res.json()
  }
  /** A buble of `owner` with `others` in it. */
  const buble = async (owner: User, name: string, ...others: User[]) => {
    const { id } = await call(owner, 'POST', '/api/bubles', { name }, 201)
    for (const other of others) {
      const { code } = await call(owner, 'POST', `/api/bubles/${id}/invites`, {}, 201)
      await call(other, 'POST', `/api/bubles/invites/${code}/accept`)
    }
    await h.services.pushSending.idle()
    service.received.length = 0
    return id as string
  }
  /** What each user's devices were pushed since the last look: [who, title, body]. */
  const pushed = async (...everyone: User[]) => {
    await h.services.pushSending.idle()
    const seen = service.received.flatMap((r) => {
      const who = everyone.find((u) => u.path === r.path)
      if (!who) return []
      const payload = JSON.parse(decrypt(r.body, who.device!)) as { title: string; body: string }
      return [[who.name, payload.title, payload.body]]
    })
    service.received.length = 0
    return seen.sort()
  }
  const counter = async (who: User, bubleId: string, tab: string) =>
    ((await call(who, 'GET', `/api/unread/buble/${bubleId}`)) as { contentType: string; mentioned?: true }[]).find(
      (c) => c.contentType === tab,
    )
  const mark = async (who: User, bubleId: string, tab: string) => (await counter(who, bubleId, tab))?.mentioned === true
  const at = (who: User) => mentionToken(who.id)

  test('a post mentioning members pushes each of them, muted too, and marks their wall; others get the plain push', async () => {
    const ana = await user('Ana')
    const bo = await user('Bo')
    const cy = await user('Cy')
    const di = await user('Di')
    const id = await buble(ana, 'Book club', bo, cy, di)
    await call(bo, 'PUT', `/api/push/mutes/${id}`, { muted: true })

    await call(ana, 'POST', `/api/wall/${id}/posts`, { content: `Ask ${at(bo)} and ${at(cy)} about it` }, 201)

    expect(await pushed(ana, bo, cy, di)).toEqual([
      ['Bo', 'Ana mentioned you in Book club', 'Ask @Bo and @Cy about it'],
      ['Cy', 'Ana mentioned you in Book club', 'Ask @Bo and @Cy about it'],
      ['Di', 'Ana posted', 'Ask @Bo and @Cy about it'],
    ])
    expect([await mark(bo, id, 'wall'), await mark(cy, id, 'wall'), await mark(di, id, 'wall')]).toEqual([
      true,
      true,
      false,
    ])
    expect(await mark(bo, id, 'chat')).toBe(false)
  })

  test('no push when notifications are off altogether, but the mark is set', async () => {
    const ana = await user('Ana')
    const bo = await user('Bo')
    const id = await buble(ana, 'Quiet', bo)
    await call(bo, 'PUT', '/api/push/preferences', { enabled: false })

    await call(ana, 'POST', `/api/chat/${id}/messages`, { content: `hi ${at(bo)}` }, 201)

    expect(await pushed(ana, bo)).toEqual([])
    expect(await mark(bo, id, 'chat')).toBe(true)
  })

  test('a non-member id and the author mention nobody: no mention push, no mark', async () => {
    const ana = await user('Ana')
    const bo = await user('Bo')
    const outsider = await user('Out')
    const id = await buble(ana, 'Closed', bo)

    await call(ana, 'POST', `/api/wall/${id}/posts`, { content: `me ${at(ana)} and ${at(outsider)}` }, 201)

    expect(await pushed(ana, bo, outsider)).toEqual([['Bo', 'Ana posted', 'me @Ana and @someone']])
    expect(await mark(ana, id, 'wall')).toBe(false)
    expect(await mark(bo, id, 'wall')).toBe(false)
    const rows = await h.database.db.execute(`select count(*)::int as n from mentions where buble_id = '${id}'`)
    expect((rows as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0)
  })

  test('reading the tab clears the mark; a comment mention marks the wall again', async () => {
    const ana = await user('Ana')
    const bo = await user('Bo')
    const id = await buble(ana, 'Readers', bo)
    const post = await call(ana, 'POST', `/api/wall/${id}/posts`, { content: `${at(bo)} look` }, 201)
    expect(await mark(bo, id, 'wall')).toBe(true)

    await call(bo, 'POST', `/api/unread/buble/${id}/read`, { contentType: 'wall' }, 204)
    expect(await mark(bo, id, 'wall')).toBe(false)

    await pushed(ana, bo)
    await call(ana, 'POST', `/api/wall/posts/${post.id}/comments`, { content: `again ${at(bo)}` }, 201)
    expect(await pushed(ana, bo)).toEqual([['Bo', 'Ana mentioned you in Readers', 'again @Bo']])
    expect(await mark(bo, id, 'wall')).toBe(true)
  })

  test('a long chat message cut for the plain push never shows half a mention', async () => {
    const ana = await user('Ana')
    const bo = await user('Bo')
    const cy = await user('Cy')
    const id = await buble(ana, 'Long talk', bo, cy)
    const long = 'x'.repeat(105)

    await call(ana, 'POST', `/api/chat/${id}/messages`, { content: `${long} ${at(bo)} and more` }, 201)

    expect(await pushed(ana, bo, cy)).toEqual([
      ['Bo', 'Ana mentioned you in Long talk', `${long} @Bo and more`],
      ['Cy', 'Ana', `${long} …`],
    ])
  })

  test('an edit pushes only the members it newly mentions', async () => {
    const ana = await user('Ana')
    const bo = await user('Bo')
    const cy = await user('Cy')
    const id = await buble(ana, 'Editors', bo, cy)
    const message = await call(ana, 'POST', `/api/chat/${id}/messages`, { content: `${at(bo)} hi` }, 201)
    await pushed(ana, bo, cy)

    await call(ana, 'PUT', `/api/chat/messages/${message.id}`, { content: `${at(bo)} and ${at(cy)} hi` })
    expect(await pushed(ana, bo, cy)).toEqual([['Cy', 'Ana mentioned you in Editors', '@Bo and @Cy hi']])

    await call(ana, 'PUT', `/api/chat/messages/${message.id}`, { content: `${at(bo)}, ${at(cy)}!` })
    expect(await pushed(ana, bo, cy)).toEqual([])
  })

  test('editing a post or a comment, over REST or the sync push, pushes and marks only the members it newly mentions', async () => {
    const ana = await user('Ana')
    const bo = await user('Bo')
    const cy = await user('Cy')
    const id = await buble(ana, 'Wall editors', bo, cy)
    const post = await call(ana, 'POST', `/api/wall/${id}/posts`, { content: 'Plans' }, 201)
    const comment = await call(ana, 'POST', `/api/wall/posts/${post.id}/comments`, { content: 'More plans' }, 201)
    await pushed(ana, bo, cy)
    expect([await mark(bo, id, 'wall'), await mark(cy, id, 'wall')]).toEqual([false, false])

    await call(ana, 'PUT', `/api/wall/posts/${post.id}`, { content: `Plans for ${at(bo)}` })
    expect(await pushed(ana, bo, cy)).toEqual([['Bo', 'Ana mentioned you in Wall editors', 'Plans for @Bo']])
    expect([await mark(bo, id, 'wall'), await mark(cy, id, 'wall')]).toEqual([true, false])

    const edits = await push(h, ana.token, [
      mutation('post.update', { id: post.id, content: `Plans for ${at(bo)}, again` }),
      mutation('comment.update', { id: comment.id, content: `More plans, ${at(cy)}` }),
    ])
    expect(edits.map((r) => r.status)).toEqual(['applied', 'applied'])
    expect(await pushed(ana, bo, cy)).toEqual([['Cy', 'Ana mentioned you in Wall editors', 'More plans, @Cy']])
    expect(await mark(cy, id, 'wall')).toBe(true)
  })

  test('through the sync push: posts, comments and messages mention, and the mark reaches the device and clears', async () => {
    const ana = await user('Ana')
    const bo = await user('Bo')
    const id = await buble(ana, 'Synced', bo)
    const postId = uuidv7()
    const results = await push(h, ana.token, [
      mutation('post.create', { id: postId, buble_id: id, content: `for ${at(bo)}` }),
      mutation('post.create', { id: uuidv7(), buble_id: id, content: 'plain' }),
      mutation('comment.create', { id: uuidv7(), post_id: postId, content: `and ${at(bo)}` }),
      mutation('chat.send', { id: uuidv7(), buble_id: id, content: `chat ${at(bo)}`, type: 'text' }),
    ])
    expect(results.map((r) => r.status)).toEqual(['applied', 'applied', 'applied', 'applied'])
    expect(await pushed(ana, bo)).toEqual([
      ['Bo', 'Ana mentioned you in Synced', 'and @Bo'],
      ['Bo', 'Ana mentioned you in Synced', 'chat @Bo'],
      ['Bo', 'Ana mentioned you in Synced', 'for @Bo'],
      ['Bo', 'Ana posted', 'plain'],
    ])

    const counters = async (cursor?: string) => {
      const pulled = await pullAll(h, bo.token, cursor)
      const rows = pulled.changes.filter((c) => c.entity === 'unread' && c.op === 'put')
      return { cursor: pulled.cursor, rows: new Map(rows.map((c) => [c.id, c.op === 'put' ? c.data : null])) }
    }
    const first = await counters()
    expect(first.rows.get(`${id}:wall`)).toEqual({ contentType: 'wall', unreadCount: 2, mentioned: true })
    expect(first.rows.get(`${id}:chat`)).toEqual({ contentType: 'chat', unreadCount: 1, mentioned: true })

    const read = await push(h, bo.token, [mutation('unread.read', { buble_id: id, contentType: 'wall' })])
    expect(read[0]!.status).toBe('applied')
    const after = await counters(first.cursor)
    expect(after.rows.get(`${id}:wall`)).toEqual({ contentType: 'wall', unreadCount: 0 })
    expect(await mark(bo, id, 'chat')).toBe(true)
  })
})
