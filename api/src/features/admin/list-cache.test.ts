import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Database } from '../../db/client.ts'
import { createListCache, type Loaded } from '../../lib/kept-reads.ts'
import { createLogger } from '../../lib/log.ts'
import { backends, runElsewhere, type TestDatabase } from '../../testing/databases.ts'
import { createHarness, type Harness, uniqueEmail } from '../../testing/harness.ts'
import { listenForListChanges } from './list-cache.ts'

/**
 * The admin lists kept in memory (issue 12): answered without reading again, and never older than
 * a write: an admin's own at once, anyone else's (REST, other processes, plain SQL) as soon as its
 * NOTIFY arrives; nothing kept or answered while changes may go unheard.
 */

const log = createLogger('silent')

function fixture(options: { maxEntries?: number; maxBytes?: number } = {}) {
  const clock = { now: 1_000_000 }
  const cache = createListCache<string, string>({
    maxEntries: options.maxEntries ?? 100,
    maxBytes: options.maxBytes ?? 1_000_000,
    maxAgeMs: 60_000,
    now: () => clock.now,
  })
  let loads = 0
  const load =
    (value: string, extra: Partial<Loaded<string>> = {}) =>
    async (): Promise<Loaded<string>> => {
      loads += 1
      return { value, bytes: value.length, ...extra }
    }
  return { cache, clock, load, loads: () => loads }
}

/** A load that waits until `finish` is called. */
function gated(value: string) {
  let finish!: () => void
  const opened = new Promise<void>((resolve) => {
    finish = resolve
  })
  let calls = 0
  return {
    load: async (): Promise<Loaded<string>> => {
      calls += 1
      await opened
      return { value, bytes: value.length }
    },
    finish: () => finish(),
    calls: () => calls,
  }
}

describe('the list cache', () => {
  test('a repeated request is answered from memory; concurrent misses share one read', async () => {
    const f = fixture()
    f.cache.setListening(true)
    expect(await f.cache.getOrLoad('k', 'users', f.load('a'))).toBe('a')
    expect(await f.cache.getOrLoad('k', 'users', f.load('b'))).toBe('a')
    expect(f.loads()).toBe(1)
    const slow = gated('x')
    const both = Promise.all([f.cache.getOrLoad('j', 'users', slow.load), f.cache.getOrLoad('j', 'users', slow.load)])
    slow.finish()
    expect(await both).toEqual(['x', 'x'])
    expect(slow.calls()).toBe(1)
  })

  test('a failed read is answered to its callers and not kept', async () => {
    const f = fixture()
    f.cache.setListening(true)
    const failing = async (): Promise<Loaded<string>> => {
      throw new Error('boom')
    }
    await expect(f.cache.getOrLoad('k', 'users', failing)).rejects.toThrow('boom')
    expect(await f.cache.getOrLoad('k', 'users', f.load('a'))).toBe('a')
    expect(f.loads()).toBe(1)
  })

  test('a change drops the pages of its lists only', async () => {
    const f = fixture()
    f.cache.setListening(true)
    await f.cache.getOrLoad('u', 'users', f.load('u1'))
    await f.cache.getOrLoad('a', 'audit', f.load('a1'))
    f.cache.changed(['users'])
    expect(await f.cache.getOrLoad('u', 'users', f.load('u2'))).toBe('u2')
    expect(await f.cache.getOrLoad('a', 'audit', f.load('a2'))).toBe('a1')
  })

  test('a read under way when its list changes is not kept, and later requests do not join it', async () => {
    const f = fixture()
    f.cache.setListening(true)
    const before = gated('old')
    const first = f.cache.getOrLoad('k', 'posts', before.load)
    f.cache.changed(['posts'])
    const second = f.cache.getOrLoad('k', 'posts', f.load('new'))
    before.finish()
    expect(await first).toBe('old')
    expect(await second).toBe('new')
    expect(await f.cache.getOrLoad('k', 'posts', f.load('newer'))).toBe('new')
  })

  test('while not listening every request reads, and nothing read then is kept', async () => {
    const f = fixture()
    expect(await f.cache.getOrLoad('k', 'users', f.load('a'))).toBe('a')
    expect(await f.cache.getOrLoad('k', 'users', f.load('b'))).toBe('b')
    f.cache.setListening(true)
    await f.cache.getOrLoad('k', 'users', f.load('c'))
    expect(f.cache.size()).toBe(1)
    f.cache.setListening(false)
    expect(f.cache.size()).toBe(0)
    expect(await f.cache.getOrLoad('k', 'users', f.load('d'))).toBe('d')
    expect(f.cache.size()).toBe(0)
  })

  test('an entry goes after the maximum age, or sooner when its answer says it stops being true', async () => {
    const f = fixture()
    f.cache.setListening(true)
    await f.cache.getOrLoad('k', 'users', f.load('a'))
    f.clock.now += 59_999
    expect(await f.cache.getOrLoad('k', 'users', f.load('b'))).toBe('a')
    f.clock.now += 1
    expect(await f.cache.getOrLoad('k', 'users', f.load('c'))).toBe('c')
    await f.cache.getOrLoad('i', 'invites', f.load('active', { until: f.clock.now + 10 }))
    f.clock.now += 10
    expect(await f.cache.getOrLoad('i', 'invites', f.load('expired'))).toBe('expired')
  })

  test('bounded by entries and bytes, oldest out first', async () => {
    const f = fixture({ maxEntries: 2, maxBytes: 10 })
    f.cache.setListening(true)
    await f.cache.getOrLoad('a', 'users', f.load('aaaa'))
    await f.cache.getOrLoad('b', 'users', f.load('bbbb'))
    await f.cache.getOrLoad('c', 'users', f.load('cccc'))
    expect(f.cache.size()).toBe(2)
    expect(await f.cache.getOrLoad('a', 'users', f.load('a2'))).toBe('a2')
    await f.cache.getOrLoad('big', 'users', f.load('x'.repeat(11)))
    expect(await f.cache.getOrLoad('big', 'users', f.load('small'))).toBe('small')
  })

  test('fed by LISTEN: off until it is in place, a table drops the lists reading it, lost and regained', async () => {
    const f = fixture()
    let hear!: (payload: string) => void
    let gap!: () => void
    let lost!: () => void
    let started!: () => void
    let stopped = false
    const database = {
      listen: (_channel: string, onPayload: typeof hear, onGap: typeof gap, onLost: typeof lost) => {
        hear = onPayload
        gap = onGap
        lost = onLost
        return new Promise<() => Promise<void>>((resolve) => {
          started = () =>
            resolve(async () => {
              stopped = true
            })
        })
      },
    } as unknown as Database
    const stop = listenForListChanges(database, f.cache, log)
    await f.cache.getOrLoad('u', 'users', f.load('u0'))
    expect(f.cache.size()).toBe(0)
    started()
    await new Promise((resolve) => setTimeout(resolve, 0))
    await f.cache.getOrLoad('u', 'users', f.load('u1'))
    await f.cache.getOrLoad('a', 'audit', f.load('a1'))
    hear('memberships')
    expect(await f.cache.getOrLoad('u', 'users', f.load('u2'))).toBe('u2')
    expect(await f.cache.getOrLoad('a', 'audit', f.load('a2'))).toBe('a1')
    hear('some_new_table')
    expect(f.cache.size()).toBe(0)
    await f.cache.getOrLoad('u', 'users', f.load('u3'))
    lost()
    expect(await f.cache.getOrLoad('u', 'users', f.load('u4'))).toBe('u4')
    expect(await f.cache.getOrLoad('u', 'users', f.load('u5'))).toBe('u5')
    gap()
    expect(await f.cache.getOrLoad('u', 'users', f.load('u6'))).toBe('u6')
    expect(await f.cache.getOrLoad('u', 'users', f.load('u7'))).toBe('u6')
    await stop()
    expect(stopped).toBe(true)
    expect(await f.cache.getOrLoad('u', 'users', f.load('u8'))).toBe('u8')
  })
})

