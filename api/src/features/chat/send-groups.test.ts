import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { v7 as uuidv7 } from 'uuid'
import { beforeAll, describe, expect, test, vi } from 'vitest'
import type { Db } from '../../db/client.ts'
import { users } from '../../db/schema.ts'
import type { UserRow } from '../../lib/accounts.ts'
import type { ContentAdded } from '../../lib/content-added.ts'
import { createContentAddedBus } from '../../lib/content-added.ts'
import type { Logger } from '../../lib/log.ts'
import { createPokeClock } from '../../lib/poke-clock.ts'
import { rowsOf } from '../../lib/sql-json.ts'
import { backends } from '../../testing/databases.ts'
import { pullAll } from '../../testing/sync.ts'
import { type Club, clubSuite, type Person } from '../../testing/test-club.ts'
import { createSendGroups, type QueuedSend } from './send-batch.ts'
import { chatService } from './service.ts'

/**
 * Group commit of chat sends (send-batch.ts): messages sent at the same time are written together
 * in one statement and one commit, each exactly once, and every one the group cannot write (an
 * outsider, an id already used, a reply elsewhere, a duplicate in the same group) gets the answer
 * it gets alone.
 */

type Message = { id: string; buble_id: string; content: string; reply_to_id: string | null }

describe.each(backends())('chat sends in groups on %s', (backend) => {
  const { h, call, club, expectStatus } = clubSuite(backend)

  let c: Club
  let k: Club
  beforeAll(async () => {
    c = await club()
    k = await club()
  })

  const post = (who: Person, bubleId: string, body: Record<string, unknown>) =>
    call(who, 'POST', `/api/chat/${bubleId}/messages`, body)

  test('sent at once: each written once, in fewer commits than messages, each refused one answered as alone', async () => {
    const heard: ContentAdded[] = []
    const stop = h().services.contentAdded.listen((added) => heard.push(added))
    const elsewhere = (await expectStatus(await post(k.owner, k.bubleId, { content: 'In k' }), 201)) as Message
    const original = (await expectStatus(await post(c.owner, c.bubleId, { content: 'Original' }), 201)) as Message
    const takenByOther = uuidv7()
    await expectStatus(await post(c.admin, c.bubleId, { id: takenByOther, content: 'Mine' }), 201)
    heard.length = 0
    try {
      const twice = uuidv7()
      const plain = Array.from({ length: 24 }, (_, i) => ({
        who: i % 2 === 0 ? c.member : c.moderator,
        bubleId: c.bubleId,
        body: { id: uuidv7(), content: `Hej ${i}` },
      }))
      const inK = Array.from({ length: 6 }, (_, i) => ({
        who: k.member,
        bubleId: k.bubleId,
        body: { id: uuidv7(), content: `Hallå ${i}` },
      }))
      const sends = [
        ...plain,
        ...inK,
        { who: c.member, bubleId: c.bubleId, body: { id: twice, content: 'Twice' } },
        { who: c.member, bubleId: c.bubleId, body: { id: twice, content: 'Twice' } },
        { who: c.member, bubleId: c.bubleId, body: { content: 'A reply', reply_to_id: original.id } },
        { who: c.outsider, bubleId: c.bubleId, body: { content: 'Let me in' } },
        { who: c.member, bubleId: c.bubleId, body: { content: 'Reply elsewhere', reply_to_id: elsewhere.id } },
        { who: c.member, bubleId: c.bubleId, body: { id: takenByOther, content: 'Not mine' } },
      ]
      const answers = await Promise.all(
        sends.map(async ({ who, bubleId, body }) => {
          const res = await post(who, bubleId, body)
          return { status: res.status, body: await res.json() }
        }),
      )
      const written = answers.slice(0, 30)
      for (const [i, answer] of written.entries()) {
        const { body } = [...plain, ...inK][i]!
        expect(answer.status).toBe(201)
        expect(answer.body).toMatchObject({ id: body.id, content: body.content })
      }
      // The same id twice: one made it (201), the other answers that message (200).
      const pair = answers.slice(30, 32)
      expect(pair.map((a) => a.status).sort()).toEqual([200, 201])
      expect(pair[0]!.body).toEqual(pair[1]!.body)
      expect(answers[32]).toMatchObject({
        status: 201,
        body: { reply_to_id: original.id, replyTo: { id: original.id } },
      })
      expect(answers[33]).toEqual({ status: 404, body: { code: 'NOT_FOUND', message: 'Buble not found' } })
      expect(answers[34]).toMatchObject({
        status: 400,
        body: { code: 'VALIDATION_ERROR', message: 'reply_to_id must be a message of this buble' },
      })
      expect(answers[35]).toEqual({ status: 409, body: { code: 'CONFLICT', message: 'This id is already in use' } })

      // Exactly once each, in fewer transactions than messages (rows of one commit share its xmin).
      const ids = [
        ...written.map((a) => a.body.id as string),
        pair[0]!.body.id as string,
        answers[32]!.body.id as string,
      ]
      const rows = rowsOf<{ id: string; xmin: string; version: string; changed: string }>(
        await h().database.db.execute(
          sql`select m.id, m.xmin::text as xmin, m.version::text as version, b.changed_version::text as changed
            from chat_messages m join bubles b on b.id = m.buble_id where m.id = any(${`{${ids.join(',')}}`}::uuid[])`,
        ),
      )
      expect(rows).toHaveLength(ids.length)
      expect(new Set(rows.map((row) => row.version)).size).toBe(ids.length)
      expect(new Set(rows.map((row) => row.xmin)).size).toBeLessThan(ids.length)
      // Each buble's stamp covers its newest message, so a pull does not skip it as quiet.
      for (const row of rows) expect(Number(row.changed)).toBeGreaterThanOrEqual(Number(row.version))

      // Every member's device pulls each message once; the page shows each once.
      const { changes } = await pullAll(h(), c.revoked.token)
      const pulled = changes.filter((change) => change.entity === 'chat_message' && change.op === 'put')
      const cIds = ids.filter((id) => !inK.some((send) => send.body.id === id))
      for (const id of cIds) expect(pulled.filter((change) => change.id === id)).toHaveLength(1)
      const page = (await expectStatus(await call(c.revoked, 'GET', `/api/chat/${c.bubleId}/messages?limit=100`), 200))
        .messages as Message[]
      for (const id of cIds) expect(page.filter((message) => message.id === id)).toHaveLength(1)
      expect(page.some((message) => message.content === 'Let me in' || message.content === 'Not mine')).toBe(false)

      // Web Push hears each written message once, and nothing of the refused ones.
      await new Promise((resolve) => setImmediate(resolve))
      expect(heard).toHaveLength(ids.length)
      expect(new Set(heard.map((added) => added.body)).size).toBe(ids.length)
      expect(heard.every((added) => added.contentType === 'chat')).toBe(true)
    } finally {
      stop()
    }
  })

  test('a member who leaves while sending is either refused with 404 or kept, never both; the others land', async () => {
    const kit = await club()
    const { revoked } = kit
    // Sent together with their leaving: the group checks membership in its own statement.
    const removal = call(revoked, 'DELETE', `/api/bubles/${kit.bubleId}/members/${revoked.id}`)
    const [removed, theirs, ours] = await Promise.all([
      removal,
      post(revoked, kit.bubleId, { content: 'Still here?' }),
      post(kit.member, kit.bubleId, { content: 'Yes' }),
    ])
    expect(removed.status).toBe(204)
    expect([201, 404]).toContain(theirs.status)
    expect(ours.status).toBe(201)
    const page = (await expectStatus(await call(kit.owner, 'GET', `/api/chat/${kit.bubleId}/messages`), 200))
      .messages as Message[]
    // Written only if it was sent before the removal: never answered 404 and kept, nor 201 and lost.
    expect(page.some((message) => message.content === 'Still here?')).toBe(theirs.status === 201)
  })

  test('a message that a failed group leaves to the one-message path keeps the time it arrived', async () => {
    const { deps, database } = h()
    const arrived = new Date('2031-03-04T05:06:07.000Z')
    let readings = 0
    // The first reading of the clock is the arrival; any later one (the retry) is a minute on.
    const now = () => (readings++ === 0 ? arrived : new Date(arrived.getTime() + 60_000))
    const failing = { execute: vi.fn().mockRejectedValue(new Error('connection reset')) } as unknown as Db
    const chat = chatService(
      { ...deps, now, database: { ...database, groupDb: failing } },
      { isBubleImage: async () => false, forgetFiles: async () => {}, contentAdded: createContentAddedBus() },
      createPokeClock(deps.bus),
    )
    try {
      const [sender] = await deps.db.select().from(users).where(eq(users.id, c.member.id))
      const { value, created } = await chat.send(sender!, c.bubleId, { content: 'Sent alone', type: 'text' })
      expect(failing.execute).toHaveBeenCalledTimes(1)
      expect(created).toBe(true)
      expect(value.created_at).toBe(arrived.toISOString())
      expect(readings).toBe(1)
    } finally {
      chat.close()
    }
  })
})

