import type { ChatMessage } from '@buble/shared/chat'
import { OPTIMISTIC } from '@buble/shared/device'
import type { LocalRow, RowStore } from '@buble/shared/device-rows'
import type { MutationArgs, MutationName } from '@buble/shared/mutations'
import { applyPulled, recordMutation, rememberServerChanges, settleResults } from '@buble/sync/client/replica'
import { AT, alice, B1, bob, memoryStore } from '@buble/sync/client/test-kit'
import type { Change, PullResponse } from '@buble/sync/protocol'
import { afterEach, describe, expect, test } from 'vitest'
import { applyOptimistic, testDb } from '../../test/device-kit.ts'
import type { DeviceDb } from '../device-db.ts'

const M1 = '0192b3c4-0000-7000-8000-0000000000c1'
const M2 = '0192b3c4-0000-7000-8000-0000000000c2'
const bobRef = { id: bob.id, name: bob.name, avatar_url: null }

/** A message as the server sends it: Bob wrote it, Bob likes it. */
const serverMessage = (extra: Partial<ChatMessage> = {}): LocalRow => ({
  id: M1,
  buble_id: B1,
  content: 'Hi all',
  type: 'text',
  image_url: null,
  sender: bobRef,
  created_at: AT,
  is_edited: false,
  reply_to_id: null,
  replyTo: null,
  reactions: { [bob.id]: ['like'] },
  reactionsSummary: { like: 1 },
  ...extra,
})

const seeded = () => memoryStore([{ table: 'chat_messages', row: serverMessage() }])

/** Runs a change as the replica does: settled once, then applied. */
async function apply<N extends MutationName>(store: RowStore, name: N, args: MutationArgs<N>, settled?: unknown) {
  const optimistic = OPTIMISTIC[name] as { settle?(s: RowStore, a: unknown, actor: typeof alice): Promise<unknown> }
  const fixed = settled ?? (await optimistic.settle?.(store, args, alice))
  await applyOptimistic(store, name, args, alice, AT, fixed)
  return fixed
}

describe('applying a chat change twice is the same as once', () => {
  test.each<[MutationName, Record<string, unknown>]>([
    ['chat.send', { id: M2, buble_id: B1, content: 'Hello', type: 'text', reply_to_id: M1 }],
    ['chat.edit', { id: M1, content: 'Hi everyone' }],
    ['chat.delete', { id: M1 }],
    ['chat.react', { message_id: M1, reactionType: 'love' }],
    ['chat.react', { message_id: M1, reactionType: 'like' }],
  ])('%s %o', async (name, args) => {
    const once = seeded()
    const before = once.snapshot()
    const settled = await apply(once.store, name, args as never)
    const twice = seeded()
    await apply(twice.store, name, args as never, settled)
    await apply(twice.store, name, args as never, settled)
    expect(twice.snapshot()).toEqual(once.snapshot())
    expect(once.snapshot()).not.toEqual(before)
  })
})

describe('what each chat change does', () => {
  test('a sent message has the server’s shape, from the actor, quoting the message it answers, pending', async () => {
    const { store } = seeded()
    await apply(store, 'chat.send', { id: M2, buble_id: B1, content: 'Hello', type: 'text', reply_to_id: M1 })
    expect(await store.get('chat_messages', M2)).toEqual({
      id: M2,
      buble_id: B1,
      content: 'Hello',
      type: 'text',
      image_url: null,
      sender: { id: alice.id, name: alice.name, avatar_url: null },
      created_at: AT,
      is_edited: false,
      reply_to_id: M1,
      replyTo: { id: M1, content: 'Hi all', sender: bobRef },
      reactions: {},
      reactionsSummary: {},
      _pending: true,
    })
  })

  test('an image message carries its image; a reply to a message not on the device has no quote yet', async () => {
    const { store } = memoryStore()
    const image = '/api/uploads/images/b1/cat.jpg'
    await apply(store, 'chat.send', {
      id: M2,
      buble_id: B1,
      content: '',
      type: 'image',
      image_url: image,
      reply_to_id: M1,
    })
    expect(await store.get('chat_messages', M2)).toMatchObject({ type: 'image', image_url: image, replyTo: null })
  })

  test('an edit sets the text, marks it edited and pending; a delete removes the message', async () => {
    const { store } = seeded()
    await apply(store, 'chat.edit', { id: M1, content: 'Hi everyone' })
    expect(await store.get('chat_messages', M1)).toEqual({
      ...serverMessage(),
      content: 'Hi everyone',
      is_edited: true,
      _pending: true,
    })
    await apply(store, 'chat.delete', { id: M1 })
    expect(await store.get('chat_messages', M1)).toBeUndefined()
  })

  test('a reaction toggles the actor’s type, keeps others’, recounts, and does not mark the message pending', async () => {
    const { store } = seeded()
    await apply(store, 'chat.react', { message_id: M1, reactionType: 'like' })
    expect(await store.get('chat_messages', M1)).toEqual({
      ...serverMessage(),
      reactions: { [bob.id]: ['like'], [alice.id]: ['like'] },
      reactionsSummary: { like: 2 },
    })
    await apply(store, 'chat.react', { message_id: M1, reactionType: 'love' })
    await apply(store, 'chat.react', { message_id: M1, reactionType: 'like' })
    expect(await store.get('chat_messages', M1)).toMatchObject({
      reactions: { [bob.id]: ['like'], [alice.id]: ['love'] },
      reactionsSummary: { like: 1, love: 1 },
    })
  })
})

