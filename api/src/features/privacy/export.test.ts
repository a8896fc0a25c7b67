import { Readable } from 'node:stream'
import { unzipSync } from 'fflate'
import sharp from 'sharp'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createApp } from '../../app.ts'
import { posts, pushSubscriptions } from '../../db/schema.ts'
import { createLogger } from '../../lib/log.ts'
import { SECURE_URL_PREFIX } from '../../lib/storage.ts'
import { backends } from '../../testing/databases.ts'
import { createHarness, type Harness, type TestResponse } from '../../testing/harness.ts'
import { clubKit, type Person } from '../../testing/test-club.ts'
import { privacyFeature } from './feature.ts'

/**
 * Data export (issue 12): one ZIP of the caller's own rows and files, file by file; nothing of
 * another member's; 401 without a token; 5 an hour; a failure part way breaks the download off.
 */

const EXPORT = '/api/users/me/export'
const JSON_FILES = [
  'profile.json',
  'memberships.json',
  'posts.json',
  'comments.json',
  'reactions.json',
  'stories.json',
  'chat-messages.json',
  'events.json',
  'rsvps.json',
  'polls.json',
  'votes.json',
  'push-subscriptions.json',
  'sessions.json',
]

const png = (red: number) =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: { r: red, g: 90, b: 30 } } })
    .png()
    .toBuffer()

type Archive = Record<string, Uint8Array>
const text = (archive: Archive, name: string) => new TextDecoder().decode(archive[name])
// biome-ignore lint/suspicious/noExplicitAny: the files are checked by assertions, not types.
const read = (archive: Archive, name: string): any => JSON.parse(text(archive, name))
const keyOf = (url: string) => url.slice(SECURE_URL_PREFIX.length)

