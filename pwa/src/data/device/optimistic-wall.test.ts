import type { LocalRow, RowStore } from '@buble/shared/device-rows'
import type { MutationArgs, MutationName } from '@buble/shared/mutations'
import { SyncEngine } from '@buble/sync/client/engine'
import { applyPulled } from '@buble/sync/client/replica'
import { AT, alice, B1, bob, manualClock, memoryStore, scriptedTransport } from '@buble/sync/client/test-kit'
import type { Change, PullResponse } from '@buble/sync/protocol'
import { afterEach, describe, expect, test } from 'vitest'
import { applyOptimistic, testDb } from '../../test/device-kit.ts'
import type { DeviceDb } from '../device-db.ts'

const P1 = '0192b3c4-0000-7000-8000-0000000000f1'
const P2 = '0192b3c4-0000-7000-8000-0000000000f2'
const C1 = '0192b3c4-0000-7000-8000-0000000000c1'
const C2 = '0192b3c4-0000-7000-8000-0000000000c2'

/** A post as the server sends it. */
const serverPost = (id: string, extra: Record<string, unknown> = {}): LocalRow => ({
  id,
  buble_id: B1,
  content: 'Hello',
  author_id: bob.id,
  author_name: bob.name,
  author: { id: bob.id, name: bob.name, avatar_url: null },
  created_at: AT,
  is_edited: false,
  image_url: null,
  link_url: null,
  link_title: null,
  link_description: null,
  link_image: null,
  reactions: {},
  reactionsSummary: {},
  commentsCount: 0,
  ...extra,
})

const serverComment = (id: string, postId = P1): LocalRow => ({
  id,
  post_id: postId,
  buble_id: B1,
  content: 'A comment',
  author: { id: bob.id, name: bob.name, avatar_url: null },
  author_name: bob.name,
  created_at: AT,
  isEdited: false,
})

const apply = <N extends MutationName>(store: RowStore, name: N, args: MutationArgs<N>, actor = alice) =>
  applyOptimistic(store, name, args, actor, AT)

const seeded = () =>
  memoryStore([
    { table: 'posts', row: serverPost(P1, { commentsCount: 1, reactions: { [bob.id]: ['like'] } }) },
    { table: 'comments', row: serverComment(C1) },
  ])

describe('applying a wall change twice is the same as once', () => {
  test.each<[string, MutationName, Record<string, unknown>]>([
    ['post.create', 'post.create', { id: P2, buble_id: B1, content: 'New post' }],
    ['post.update', 'post.update', { id: P1, content: 'Edited' }],
    ['post.delete', 'post.delete', { id: P1 }],
    ['comment.create', 'comment.create', { id: C2, post_id: P1, content: 'Me too' }],
    ['comment.update', 'comment.update', { id: C1, content: 'Edited comment' }],
    ['comment.delete', 'comment.delete', { id: C1 }],
    ['reaction.add', 'reaction.add', { post_id: P1, reactionType: 'love' }],
    ['reaction.remove', 'reaction.remove', { post_id: P1, reactionType: 'like' }],
    ['post.pin', 'post.pin', { id: P1 }],
  ])('%s', async (_name, name, args) => {
    const once = seeded()
    await apply(once.store, name, args as never)
    const twice = seeded()
    await apply(twice.store, name, args as never)
    await apply(twice.store, name, args as never)
    expect(twice.snapshot()).toEqual(once.snapshot())
    expect(once.snapshot()).not.toEqual(seeded().snapshot())
  })
})