describe('send groups without a database', () => {
  const user = { id: randomUUID(), name: 'Ann' } as UserRow
  const queued = (id = uuidv7()): QueuedSend => ({
    user,
    bubleId: randomUUID(),
    id,
    body: { content: 'Hej', type: 'text' },
    at: new Date(),
  })
  const logger = () =>
    ({ warn: vi.fn(), error: vi.fn(), info: vi.fn(), debug: vi.fn() }) as unknown as Logger & {
      warn: ReturnType<typeof vi.fn>
    }

  test('a group whose statement fails sends each alone and announces nothing', async () => {
    const log = logger()
    const contentAdded = createContentAddedBus()
    const heard: ContentAdded[] = []
    contentAdded.listen((added) => heard.push(added))
    const db = { execute: vi.fn().mockRejectedValue(new Error('connection reset')) } as unknown as Db
    const groups = createSendGroups(db, log, { contentAdded, notificationText: (body) => body.content })
    const outcomes = await Promise.all([groups.send(queued()), groups.send(queued()), groups.send(queued())])
    expect(outcomes).toEqual(['single', 'single', 'single'])
    expect(db.execute).toHaveBeenCalledTimes(1)
    expect(log.warn).toHaveBeenCalledWith('a group of chat messages failed; each is sent alone', expect.anything())
    expect(heard).toEqual([])
  })

  test('the next group waits for the one being written, and takes everything sent meanwhile', async () => {
    const log = logger()
    const releases: (() => void)[] = []
    const groupSizes: number[] = []
    const db = {
      execute: vi.fn(
        () =>
          new Promise((resolve) => {
            releases.push(() => resolve({ rows: [] }))
          }),
      ),
    } as unknown as Db
    const groups = createSendGroups(db, log, {
      contentAdded: createContentAddedBus(),
      notificationText: (body) => body.content,
    })
    const spy = vi.mocked(db.execute)
    const first = groups.send(queued())
    await vi.waitFor(() => expect(spy).toHaveBeenCalledTimes(1))
    const later = [groups.send(queued()), groups.send(queued()), groups.send(queued())]
    await new Promise((resolve) => setTimeout(resolve, 20))
    // Still one statement: the three wait for the first group.
    expect(spy).toHaveBeenCalledTimes(1)
    releases.shift()!()
    await first
    await vi.waitFor(() => expect(spy).toHaveBeenCalledTimes(2))
    for (const call of spy.mock.calls) groupSizes.push(JSON.stringify(call).split('"sender_id').length - 1)
    releases.shift()!()
    // Nothing came back from the (fake) statement: each goes the one-message path.
    expect(await Promise.all(later)).toEqual(['single', 'single', 'single'])
    expect(groupSizes).toEqual([1, 3])
  })
})