describe.each(backends())('data export on %s', (backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend)
  })
  afterAll(() => h?.close())
  const { person, call, join } = clubKit(() => h)

  async function ok(res: TestResponse | Response, status = 201) {
    expect(res.status, await res.clone().text()).toBe(status)
    return res.json()
  }
  async function upload(who: Person, path: string, bytes: Buffer, bubleId?: string): Promise<string> {
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'picture.png')
    if (bubleId) form.append('buble_id', bubleId)
    const res = await h.app.request(`/api/uploads/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${who.token}` },
      body: form,
    })
    return (await ok(res, path === 'avatar' ? 200 : 201)).url
  }
  async function download(who: Person): Promise<{ res: Response; archive: Archive }> {
    const res = await call(who, 'GET', EXPORT)
    expect(res.status).toBe(200)
    return { res: res as Response, archive: unzipSync(new Uint8Array(await res.arrayBuffer())) }
  }

  /** Alice and Bob share two bubles and write, react, vote and upload in both. */
  async function seed() {
    const alice = await person('Alice Export')
    const bob = await person('Bob Export')
    const mine = await ok(await call(alice, 'POST', '/api/bubles', { name: `Alice club ${uuidv7()}` }))
    const theirs = await ok(await call(bob, 'POST', '/api/bubles', { name: `Bob club ${uuidv7()}` }))
    await join(alice, mine.id, bob)
    await join(bob, theirs.id, alice)
    const avatar = await upload(alice, 'avatar', await png(10))
    await ok(await call(alice, 'PUT', '/api/users/profile', { avatar_url: avatar, bio: 'Baker' }), 200)
    const image = await upload(alice, 'image', await png(20), mine.id)
    const storyFile = await upload(alice, 'story', await png(30), mine.id)
    const bobImage = await upload(bob, 'image', await png(40), mine.id)

    const post = async (who: Person, bubleId: string, body: object) =>
      ok(await call(who, 'POST', `/api/wall/${bubleId}/posts`, body))
    const alicePost = await post(alice, mine.id, { content: 'Alice writes here', image_url: image })
    const alicePost2 = await post(alice, theirs.id, { content: 'Alice visits Bob' })
    const bobPost = await post(bob, mine.id, { content: 'Bob secret thoughts', image_url: bobImage })
    const aliceComment = await ok(
      await call(alice, 'POST', `/api/wall/posts/${bobPost.id}/comments`, { content: 'Alice comments' }),
    )
    await ok(await call(bob, 'POST', `/api/wall/posts/${alicePost.id}/comments`, { content: 'Bob comments back' }))
    await ok(await call(alice, 'POST', `/api/wall/posts/${bobPost.id}/reactions`, { reactionType: 'love' }), 200)
    await ok(await call(bob, 'POST', `/api/wall/posts/${alicePost.id}/reactions`, { reactionType: 'angry' }), 200)
    const story = await ok(
      await call(alice, 'POST', '/api/stories', {
        buble_id: mine.id,
        media_url: storyFile,
        media_type: 'image',
        duration_seconds: 5,
      }),
    )
    const aliceMessage = await ok(
      await call(alice, 'POST', `/api/chat/${mine.id}/messages`, { content: 'Alice chats' }),
    )
    const bobMessage = await ok(await call(bob, 'POST', `/api/chat/${mine.id}/messages`, { content: 'Bob chats' }))
    await ok(await call(alice, 'POST', `/api/chat/messages/${bobMessage.id}/reactions`, { reactionType: 'laugh' }), 200)
    const when = '2027-05-01T18:00:00.000Z'
    const aliceEvent = await ok(
      await call(alice, 'POST', `/api/bubles/${mine.id}/events`, { title: 'Alice party', event_time: when }),
    )
    const bobEvent = await ok(
      await call(bob, 'POST', `/api/bubles/${mine.id}/events`, { title: 'Bob party', event_time: when }),
    )
    await ok(await call(alice, 'POST', `/api/events/${bobEvent.id}/rsvp`, { status: 'maybe' }), 200)
    await ok(await call(bob, 'POST', `/api/events/${aliceEvent.id}/rsvp`, { status: 'going' }), 200)
    const alicePoll = await ok(
      await call(alice, 'POST', `/api/bubles/${mine.id}/polls`, { question: 'Alice asks?', options: ['Yes', 'No'] }),
    )
    const bobPoll = await ok(
      await call(bob, 'POST', `/api/bubles/${mine.id}/polls`, { question: 'Bob asks?', options: ['Tea', 'Coffee'] }),
    )
    const coffee = bobPoll.options[1]
    await ok(await call(alice, 'POST', `/api/polls/${bobPoll.id}/vote`, { poll_option_id: coffee.id }), 200)
    await h.database.db.insert(pushSubscriptions).values({
      id: uuidv7(),
      userId: alice.id,
      endpoint: `https://push.example/${alice.id}`,
      p256dh: 'secret-p256dh-key',
      auth: 'secret-auth-key',
    })
    return {
      ...{ alice, bob, mine, theirs, avatar, image, storyFile, bobImage, alicePost, alicePost2, bobPost },
      ...{ aliceComment, story, aliceMessage, bobMessage, aliceEvent, bobEvent, alicePoll, bobPoll, coffee },
    }
  }

  let s: Awaited<ReturnType<typeof seed>>
  let alice: Archive
  beforeAll(async () => {
    s = await seed()
    const { res, archive } = await download(s.alice)
    expect(res.headers.get('content-type')).toBe('application/zip')
    const today = h.clock.now.toISOString().slice(0, 10)
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="buble-data-${today}.zip"`)
    expect(res.headers.get('cache-control')).toBe('no-store')
    alice = archive
  })

  test('the archive holds README.txt, every JSON file and the uploaded files, nothing else', () => {
    const files = [s.avatar, s.image, s.storyFile].map((url) => `files/${keyOf(url)}`)
    expect(Object.keys(alice).sort()).toEqual(['README.txt', ...JSON_FILES, ...files].sort())
    expect(text(alice, 'README.txt')).toContain('posts.json')
    for (const name of JSON_FILES) expect(() => read(alice, name), name).not.toThrow()
  })

  test('profile.json is the user with created_at, the push preference and the reminder choice', () => {
    expect(read(alice, 'profile.json')).toMatchObject({
      id: s.alice.id,
      name: 'Alice Export',
      email: expect.stringMatching(/@example\.com$/),
      email_verified: false,
      role: 'user',
      bio: 'Baker',
      avatar_url: s.avatar,
      created_at: h.clock.now.toISOString(),
      push_enabled: true,
      event_reminder: '1h',
      deletion_scheduled_for: null,
    })
  })

  test('memberships.json lists both bubles with name, slug, role, permissions and joined_at', () => {
    const rows = read(alice, 'memberships.json')
    const byId = Object.fromEntries(rows.map((row: { buble_id: string }) => [row.buble_id, row]))
    expect(rows).toHaveLength(2)
    expect(byId[s.mine.id]).toMatchObject({ name: s.mine.name, slug: s.mine.slug, role: 'owner' })
    expect(byId[s.theirs.id]).toMatchObject({ name: s.theirs.name, slug: s.theirs.slug, role: 'member' })
    expect(byId[s.theirs.id].permissions).toEqual(expect.arrayContaining(['create_events']))
    expect(byId[s.mine.id].joined_at).toEqual(expect.any(String))
  })

  test('posts, comments, reactions, stories and chat messages are exactly the user’s own', () => {
    const ids = (name: string) => read(alice, name).map((row: { id: string }) => row.id)
    expect(ids('posts.json').sort()).toEqual([s.alicePost.id, s.alicePost2.id].sort())
    expect(read(alice, 'posts.json').find((p: { id: string }) => p.id === s.alicePost.id)).toMatchObject({
      buble_id: s.mine.id,
      content: 'Alice writes here',
      image_url: s.image,
      is_edited: false,
    })
    expect(read(alice, 'comments.json')).toEqual([
      expect.objectContaining({ id: s.aliceComment.id, post_id: s.bobPost.id, content: 'Alice comments' }),
    ])
    expect(read(alice, 'reactions.json')).toEqual([
      expect.objectContaining({ on: 'post', post_id: s.bobPost.id, type: 'love' }),
      expect.objectContaining({ on: 'chat_message', message_id: s.bobMessage.id, type: 'laugh' }),
    ])
    expect(read(alice, 'stories.json')).toEqual([
      expect.objectContaining({ id: s.story.id, media_url: s.storyFile, media_type: 'image', duration_seconds: 5 }),
    ])
    expect(read(alice, 'chat-messages.json')).toEqual([
      expect.objectContaining({ id: s.aliceMessage.id, content: 'Alice chats', type: 'text' }),
    ])
  })

  test('events, RSVPs, polls and votes: those created, and answers with their question and option', () => {
    expect(read(alice, 'events.json')).toEqual([
      expect.objectContaining({ id: s.aliceEvent.id, title: 'Alice party', event_time: '2027-05-01T18:00:00.000Z' }),
    ])
    expect(read(alice, 'rsvps.json')).toEqual([
      expect.objectContaining({ event_id: s.bobEvent.id, event_title: 'Bob party', status: 'maybe' }),
    ])
    const [poll, ...morePolls] = read(alice, 'polls.json')
    expect(morePolls).toEqual([])
    expect(poll).toMatchObject({ id: s.alicePoll.id, question: 'Alice asks?', total_votes: 0 })
    expect(poll.options.map((o: { option_text: string }) => o.option_text)).toEqual(['Yes', 'No'])
    expect(read(alice, 'votes.json')).toEqual([
      expect.objectContaining({
        poll_id: s.bobPoll.id,
        question: 'Bob asks?',
        option_id: s.coffee.id,
        option_text: 'Coffee',
      }),
    ])
  })

  test('push-subscriptions.json has the endpoint and never the keys', () => {
    const rows = read(alice, 'push-subscriptions.json')
    expect(rows).toEqual([expect.objectContaining({ endpoint: `https://push.example/${s.alice.id}` })])
    expect(text(alice, 'push-subscriptions.json')).not.toMatch(/secret-(p256dh|auth)-key/)
  })

  test('sessions.json lists the devices signed in, as the profile shows them', async () => {
    const registered = await h.register({ name: 'Signed In Twice' })
    const person = { ...registered, name: 'Signed In Twice' }
    const rows = read((await download(person)).archive, 'sessions.json')
    expect(rows).toEqual([
      expect.objectContaining({ device: null, browser: null, place: null, created_at: expect.any(String) }),
    ])
    expect(Object.keys(rows[0]).sort()).toEqual(
      ['browser', 'created_at', 'device', 'expires_at', 'id', 'last_used_at', 'place'].sort(),
    )
  })

  test('files/ holds the stored bytes of the avatar, post image and story, identical', async () => {
    for (const url of [s.avatar, s.image, s.storyFile]) {
      const stored = await h.deps.storage.get(keyOf(url))
      expect(stored).not.toBeNull()
      expect(Buffer.from(alice[`files/${keyOf(url)}`]!).equals(stored!)).toBe(true)
    }
  })

  // RSVPs and votes name the event or poll answered (its title, question and option), by design.
  const OWN_CONTENT = JSON_FILES.filter((name) => name !== 'rsvps.json' && name !== 'votes.json')

  test('nothing of another member appears anywhere in the archive', () => {
    const everything = OWN_CONTENT.map((name) => text(alice, name)).join('\n')
    // Ids of their rows appear only as references (the post Alice commented on), never their content.
    for (const theirs of ['Bob secret thoughts', 'Bob comments back', 'Bob chats', 'Bob party', 'Bob Export'])
      expect(everything).not.toContain(theirs)
    expect(everything).not.toContain('"angry"')
    expect(everything).not.toContain(s.bob.id)
    expect(everything).not.toContain(s.bobImage)
    expect(alice[`files/${keyOf(s.bobImage)}`]).toBeUndefined()
  })

  test("another user's export holds none of the first user's data", async () => {
    const { archive } = await download(s.bob)
    const everything = OWN_CONTENT.map((name) => text(archive, name)).join('\n')
    for (const hers of ['Alice writes here', 'Alice comments', 'Alice chats', 'Alice party', 'Alice asks?'])
      expect(everything).not.toContain(hers)
    expect(everything).not.toContain(s.alice.id)
    expect(read(archive, 'profile.json').id).toBe(s.bob.id)
    expect(read(archive, 'posts.json').map((p: { id: string }) => p.id)).toEqual([s.bobPost.id])
    expect(read(archive, 'votes.json')).toEqual([])
    expect(read(archive, 'rsvps.json')).toEqual([
      expect.objectContaining({ event_id: s.aliceEvent.id, event_title: 'Alice party', status: 'going' }),
    ])
    expect(Object.keys(archive).filter((name) => name.startsWith('files/'))).toEqual([`files/${keyOf(s.bobImage)}`])

    const { archive: empty } = await download(await person('Nobody Yet'))
    for (const name of JSON_FILES.filter((n) => n !== 'profile.json')) expect(read(empty, name), name).toEqual([])
  })

  test('posts are read in batches: 1,201 posts all arrive once', async () => {
    const writer = await person('Prolific Writer')
    const bubleId = (await ok(await call(writer, 'POST', '/api/bubles', { name: `Busy ${uuidv7()}` }))).id
    const rows = Array.from({ length: 1201 }, (_, i) => ({
      id: uuidv7(),
      bubleId,
      authorId: writer.id,
      content: `Post number ${i}`,
      position: i + 1,
      addedVersion: 1,
    }))
    await h.database.db.insert(posts).values(rows)
    const { archive } = await download(writer)
    const exported = read(archive, 'posts.json') as { id: string }[]
    expect(exported).toHaveLength(1201)
    expect(new Set(exported.map((p) => p.id))).toEqual(new Set(rows.map((r) => r.id)))
  })

  test('a file gone from disk is left out; the rest of the archive is whole', async () => {
    const keeper = await person('Careful Keeper')
    const kept = await upload(keeper, 'avatar', await png(50))
    const lost = await upload(keeper, 'avatar', await png(60))
    await h.deps.storage.delete(keyOf(lost))
    const { archive } = await download(keeper)
    expect(Object.keys(archive).filter((name) => name.startsWith('files/'))).toEqual([`files/${keyOf(kept)}`])
    expect(read(archive, 'posts.json')).toEqual([])
  })

  test('without a token: 401', async () => {
    const res = await h.call('GET', EXPORT)
    expect(res.status).toBe(401)
    expect(await res.json()).toMatchObject({ code: 'UNAUTHORIZED' })
  })

  test('five exports an hour, then 429 with Retry-After', async () => {
    const eager = await person('Eager Exporter')
    for (let i = 0; i < 5; i++) await download(eager)
    const res = await call(eager, 'GET', EXPORT)
    expect(res.status).toBe(429)
    expect(await res.json()).toMatchObject({ code: 'RATE_LIMITED' })
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
  })

  test('a file failing part way breaks the download off and is logged', async () => {
    const lines: string[] = []
    const failing = {
      ...h.deps.storage,
      locate: async () => ({
        size: 64,
        read: () =>
          Readable.from(
            (async function* () {
              yield Buffer.alloc(16)
              throw new Error('disk gone')
            })(),
          ),
      }),
    }
    const deps = { ...h.deps, storage: failing, log: createLogger('error', (line) => lines.push(line)) }
    const app = createApp(deps, { ...h.features, list: { ...h.features.list, privacy: privacyFeature(deps) } })
    const res = await app.request(EXPORT, { headers: { authorization: `Bearer ${s.alice.token}` } })
    expect(res.status).toBe(200)
    await expect(res.arrayBuffer()).rejects.toThrow()
    expect(lines.map((line) => JSON.parse(line))).toContainEqual(
      expect.objectContaining({ level: 'error', msg: 'data export failed', user_id: s.alice.id }),
    )
  })
})