describe('what each wall change does', () => {
  test('a pin marks the post pinned at the time it was made, not again on a re-run; an unpin clears it', async () => {
    const { store } = seeded()
    await applyOptimistic(store, 'post.pin', { id: P1 }, alice, AT)
    await applyOptimistic(store, 'post.pin', { id: P1 }, alice, '2030-01-01T00:00:00.000Z')
    expect(await store.get('posts', P1)).toMatchObject({ pinned_at: AT })
    await apply(store, 'post.unpin', { id: P1 })
    expect(await store.get('posts', P1)).toMatchObject({ pinned_at: null })
  })

  test('a new post is the actor’s, pending, with no reactions, comments or preview yet', async () => {
    const { store } = memoryStore()
    await apply(store, 'post.create', {
      id: P2,
      buble_id: B1,
      content: 'See https://example.com',
      image_url: '/api/uploads/secure/a.webp',
    })
    expect(await store.get('posts', P2)).toEqual({
      id: P2,
      buble_id: B1,
      content: 'See https://example.com',
      author_id: alice.id,
      author_name: alice.name,
      author: { id: alice.id, name: alice.name, avatar_url: null },
      created_at: AT,
      is_edited: false,
      image_url: '/api/uploads/secure/a.webp',
      link_url: null,
      link_title: null,
      link_description: null,
      link_image: null,
      reactions: {},
      reactionsSummary: {},
      commentsCount: 0,
      pinned_at: null,
      _pending: true,
    })
  })

  test('a create re-applied over the server’s post keeps the server’s (with its preview)', async () => {
    const { store } = memoryStore([{ table: 'posts', row: serverPost(P2, { link_title: 'Example' }) }])
    await apply(store, 'post.create', { id: P2, buble_id: B1, content: 'Hello' })
    expect(await store.get('posts', P2)).toEqual(serverPost(P2, { link_title: 'Example' }))
  })

  test('an edit sets the text and the edited mark', async () => {
    const { store } = seeded()
    await apply(store, 'post.update', { id: P1, content: 'Edited' })
    expect(await store.get('posts', P1)).toMatchObject({ content: 'Edited', is_edited: true, _pending: true })
  })

  test('a comment is filed under its post’s buble and raises the count; without the post, nothing happens', async () => {
    const { store } = seeded()
    await apply(store, 'comment.create', { id: C2, post_id: P1, content: 'Me too' })
    expect(await store.get('comments', C2)).toMatchObject({
      post_id: P1,
      buble_id: B1,
      content: 'Me too',
      author: { id: alice.id, name: alice.name },
      isEdited: false,
      _pending: true,
    })
    expect(await store.get('posts', P1)).toMatchObject({ commentsCount: 2 })

    const empty = memoryStore()
    await apply(empty.store, 'comment.create', { id: C2, post_id: P2, content: 'Lost' })
    expect(empty.snapshot()).toEqual({})
  })

  test('deleting a comment lowers the count once; deleting one that is gone changes nothing', async () => {
    const { store } = seeded()
    await apply(store, 'comment.delete', { id: C1 })
    expect(await store.get('comments', C1)).toBeUndefined()
    expect(await store.get('posts', P1)).toMatchObject({ commentsCount: 0 })
    await apply(store, 'comment.delete', { id: '0192b3c4-0000-7000-8000-0000000000c9' })
    expect(await store.get('posts', P1)).toMatchObject({ commentsCount: 0 })
  })

  test('reactions are a set per person, and the summary is counted from them', async () => {
    const { store } = seeded()
    await apply(store, 'reaction.add', { post_id: P1, reactionType: 'wow' })
    await apply(store, 'reaction.add', { post_id: P1, reactionType: 'like' })
    expect(await store.get('posts', P1)).toMatchObject({
      reactions: { [bob.id]: ['like'], [alice.id]: ['like', 'wow'] },
      reactionsSummary: { like: 2, wow: 1 },
    })
    await apply(store, 'reaction.remove', { post_id: P1, reactionType: 'like' })
    await apply(store, 'reaction.remove', { post_id: P1, reactionType: 'wow' })
    const row = await store.get('posts', P1)
    expect(row?.reactions).toEqual({ [bob.id]: ['like'] })
    expect(row?.reactionsSummary).toEqual({ like: 1 })
  })
})