// Through the real replica: every pull re-applies what is pending over the server's rows.
describe('chat over pulls and refusals', () => {
  let dbs: DeviceDb[] = []
  afterEach(() => {
    for (const db of dbs) db.close()
    dbs = []
  })
  let seq = 0
  const put = (row: LocalRow): Change => ({ entity: 'chat_message', op: 'put', id: row.id, buble_id: B1, data: row })
  const page = (changes: Change[], hasMore = false): PullResponse => ({ cursor: `c${++seq}`, hasMore, changes })
  const mutate = async <N extends MutationName>(db: DeviceDb, name: N, args: MutationArgs<N>) => {
    const id = `0192b3c4-0000-7000-8000-${String(++seq).padStart(12, '0')}`
    await recordMutation(db, { id, name, args, createdAt: AT, actor: alice })
    return id
  }
  const device = async () => {
    const db = testDb()
    dbs.push(db)
    await applyPulled(db, page([put(serverMessage())]))
    return db
  }
  const aliceLoves = { [bob.id]: ['like'], [alice.id]: ['love'] } as ChatMessage['reactions']

  test('a reaction made offline shows once however often the server’s message arrives, before and after it counts it', async () => {
    const db = await device()
    await mutate(db, 'chat.react', { message_id: M1, reactionType: 'love' })
    // Before the server has it, then (answered, pull not finished) with the server counting it already.
    for (const pulled of [
      page([put(serverMessage({ content: 'Hi all!' }))]),
      page([]),
      page([put(serverMessage({ reactions: aliceLoves, reactionsSummary: { like: 1, love: 1 } }))], true),
    ]) {
      await applyPulled(db, pulled)
      expect(await db.chat_messages.get(M1)).toMatchObject({
        reactions: aliceLoves,
        reactionsSummary: { like: 1, love: 1 },
      })
    }
    // A REST answer bringing the server's row, too.
    await rememberServerChanges(db, [
      put(serverMessage({ reactions: aliceLoves, reactionsSummary: { like: 1, love: 1 } })),
    ])
    expect((await db.chat_messages.get(M1))?.reactions).toEqual(aliceLoves)
  })

  test('taking a reaction back offline stays taken back when the server’s row without it arrives', async () => {
    const db = await device()
    await mutate(db, 'chat.react', { message_id: M1, reactionType: 'love' })
    await mutate(db, 'chat.react', { message_id: M1, reactionType: 'love' })
    expect((await db.chat_messages.get(M1))?.reactions).toEqual({ [bob.id]: ['like'] })
    await applyPulled(
      db,
      page([put(serverMessage({ reactions: aliceLoves, reactionsSummary: { like: 1, love: 1 } }))], true),
    )
    await applyPulled(db, page([put(serverMessage())], true))
    expect(await db.chat_messages.get(M1)).toMatchObject({
      reactions: { [bob.id]: ['like'] },
      reactionsSummary: { like: 1 },
    })
    expect((await db.outbox.toArray()).map((entry) => entry.settled)).toEqual([{ on: true }, { on: false }])
  })

  test('a message sent offline shows at once, pending, and once the server has it, the server’s row', async () => {
    const db = await device()
    const sent = await mutate(db, 'chat.send', { id: M2, buble_id: B1, content: 'Hello', type: 'text' })
    expect(await db.chat_messages.get(M2)).toMatchObject({ content: 'Hello', _pending: true })
    await settleResults(db, [{ id: sent, status: 'applied' }], AT)
    const server = serverMessage({
      id: M2,
      content: 'Hello',
      sender: { id: alice.id, name: alice.name, avatar_url: null },
    })
    await applyPulled(db, page([put(server)]))
    expect(await db.chat_messages.get(M2)).toEqual(server)
    expect(await db.outbox.count()).toBe(0)
  })

  test('a refused send is undone and kept with its text; a refused reaction is undone', async () => {
    const db = await device()
    const sent = await mutate(db, 'chat.send', { id: M2, buble_id: B1, content: 'Hello', type: 'text' })
    const reacted = await mutate(db, 'chat.react', { message_id: M1, reactionType: 'like' })
    await settleResults(
      db,
      [
        { id: sent, status: 'rejected', code: 'FORBIDDEN', message: 'No' },
        { id: reacted, status: 'rejected', code: 'NOT_FOUND', message: 'Message not found' },
      ],
      AT,
    )
    expect(await db.chat_messages.get(M2)).toBeUndefined()
    expect(await db.chat_messages.get(M1)).toEqual(serverMessage())
    expect((await db.rejections.get(sent))?.args).toMatchObject({ content: 'Hello' })
  })
})
