import { randomUUID } from 'node:crypto'
import { CHAT_MESSAGES } from '@buble/shared/chat'
import { WALL_MESSAGES } from '@buble/shared/wall'
import { eq, sql } from 'drizzle-orm'
import pg from 'pg'
import sharp from 'sharp'
import { beforeAll, describe, expect, test } from 'vitest'
import { uploads } from '../../db/schema.ts'
import { SECURE_URL_PREFIX } from '../../lib/storage.ts'
import { backends, type TestDatabase } from '../../testing/databases.ts'
import { mutation, push } from '../../testing/sync.ts'
import { clubSuite, type Person } from '../../testing/test-club.ts'
import { isBubleImage, ORPHAN_AFTER_MS } from './files.ts'

/**
 * Uploaded files and the rows that name them (issue 18 §4): only its uploader may attach a file to
 * a post, story or chat message, and deleting a row removes its file only when nothing else names
 * it, whether the row goes by a member's delete, the stories' expiry or the orphan job.
 */

const POST_IMAGE = 'image_url must be an image uploaded to this buble'

describe.each(backends())('files named by posts, stories and chat on %s', (backend) => {
  const { h, call, person, join, expectStatus } = clubSuite(backend)

  /** Every forget the app starts, so a test can wait until the ones it caused have finished. */
  const forgets: Promise<void>[] = []
  beforeAll(() => {
    const uploadsService = h().services.uploads
    const forget = uploadsService.forgetFiles.bind(uploadsService)
    uploadsService.forgetFiles = (urls) => {
      const done = forget(urls)
      forgets.push(done)
      return done
    }
  })
  /** Runs `act`, then waits for the forgets it started (at least `count`) to finish. */
  const forgetting = async (act: () => Promise<unknown>, count = 1) => {
    const before = forgets.length
    await act()
    await expect.poll(() => forgets.length - before).toBeGreaterThanOrEqual(count)
    await Promise.all(forgets)
  }

  /** Pushes `mutations` as `who` and waits for the forgets they started. */
  const pushing = async (who: Person, ...mutations: ReturnType<typeof mutation>[]) => {
    let results: Awaited<ReturnType<typeof push>> = []
    await forgetting(async () => {
      results = await push(h(), who.token, mutations)
    })
    return results
  }

  const keyOf = (url: string) => url.slice(SECURE_URL_PREFIX.length)
  /** Whether the file is still there: its uploads row and its stored bytes. */
  const kept = async (url: string) => ({
    row:
      (
        await h()
          .database.db.select()
          .from(uploads)
          .where(eq(uploads.key, keyOf(url)))
      ).length === 1,
    bytes: (await h().deps.storage.get(keyOf(url))) !== null,
  })
  const KEPT = { row: true, bytes: true }
  const GONE = { row: false, bytes: false }

  const newBuble = async (owner: Person, ...members: Person[]) => {
    const created = await call(owner, 'POST', '/api/bubles', { name: 'Darkroom' })
    const { id } = await expectStatus(created, 201)
    for (const member of members) await join(owner, id, member)
    return id as string
  }
  const upload = async (who: Person, bubleId: string, route: 'image' | 'story' = 'image') => {
    const bytes = await sharp({ create: { width: 24, height: 16, channels: 3, background: '#4477aa' } })
      .png()
      .toBuffer()
    const form = new FormData()
    form.set('buble_id', bubleId)
    form.set('file', new Blob([new Uint8Array(bytes)]), 'photo.png')
    const res = await h().app.request(`/api/uploads/${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${who.token}` },
      body: form,
    })
    expect(res.status).toBe(201)
    return ((await res.json()) as { url: string }).url
  }
  /** Alice and Bob in one buble; Alice has uploaded an image and a story picture into it. */
  const scene = async () => {
    const [alice, bob] = [await person('Alice'), await person('Bob')]
    const bubleId = await newBuble(alice, bob)
    return { alice, bob, bubleId, image: await upload(alice, bubleId), story: await upload(alice, bubleId, 'story') }
  }
  const refusal = async (res: Response, message: string, path: string) =>
    expect(await expectStatus(res as never, 400)).toEqual({
      code: 'VALIDATION_ERROR',
      message,
      issues: [{ path, message }],
    })

  describe('only the uploader attaches a file', () => {
    test("post: another member's image is refused as an image of another buble is, by REST and by push", async () => {
      const { alice, bob, bubleId, image } = await scene()
      const body = { content: 'mine now', image_url: image }
      await refusal(await call(bob, 'POST', `/api/wall/${bubleId}/posts`, body), POST_IMAGE, 'image_url')
      const elsewhere = await upload(bob, await newBuble(bob))
      const other = { content: 'from elsewhere', image_url: elsewhere }
      await refusal(await call(bob, 'POST', `/api/wall/${bubleId}/posts`, other), POST_IMAGE, 'image_url')
      const [pushed] = await push(h(), bob.token, [
        mutation('post.create', { id: randomUUID(), buble_id: bubleId, ...body }),
      ])
      expect(pushed).toMatchObject({ status: 'rejected', code: 'VALIDATION_ERROR', message: POST_IMAGE })
      // Its uploader still may.
      await expectStatus(
        await call(alice, 'POST', `/api/wall/${bubleId}/posts`, { content: 'ok', image_url: image }),
        201,
      )
      expect(await kept(image)).toEqual(KEPT)
    })

    test("story: another member's story file is refused as one of another buble is", async () => {
      const { alice, bob, bubleId, story } = await scene()
      const body = { buble_id: bubleId, media_url: story, media_type: 'image' }
      await refusal(await call(bob, 'POST', '/api/stories', body), WALL_MESSAGES.badMedia, 'media_url')
      const elsewhere = await upload(bob, await newBuble(bob), 'story')
      const other = { ...body, media_url: elsewhere }
      await refusal(await call(bob, 'POST', '/api/stories', other), WALL_MESSAGES.badMedia, 'media_url')
      await expectStatus(await call(alice, 'POST', '/api/stories', body), 201)
      expect(await kept(story)).toEqual(KEPT)
    })

    test("chat: another member's image is refused as an image of another buble is, by REST and by push", async () => {
      const { alice, bob, bubleId, image } = await scene()
      const res = await call(bob, 'POST', `/api/chat/${bubleId}/messages`, { image_url: image })
      await refusal(res, CHAT_MESSAGES.badImage, 'image_url')
      const [pushed] = await push(h(), bob.token, [
        mutation('chat.send', { id: randomUUID(), buble_id: bubleId, image_url: image, content: 'look' }),
      ])
      expect(pushed).toMatchObject({ status: 'rejected', code: 'VALIDATION_ERROR', message: CHAT_MESSAGES.badImage })
      await expectStatus(await call(alice, 'POST', `/api/chat/${bubleId}/messages`, { image_url: image }), 201)
      expect(await kept(image)).toEqual(KEPT)
    })

    test('an upload whose uploader has gone (owner_id null) is attached by nobody', async () => {
      const { alice, bubleId, image } = await scene()
      await h()
        .database.db.update(uploads)
        .set({ ownerId: null })
        .where(eq(uploads.key, keyOf(image)))
      const res = await call(alice, 'POST', `/api/wall/${bubleId}/posts`, { content: 'x', image_url: image })
      await refusal(res, POST_IMAGE, 'image_url')
    })
  })

  describe('a file goes only when nothing names it any more', () => {
    test('post: deleting a post leaves an image another post and a chat message still show', async () => {
      const { alice, bob, bubleId, image } = await scene()
      const post = async () =>
        (
          await expectStatus(
            await call(alice, 'POST', `/api/wall/${bubleId}/posts`, { content: 'x', image_url: image }),
            201,
          )
        ).id as string
      const [first, second] = [await post(), await post()]
      const message = await expectStatus(
        await call(alice, 'POST', `/api/chat/${bubleId}/messages`, { image_url: image }),
        201,
      )
      await forgetting(async () => expectStatus(await call(alice, 'DELETE', `/api/wall/posts/${first}`), 204))
      expect(await kept(image)).toEqual(KEPT)
      expect((await call(bob, 'GET', image)).status).toBe(200)
      const [deleted] = await pushing(alice, mutation('post.delete', { id: second }))
      expect(deleted?.status).toBe('applied')
      expect(await kept(image)).toEqual(KEPT)
      await forgetting(async () => expectStatus(await call(alice, 'DELETE', `/api/chat/messages/${message.id}`), 204))
      expect(await kept(image)).toEqual(GONE)
    })

    test('story: deleting a story leaves a file another story shows; the expiry job removes it with the last', async () => {
      const { alice, bubleId, story } = await scene()
      const share = async () =>
        (
          await expectStatus(
            await call(alice, 'POST', '/api/stories', { buble_id: bubleId, media_url: story, media_type: 'image' }),
            201,
          )
        ).id as string
      const first = await share()
      await share()
      await forgetting(async () => expectStatus(await call(alice, 'DELETE', `/api/stories/${first}`), 204))
      expect(await kept(story)).toEqual(KEPT)
      // Twelve hours later the same file again; twelve more and the job takes the older story only.
      h().clock.advance(12 * 3600 * 1000)
      await share()
      h().clock.advance(12 * 3600 * 1000)
      const job = h().services.stories.expiryJob
      await forgetting(() => h().database.withAdvisoryLock(job.lockKey, (tx) => job.run(tx, h().clock.now)))
      expect(await kept(story)).toEqual(KEPT)
      h().clock.advance(12 * 3600 * 1000)
      await forgetting(() => h().database.withAdvisoryLock(job.lockKey, (tx) => job.run(tx, h().clock.now)))
      expect(await kept(story)).toEqual(GONE)
    })

    test('chat: deleting a message leaves an image another message still shows', async () => {
      const { alice, bob, bubleId, image } = await scene()
      const send = async () =>
        (await expectStatus(await call(alice, 'POST', `/api/chat/${bubleId}/messages`, { image_url: image }), 201))
          .id as string
      const [first, second] = [await send(), await send()]
      await forgetting(async () => expectStatus(await call(alice, 'DELETE', `/api/chat/messages/${first}`), 204))
      expect(await kept(image)).toEqual(KEPT)
      expect((await call(bob, 'GET', image)).status).toBe(200)
      const [deleted] = await pushing(alice, mutation('chat.delete', { id: second }))
      expect(deleted?.status).toBe('applied')
      expect(await kept(image)).toEqual(GONE)
    })

    test('the orphan job removes an old upload nothing names, row and bytes, and nothing else', async () => {
      const { alice, bubleId, image, story } = await scene()
      const fresh = await upload(alice, bubleId)
      const lonely = await upload(alice, bubleId)
      await expectStatus(
        await call(alice, 'POST', `/api/wall/${bubleId}/posts`, { content: 'x', image_url: image }),
        201,
      )
      await expectStatus(
        await call(alice, 'POST', '/api/stories', { buble_id: bubleId, media_url: story, media_type: 'image' }),
        201,
      )
      // An hour and more for these, minutes for `fresh`.
      const old = new Date(h().clock.now.getTime() - ORPHAN_AFTER_MS - 60_000)
      for (const url of [image, story, lonely])
        await h()
          .database.db.update(uploads)
          .set({ createdAt: old })
          .where(eq(uploads.key, keyOf(url)))
      const job = h().services.jobs.find((j) => j.name === 'orphan-files')!
      await forgetting(() => h().database.withAdvisoryLock(job.lockKey, (tx) => job.run(tx, h().clock.now)))
      expect(await kept(lonely)).toEqual(GONE)
      for (const url of [image, story, fresh]) expect(await kept(url)).toEqual(KEPT)
    })
  })

  // Two connections at once: PostgreSQL only (PGlite has one, so there a forget runs between writes).
  if (backend === 'postgres') {
    test('a forget waits for an attach in flight, and then keeps the file it names', async () => {
      const { alice, bubleId, image } = await scene()
      let checked!: () => void
      let proceed!: () => void
      const attachChecked = new Promise<void>((resolve) => {
        checked = resolve
      })
      const mayProceed = new Promise<void>((resolve) => {
        proceed = resolve
      })
      const attaching = h().database.db.transaction(async (tx) => {
        expect(await isBubleImage(tx, image, bubleId, alice.id)).toBe(true)
        checked()
        await mayProceed
        await tx.execute(sql`insert into chat_messages (id, buble_id, sender_id, content, type, image_url, added_version)
          values (${randomUUID()}, ${bubleId}, ${alice.id}, '', 'image', ${image}, buble_next_version())`)
        // Committed when this returns; the forget then sees the message.
      })
      await attachChecked
      // Another request, on a connection of its own, forgets the file meanwhile.
      const forgetting = h().services.uploads.forgetFiles([image])
      // The forget waits for the attaching write: it must not judge the file before that commits.
      await expect.poll(() => waitingForLocks(h().database as TestDatabase), { timeout: 5000 }).toBeGreaterThan(0)
      proceed()
      await attaching
      await forgetting
      await Promise.all(forgets)
      expect(await kept(image)).toEqual(KEPT)
    })

    test("the stories' expiry hands its files over only once their deletion has committed", async () => {
      const { alice, bubleId, story } = await scene()
      await expectStatus(
        await call(alice, 'POST', '/api/stories', { buble_id: bubleId, media_url: story, media_type: 'image' }),
        201,
      )
      h().clock.advance(24 * 3600 * 1000 + 1)
      const job = h().services.stories.expiryJob
      const before = forgets.length
      await h().database.withAdvisoryLock(job.lockKey, async (tx) => {
        await job.run(tx, h().clock.now)
        // Nothing is forgotten while the deletion may still roll back.
        await new Promise((resolve) => setTimeout(resolve, 200))
        expect(forgets.length - before).toBe(0)
      })
      await expect.poll(() => forgets.length - before).toBe(1)
      await Promise.all(forgets)
      expect(await kept(story)).toEqual(GONE)
    })
  }
})

/** How many sessions of this database wait for a lock (seen from a connection of its own). */
async function waitingForLocks(database: TestDatabase): Promise<number> {
  const client = new pg.Client({ connectionString: database.url })
  await client.connect()
  try {
    const { rows } = await client.query(
      `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    )
    return rows[0].n as number
  } finally {
    await client.end()
  }
}
