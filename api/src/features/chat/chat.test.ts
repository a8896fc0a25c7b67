import { randomUUID } from 'node:crypto'
import { REACTION_TYPES } from '@buble/shared/wall'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { beforeAll, describe, expect, test } from 'vitest'
import { chatMessages } from '../../db/schema.ts'
import type { ContentAdded } from '../../lib/content-added.ts'
import { backends } from '../../testing/databases.ts'
import { mutation, pullAll, push } from '../../testing/sync.ts'
import { type Club, clubSuite, type Person, type Who } from '../../testing/test-club.ts'

/**
 * Chat (CONTRACT §3.3, §5, §6; spec part 2 §2–§5): the message shape, send rules (replies, images,
 * text), edit by the sender, delete rights, reaction toggles, paging back through the history,
 * 404 for outsiders, and the same writes as sync mutations.
 */

const MESSAGE_NOT_FOUND = { code: 'NOT_FOUND', message: 'Message not found' }
const BUBLE_NOT_FOUND = { code: 'NOT_FOUND', message: 'Buble not found' }

type Message = { id: string; content: string; created_at: string; reply_to_id: string | null; replyTo: unknown }

describe.each(backends())('chat on %s', (backend) => {
  const { h, call, club, setRole, person, join, expectStatus, expectNotFound } = clubSuite(backend)

  const send = async (who: Person, bubleId: string, body: Record<string, unknown>) =>
    expectStatus(await call(who, 'POST', `/api/chat/${bubleId}/messages`, body), 201)
  const page = async (who: Person, bubleId: string, query = '') =>
    expectStatus(await call(who, 'GET', `/api/chat/${bubleId}/messages${query}`), 200)
  const refused = async (who: Person, bubleId: string, body: Record<string, unknown>, message: string) => {
    const res = await call(who, 'POST', `/api/chat/${bubleId}/messages`, body)
    expect(await expectStatus(res, 400)).toMatchObject({ code: 'VALIDATION_ERROR', message })
  }
  const versionOf = async (id: string) =>
    (await h().database.db.select({ v: chatMessages.version }).from(chatMessages).where(eq(chatMessages.id, id)))[0]?.v
  const upload = async (who: Person, bubleId: string) => {
    const bytes = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#cc3366' } })
      .png()
      .toBuffer()
    const form = new FormData()
    form.set('buble_id', bubleId)
    form.set('file', new Blob([new Uint8Array(bytes)]), 'chat.png')
    const res = await h().app.request('/api/uploads/image', {
      method: 'POST',
      headers: { authorization: `Bearer ${who.token}` },
      body: form,
    })
    expect(res.status).toBe(201)
    return ((await res.json()) as { url: string }).url
  }

  let c: Club
  let granted: Person
  beforeAll(async () => {
    c = await club()
    granted = await person('granted')
    await join(c.owner, c.bubleId, granted)
    await setRole(c.owner, c.bubleId, granted, 'member', ['delete_others_content'])
  })

  test('a message answers the CONTRACT shape; the same id again answers it; another user gets 409', async () => {
    const id = randomUUID().toUpperCase()
    const heard: ContentAdded[] = []
    const stop = h().services.contentAdded.listen((added) => heard.push(added))
    try {
      const sent = await send(c.member, c.bubleId, { id, content: '  Hej  ' })
      expect(sent).toEqual({
        id: id.toLowerCase(),
        buble_id: c.bubleId,
        content: 'Hej',
        type: 'text',
        image_url: null,
        sender: { id: c.member.id, name: c.member.name, avatar_url: null },
        created_at: h().clock.now.toISOString(),
        is_edited: false,
        reply_to_id: null,
        replyTo: null,
        reactions: {},
        reactionsSummary: {},
      })
      const again = await call(c.member, 'POST', `/api/chat/${c.bubleId}/messages`, { id, content: 'Other' })
      expect(await expectStatus(again, 200)).toEqual(sent)
      const theirs = await call(c.admin, 'POST', `/api/chat/${c.bubleId}/messages`, { id, content: 'x' })
      expect(await expectStatus(theirs, 409)).toEqual({ code: 'CONFLICT', message: 'This id is already in use' })
      await new Promise((resolve) => setImmediate(resolve))
      // Announced once, after the commit; the repeat and the refused send announce nothing.
      expect(heard).toEqual([
        { bubleId: c.bubleId, contentType: 'chat', actorId: c.member.id, title: c.member.name, body: 'Hej' },
      ])
      expect((await page(c.revoked, c.bubleId)).messages.at(-1)).toEqual(sent)
    } finally {
      stop()
    }
  })

  test('a reply names its original in the same buble; a reply across bubles or to nothing is refused', async () => {
    const k = await club()
    const original = await send(k.owner, k.bubleId, { content: 'Original' })
    const reply = await send(k.member, k.bubleId, { content: 'Reply', reply_to_id: original.id.toUpperCase() })
    expect(reply).toMatchObject({
      reply_to_id: original.id,
      replyTo: { id: original.id, content: 'Original', sender: { id: k.owner.id, name: k.owner.name } },
    })
    const elsewhere = await send(c.owner, c.bubleId, { content: 'Elsewhere' })
    const before = (await page(k.owner, k.bubleId)).messages.length
    const message = 'reply_to_id must be a message of this buble'
    await refused(k.owner, k.bubleId, { content: 'x', reply_to_id: elsewhere.id }, message)
    await refused(k.owner, k.bubleId, { content: 'x', reply_to_id: randomUUID() }, message)
    await refused(k.owner, k.bubleId, { content: 'x', reply_to_id: 'nope' }, 'reply_to_id must be a UUID')
    expect((await page(k.owner, k.bubleId)).messages.length).toBe(before)
  })

  test('text rules: empty refused, 4,000 characters allowed, 4,001 refused', async () => {
    await refused(c.member, c.bubleId, { content: '   ' }, 'Message is required')
    await refused(c.member, c.bubleId, {}, 'Message is required')
    await refused(c.member, c.bubleId, { content: 'x'.repeat(4001) }, 'A message may be at most 4000 characters')
    expect((await send(c.member, c.bubleId, { content: 'x'.repeat(4000) })).content).toHaveLength(4000)
  })

  test('images: an upload of this buble, with or without text; another buble’s or none is refused; the orphan job keeps it', async () => {
    const k = await club()
    const url = await upload(k.member, k.bubleId)
    const photo = await send(k.member, k.bubleId, { image_url: url })
    expect(photo).toMatchObject({ type: 'image', image_url: url, content: '' })
    const captioned = await send(k.member, k.bubleId, { type: 'image', image_url: url, content: 'Look' })
    expect(captioned).toMatchObject({ type: 'image', image_url: url, content: 'Look' })
    await refused(c.owner, c.bubleId, { image_url: url }, 'image_url must be an image uploaded to this buble')
    await refused(k.owner, k.bubleId, { type: 'image', content: 'x' }, 'An image message needs image_url')
    const outside = await call(k.owner, 'POST', `/api/chat/${k.bubleId}/messages`, {
      image_url: 'https://evil.example/x.png',
    })
    expect(outside.status).toBe(400)
    // An hour later the orphan job runs: chat messages name the file, so it stays.
    h().clock.advance(2 * 60 * 60 * 1000)
    const job = h().services.jobs.find((j) => j.name === 'orphan-files')!
    await h().database.db.transaction((tx) => job.run(tx, h().clock.now))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect((await call(k.owner, 'GET', url)).status).toBe(200)
    // Deleting the messages naming it forgets the file once the delete has committed.
    await expectStatus(await call(k.member, 'DELETE', `/api/chat/messages/${photo.id}`), 204)
    await expectStatus(await call(k.member, 'DELETE', `/api/chat/messages/${captioned.id}`), 204)
    await expect.poll(async () => (await call(k.owner, 'GET', url)).status).toBe(404)
  })

  test('only the sender edits; the message is marked edited and replies quote the new text', async () => {
    const original = await send(c.creator, c.bubleId, { content: 'Tpyo' })
    const reply = await send(c.member, c.bubleId, { content: 'What?', reply_to_id: original.id })
    const replyVersion = await versionOf(reply.id)
    for (const who of ['owner', 'admin', 'moderator', 'member'] as Who[]) {
      const res = await call(c[who], 'PUT', `/api/chat/messages/${original.id}`, { content: 'Hijacked' })
      expect(await expectStatus(res, 403)).toEqual({
        code: 'FORBIDDEN',
        message: 'Only the sender can edit this message',
      })
    }
    const edited = await expectStatus(
      await call(c.creator, 'PUT', `/api/chat/messages/${original.id}`, { content: ' Typo ' }),
      200,
    )
    expect(edited).toMatchObject({ id: original.id, content: 'Typo', is_edited: true })
    const empty = await call(c.creator, 'PUT', `/api/chat/messages/${original.id}`, { content: ' ' })
    expect(await expectStatus(empty, 400)).toMatchObject({ message: 'Message is required' })
    const messages = (await page(c.owner, c.bubleId)).messages as Message[]
    expect(messages.find((m) => m.id === reply.id)?.replyTo).toMatchObject({ content: 'Typo' })
    expect(Number(await versionOf(reply.id))).toBeGreaterThan(Number(replyVersion))
  })

  const DELETE_MATRIX: [string, number][] = [
    ['sender', 204],
    ['owner', 204],
    ['admin', 204],
    ['moderator', 204],
    ['granted', 204],
    ['member', 403],
    ['revoked', 403],
    ['outsider', 404],
  ]
  test.each(DELETE_MATRIX)('delete of the creator’s message by the %s → %i', async (who, status) => {
    const message = await send(c.creator, c.bubleId, { content: `Doomed? ${who}` })
    const actor = who === 'sender' ? c.creator : who === 'granted' ? granted : c[who as Who]
    const body = await expectStatus(await call(actor, 'DELETE', `/api/chat/messages/${message.id}`), status)
    if (status === 403) expect(body).toEqual({ code: 'FORBIDDEN', message: 'You may not delete this message' })
    if (status === 404) expect(body).toEqual(MESSAGE_NOT_FOUND)
    const ids = ((await page(c.owner, c.bubleId, '?limit=100')).messages as Message[]).map((m) => m.id)
    expect(ids.includes(message.id)).toBe(status !== 204)
  })

  test('a revoked grant no longer deletes others’ messages', async () => {
    const k = await club()
    const moderatorish = await person('ex-granted')
    await join(k.owner, k.bubleId, moderatorish)
    await setRole(k.owner, k.bubleId, moderatorish, 'member', ['delete_others_content'])
    await setRole(k.owner, k.bubleId, moderatorish, 'member', ['create_events'])
    const message = await send(k.member, k.bubleId, { content: 'Safe' })
    await expectStatus(await call(moderatorish, 'DELETE', `/api/chat/messages/${message.id}`), 403)
  })

  test('a reply to a deleted message keeps reply_to_id and answers replyTo: null', async () => {
    const original = await send(c.owner, c.bubleId, { content: 'Soon gone' })
    const reply = await send(c.member, c.bubleId, { content: 'Answer', reply_to_id: original.id })
    await expectStatus(await call(c.owner, 'DELETE', `/api/chat/messages/${original.id}`), 204)
    const found = ((await page(c.member, c.bubleId, '?limit=100')).messages as Message[]).find((m) => m.id === reply.id)
    expect(found).toMatchObject({ reply_to_id: original.id, replyTo: null })
    await expectStatus(await call(c.owner, 'DELETE', `/api/chat/messages/${original.id}`), 404)
  })

  test('reactions toggle per type for every type; the message’s version moves', async () => {
    const message = await send(c.creator, c.bubleId, { content: 'React to me' })
    const react = async (who: Person, reactionType: string) =>
      expectStatus(await call(who, 'POST', `/api/chat/messages/${message.id}/reactions`, { reactionType }), 200)
    for (const type of REACTION_TYPES) {
      const before = Number(await versionOf(message.id))
      expect(await react(c.member, type)).toEqual({
        reactions: { [c.member.id]: [type] },
        reactionsSummary: { [type]: 1 },
      })
      expect(Number(await versionOf(message.id))).toBeGreaterThan(before)
      expect(await react(c.member, type)).toEqual({ reactions: {}, reactionsSummary: {} })
    }
    await react(c.member, 'love')
    await react(c.member, 'like')
    expect(await react(c.owner, 'love')).toEqual({
      reactions: { [c.member.id]: ['like', 'love'], [c.owner.id]: ['love'] },
      reactionsSummary: { like: 1, love: 2 },
    })
    const bad = await call(c.member, 'POST', `/api/chat/messages/${message.id}/reactions`, { reactionType: 'meh' })
    expect(bad.status).toBe(400)
  })

  test('paging back from the newest visits all 250 messages once, in order, even with equal timestamps', async () => {
    const k = await club()
    const sent: Message[] = []
    for (let i = 0; i < 250; i++) {
      // Runs of equal created_at, with random ids, so the id decides within a run.
      if (i % 7 === 0) h().clock.advance(1000)
      sent.push(await send(i % 2 ? k.owner : k.member, k.bubleId, { id: randomUUID(), content: `m${i}` }))
    }
    const expected = [...sent]
      .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
      .map((m) => m.id)
    const seen: string[] = []
    let query = '?limit=40'
    let pages = 0
    for (;;) {
      const { messages, hasMore } = await page(k.member, k.bubleId, query)
      pages += 1
      expect(messages.length).toBe(hasMore ? 40 : 250 % 40)
      seen.unshift(...(messages as Message[]).map((m) => m.id))
      if (!hasMore) break
      query = `?limit=40&before=${messages[0].id}`
    }
    expect(pages).toBe(7)
    expect(seen).toEqual(expected)
    const newest = await page(k.member, k.bubleId)
    expect(newest.messages.map((m: Message) => m.id)).toEqual(expected.slice(-50))
    expect(newest.hasMore).toBe(true)
    const oldest = await page(k.member, k.bubleId, `?before=${expected[0]}`)
    expect(oldest).toEqual({ messages: [], hasMore: false })
  })

  test('limit is 1–100; before must be a message of this buble', async () => {
    const k = await club()
    const one = await send(k.member, k.bubleId, { content: 'one' })
    await send(k.member, k.bubleId, { content: 'two' })
    expect(await page(k.member, k.bubleId, '?limit=1')).toMatchObject({ hasMore: true, messages: [{ content: 'two' }] })
    expect((await page(k.member, k.bubleId, '?limit=100')).messages).toHaveLength(2)
    for (const limit of ['0', '101', 'x', '-1', '1.5']) {
      const res = await call(k.member, 'GET', `/api/chat/${k.bubleId}/messages?limit=${limit}`)
      expect(res.status, limit).toBe(400)
    }
    const bad = await call(k.member, 'GET', `/api/chat/${k.bubleId}/messages?before=nope`)
    expect(bad.status).toBe(400)
    const elsewhere = await send(c.member, c.bubleId, { content: 'elsewhere' })
    for (const before of [elsewhere.id, randomUUID()]) {
      const res = await call(k.member, 'GET', `/api/chat/${k.bubleId}/messages?before=${before}`)
      expect(await expectStatus(res, 404)).toEqual(MESSAGE_NOT_FOUND)
    }
    expect(await page(k.member, k.bubleId, `?before=${one.id.toUpperCase()}`)).toEqual({ messages: [], hasMore: false })
  })

  test('outsiders and non-UUID ids get 404 everywhere', async () => {
    const message = await send(c.member, c.bubleId, { content: 'Members only' })
    const buble = `/api/chat/${c.bubleId}/messages`
    await expectNotFound(c.outsider, [
      ['GET', buble],
      ['POST', buble, { content: 'hi' }],
      ['GET', '/api/chat/not-a-uuid/messages'],
    ])
    for (const [method, body] of [
      ['PUT', { content: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      expect(await expectStatus(await call(c.outsider, method, `/api/chat/messages/${message.id}`, body), 404)).toEqual(
        MESSAGE_NOT_FOUND,
      )
      expect(await expectStatus(await call(c.member, method, '/api/chat/messages/42', body), 404)).toEqual(
        MESSAGE_NOT_FOUND,
      )
    }
    const reaction = { reactionType: 'like' }
    expect(
      await expectStatus(await call(c.outsider, 'POST', `/api/chat/messages/${message.id}/reactions`, reaction), 404),
    ).toEqual(MESSAGE_NOT_FOUND)
    expect(await expectStatus(await call(c.outsider, 'GET', buble), 404)).toEqual(BUBLE_NOT_FOUND)
  })

  test('sync: chat.send pushed twice is one message; pulls bring puts with replyTo and a del after delete', async () => {
    const k = await club()
    const { cursor } = await pullAll(h(), k.member.token)
    const original = await send(k.owner, k.bubleId, { content: 'Question' })
    const id = randomUUID()
    const sendIt = mutation('chat.send', { id, buble_id: k.bubleId, content: 'Answer', reply_to_id: original.id })
    const [first] = await push(h(), k.member.token, [sendIt])
    const [second] = await push(h(), k.member.token, [sendIt])
    const [third] = await push(h(), k.member.token, [
      mutation('chat.send', { id, buble_id: k.bubleId, content: 'Answer again' }),
    ])
    expect([first?.status, second?.status, third?.status]).toEqual(['applied', 'duplicate', 'applied'])
    expect((await page(k.owner, k.bubleId)).messages.map((m: Message) => m.content)).toEqual(['Question', 'Answer'])
    const pulled = await pullAll(h(), k.owner.token, cursor)
    const put = pulled.changes.find((change) => change.entity === 'chat_message' && change.id === id)
    expect(put).toMatchObject({
      op: 'put',
      data: { content: 'Answer', replyTo: { id: original.id, content: 'Question' } },
    })
    const results = await push(h(), k.member.token, [
      mutation('chat.react', { message_id: original.id, reactionType: 'wow' }),
      mutation('chat.edit', { id, content: 'Answer!' }),
      mutation('chat.edit', { id: original.id, content: 'Not mine' }),
    ])
    expect(results.map((r) => r.status)).toEqual(['applied', 'applied', 'rejected'])
    await push(h(), k.owner.token, [mutation('chat.delete', { id: original.id })])
    const after = await pullAll(h(), k.member.token, pulled.cursor)
    const changes = after.changes.filter((change) => change.entity === 'chat_message')
    expect(changes).toContainEqual(expect.objectContaining({ op: 'del', id: original.id }))
    expect(changes).toContainEqual(
      expect.objectContaining({ op: 'put', id, data: expect.objectContaining({ content: 'Answer!', replyTo: null }) }),
    )
  })

  test('unread chat counts others’ messages only', async () => {
    const k = await club()
    const unread = async (who: Person) =>
      (await expectStatus(await call(who, 'GET', `/api/unread/buble/${k.bubleId}`), 200)).find(
        (counter: { contentType: string }) => counter.contentType === 'chat',
      )?.unreadCount
    expect(await unread(k.member)).toBe(0)
    await send(k.owner, k.bubleId, { content: 'one' })
    await send(k.owner, k.bubleId, { content: 'two' })
    await send(k.member, k.bubleId, { content: 'mine' })
    expect(await unread(k.member)).toBe(2)
    expect(await unread(k.owner)).toBe(1)
    await push(h(), k.member.token, [mutation('unread.read', { buble_id: k.bubleId, contentType: 'chat' })])
    expect(await unread(k.member)).toBe(0)
  })
})