// Through the real replica: every pull re-applies what is pending over the server's rows.
describe('comment counts over pulls and refusals', () => {
  let dbs: DeviceDb[] = []
  let engines: SyncEngine[] = []
  afterEach(() => {
    for (const engine of engines) engine.stop()
    for (const db of dbs) db.close()
    dbs = []
    engines = []
  })

  const put = (entity: 'post' | 'comment', row: LocalRow): Change => ({
    entity,
    op: 'put',
    id: row.id,
    buble_id: B1,
    data: row,
  })
  const del = (entity: 'post' | 'comment', id: string): Change => ({ entity, op: 'del', id, buble_id: B1 })
  let cursor = 0
  const page = (...changes: Change[]): PullResponse => ({ cursor: `c${++cursor}`, hasMore: false, changes })

  function device(script: Parameters<typeof scriptedTransport>[0] = {}, online = true) {
    const db = testDb()
    dbs.push(db)
    const clock = manualClock()
    const scripted = scriptedTransport(script)
    const engine = new SyncEngine({
      db,
      transport: scripted.transport,
      actor: () => alice,
      timers: clock.timers,
      now: clock.now,
      random: () => 1,
      intervalMs: 0,
      isOnline: () => online,
    })
    engines.push(engine)
    return { db, engine, ...scripted }
  }

  const countOf = async (db: DeviceDb) => (await db.posts.get(P1))?.commentsCount

  test('while offline, pulls that re-apply a new comment and a deletion leave the count where it was', async () => {
    const { db, engine } = device({}, false)
    await applyPulled(db, page(put('post', serverPost(P1, { commentsCount: 1 })), put('comment', serverComment(C1))))
    await engine.mutate('comment.create', { id: C2, post_id: P1, content: 'Me too' })
    expect(await countOf(db)).toBe(2)
    await engine.mutate('comment.delete', { id: C1 })
    expect(await countOf(db)).toBe(1)
    // Others' changes arrive: the post itself (a reaction, say), or only other rows.
    const others = serverPost(P2)
    for (const pulled of [
      page(put('post', others)),
      page(put('post', serverPost(P1, { commentsCount: 1, reactionsSummary: { like: 1 } }))),
      page(put('post', others)),
      page(),
    ]) {
      await applyPulled(db, pulled)
      expect(await countOf(db)).toBe(1)
      expect(await db.comments.get(C1)).toBeUndefined()
      expect(await db.comments.get(C2)).toMatchObject({ _pending: true })
    }
  })

  test('a deletion waiting alone is subtracted once: pulls restore the comment, not the post', async () => {
    const { db, engine } = device({}, false)
    await applyPulled(db, page(put('post', serverPost(P1, { commentsCount: 2 })), put('comment', serverComment(C1))))
    await engine.mutate('comment.delete', { id: C1 })
    expect(await countOf(db)).toBe(1)
    for (const pulled of [page(put('post', serverPost(P2))), page(), page(put('comment', serverComment(C2)))]) {
      await applyPulled(db, pulled)
      expect(await countOf(db)).toBe(1)
    }
    // The server's own post row (it has not seen the deletion yet) is counted down once too.
    await applyPulled(db, page(put('post', serverPost(P1, { commentsCount: 2, content: 'Edited' }))))
    expect(await db.posts.get(P1)).toMatchObject({ commentsCount: 1, content: 'Edited' })
    await applyPulled(db, page())
    expect(await countOf(db)).toBe(1)
    // Once the server has deleted it, its rows are the truth.
    await applyPulled(db, page(put('post', serverPost(P1, { commentsCount: 1 })), del('comment', C1)))
    expect(await countOf(db)).toBe(1)
  })

  test('an answered comment re-applied over the server’s rows (mid-pull) is not counted again', async () => {
    let pulls = 0
    let midPull: unknown
    const { db, engine } = device({
      push: (body) => ({ results: body.mutations.map((m) => ({ id: m.id, status: 'applied' as const })) }),
      pull: async () => {
        pulls += 1
        if (pulls === 1)
          return {
            ...page(put('post', serverPost(P1, { commentsCount: 2 })), put('comment', serverComment(C2))),
            hasMore: true,
          }
        // Between the pages the answered create is still re-applied, now over the server's rows.
        midPull = await countOf(db)
        return page()
      },
    })
    await applyPulled(db, page(put('post', serverPost(P1, { commentsCount: 1 })), put('comment', serverComment(C1))))
    await engine.mutate('comment.create', { id: C2, post_id: P1, content: 'Me too' })
    await engine.settled()
    expect(midPull).toBe(2)
    expect(await countOf(db)).toBe(2)
    expect(await db.outbox.count()).toBe(0)
    expect((await db.comments.get(C2))?._pending).toBeUndefined()
    expect(await db.shadows.count()).toBe(0)
  })

  test('a refused comment is taken off the count again', async () => {
    const { db, engine } = device({
      pull: () => page(),
      push: (body) => ({
        results: body.mutations.map((m) => ({
          id: m.id,
          status: 'rejected' as const,
          code: 'NOT_FOUND',
          message: 'Gone',
        })),
      }),
    })
    await applyPulled(db, page(put('post', serverPost(P1, { commentsCount: 1 }))))
    await engine.mutate('comment.create', { id: C2, post_id: P1, content: 'Me too' })
    await engine.sync()
    expect(await countOf(db)).toBe(1)
    expect(await db.comments.get(C2)).toBeUndefined()
    expect(await db.rejections.count()).toBe(1)
  })
})