type Person = { token: string; id: string; email: string }

describe.each(backends())('cached admin lists on %s', (backend) => {
  let h: Harness
  let admin: Person

  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
    admin = await h.register({ name: 'Cache Admin' })
    await h.database.db.execute(sql`update users set role = 'admin' where id = ${admin.id}::uuid`)
  })
  afterAll(() => h?.close())

  const as = (who: Person, method: string, path: string, body?: unknown) =>
    h.call(method, path, { token: who.token, body })
  async function json(res: Response) {
    const text = await res.text()
    expect(res.status, text).toBeLessThan(300)
    return text ? JSON.parse(text) : undefined
  }
  const names = async (search: string) =>
    (await json(await as(admin, 'GET', `/api/admin/users?search=${search}`))).users.map((u: { name: string }) => u.name)
  const contents = async (search: string) =>
    (await json(await as(admin, 'GET', `/api/admin/posts?search=${search}`))).posts.map(
      (p: { content: string }) => p.content,
    )
  /** Plain SQL from another connection: another process, as far as the app can tell. */
  const sqlElsewhere = (...statements: string[]) => runElsewhere(h.database as TestDatabase, ...statements)
  const soon = { timeout: 5000, interval: 20 }
  /**
   * Lets the NOTIFYs of the writes before it arrive (they come a moment after their commit, and one
   * arriving late would drop what the next read keeps), then reads `list` so it is kept.
   */
  async function settled(list: (search: string) => Promise<string[]>, search: string): Promise<string[]> {
    await new Promise((resolve) => setTimeout(resolve, 500))
    return list(search)
  }
  /** Renames a user with the trigger off: no NOTIFY, so only a read of the database could show it. */
  const renameUnheard = (id: string, name: string) =>
    sqlElsewhere(
      'alter table users disable trigger users_admin_list_changed',
      `update users set name = '${name}' where id = '${id}'`,
      'alter table users enable trigger users_admin_list_changed',
    )

  test('a repeated search is answered from memory, until a write is heard or the entry grows old', async () => {
    const tag = `memo${Date.now()}`
    const user = await h.register({ name: `Memo ${tag}` })
    expect(await settled(names, tag)).toEqual([`Memo ${tag}`])
    await renameUnheard(user.id, `Unheard ${tag}`)
    expect(await names(tag)).toEqual([`Memo ${tag}`])
    // A statement that touches no row still notifies: statement-level triggers.
    await sqlElsewhere('update users set name = name where false')
    await expect.poll(() => names(tag), soon).toEqual([`Unheard ${tag}`])
    await renameUnheard(user.id, `Aged ${tag}`)
    expect(await names(tag)).toEqual([`Unheard ${tag}`])
    h.clock.advance(60_000)
    expect(await names(tag)).toEqual([`Aged ${tag}`])
  })

  test('a write that sets no column a list reads (a sync stamp) keeps the list', async () => {
    const tag = `stamp${Date.now()}`
    const member = await h.register({ name: 'Stamp Writer' })
    const buble = await json(await as(member, 'POST', '/api/bubles', { name: `Stamp ${tag}` }))
    const post = await json(await as(member, 'POST', `/api/wall/${buble.id}/posts`, { content: `Stamp ${tag}` }))
    await expect.poll(() => contents(tag), soon).toEqual([`Stamp ${tag}`])
    expect(await settled(contents, tag)).toEqual([`Stamp ${tag}`])
    await sqlElsewhere(
      'alter table posts disable trigger posts_admin_list_changed',
      `update posts set content = 'Unheard ${tag}' where id = '${post.id}'`,
      'alter table posts enable trigger posts_admin_list_changed',
      `update posts set version = version where id = '${post.id}'`,
      `update bubles set changed_version = changed_version where id = '${buble.id}'`,
    )
    // Time for a NOTIFY that should not come.
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await contents(tag)).toEqual([`Stamp ${tag}`])
    await sqlElsewhere(`update bubles set name = name where id = '${buble.id}'`)
    await expect.poll(() => contents(tag), soon).toEqual([`Unheard ${tag}`])
  })

  test("an admin's edit shows at once", async () => {
    const tag = `edit${Date.now()}`
    const user = await h.register({ name: `Before ${tag}` })
    expect(await names(tag)).toEqual([`Before ${tag}`])
    // With the trigger off only this process's own forgetting can show it: no NOTIFY is awaited.
    await sqlElsewhere('alter table users disable trigger users_admin_list_changed')
    try {
      await json(await as(admin, 'PUT', `/api/admin/users/${user.id}`, { name: `After ${tag}` }))
      expect(await names(tag)).toEqual([`After ${tag}`])
    } finally {
      await sqlElsewhere('alter table users enable trigger users_admin_list_changed')
    }
  })

  test('a sign-up and a profile edit through the member API reach a kept search', async () => {
    const tag = `rest${Date.now()}`
    expect(await names(tag)).toEqual([])
    const user = await h.register({ name: `Joiner ${tag}`, email: uniqueEmail(tag) })
    await expect.poll(() => names(tag), soon).toEqual([`Joiner ${tag}`])
    await json(await as(user, 'PUT', '/api/users/profile', { name: `Renamed ${tag}` }))
    await expect.poll(() => names(tag), soon).toEqual([`Renamed ${tag}`])
  })

  test('plain SQL from another connection reaches a kept search through the trigger and LISTEN', async () => {
    const tag = `plain${Date.now()}`
    const user = await h.register({ name: `Plain ${tag}` })
    expect(await names(tag)).toEqual([`Plain ${tag}`])
    await sqlElsewhere(`update users set name = 'Sql ${tag}' where id = '${user.id}'`)
    await expect.poll(() => names(tag), soon).toEqual([`Sql ${tag}`])
  })

  test('a post written on the wall and a post deleted by its author reach a kept search', async () => {
    const tag = `wall${Date.now()}`
    const member = await h.register({ name: 'Wall Writer' })
    const buble = await json(await as(member, 'POST', '/api/bubles', { name: `Wall ${tag}` }))
    expect(await contents(`note ${tag}`)).toEqual([])
    const post = await json(await as(member, 'POST', `/api/wall/${buble.id}/posts`, { content: `Note ${tag}` }))
    await expect.poll(() => contents(`note ${tag}`), soon).toEqual([`Note ${tag}`])
    await json(await as(member, 'DELETE', `/api/wall/posts/${post.id}`))
    await expect.poll(() => contents(`note ${tag}`), soon).toEqual([])
  })

  test('a kept invite turns expired when its time comes', async () => {
    const tag = `inv${Date.now()}`
    const owner = await h.register({ name: 'Invite Owner' })
    const buble = await json(await as(owner, 'POST', '/api/bubles', { name: `Inv ${tag}` }))
    const invite = await json(await as(owner, 'POST', `/api/bubles/${buble.id}/invites`, {}))
    const status = async () =>
      (await json(await as(admin, 'GET', `/api/admin/invites?search=${invite.code}`))).invites[0]?.status
    expect(await status()).toBe('active')
    h.clock.advance(Date.parse(invite.expires_at) - h.clock.now.getTime())
    expect(await status()).toBe('expired')
  })
})
