/**
 * The client engine (@buble/sync/client) against the real server: a device database in
 * fake-indexeddb, the app over HTTP (in process, or a child process that crashes on purpose).
 */

import type { DeviceAuthor } from '@buble/shared/device-rows'
import { SyncEngine } from '@buble/sync/client/engine'
import { recordingTransport } from '@buble/sync/client/test-kit'
import { createFetchTransport } from '@buble/sync/client/transport'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Backend, backends, openTestDatabase, type TestDatabase } from '../../testing/databases.ts'
import { type DeviceDb, testDb } from '../../testing/device-db.ts'
import { createHarness, type Harness, PASSWORD, uniqueEmail } from '../../testing/harness.ts'
import { type ServerProcess, startServerProcess } from '../../testing/server-process.ts'
import { mutation, pullAll, push } from '../../testing/sync.ts'

const offlineFetch: typeof fetch = () => Promise.reject(new TypeError('Failed to fetch'))

/** A device: its database, and an engine over a transport that records what the server answered. */
function device(
  db: DeviceDb,
  actor: DeviceAuthor,
  token: string,
  fetchFn: typeof fetch,
  extra: Partial<ConstructorParameters<typeof SyncEngine>[0]> = {},
) {
  const { transport, answers } = recordingTransport(
    createFetchTransport({ baseUrl: '', token: () => token, fetch: fetchFn }),
  )
  const engine = new SyncEngine({ db, transport, actor: () => actor, intervalMs: 0, ...extra })
  return { engine, answers }
}

const actorOf = (id: string, email: string, name = 'Device Owner'): DeviceAuthor => ({
  id,
  email,
  name,
  avatar_url: null,
})

describe.each(backends())('the sync engine with the real server on %s', (backend: Backend) => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness(backend, { BUBLE_RATE_LIMITS: 'off' })
  })
  afterAll(() => h?.close())

  const viaApp: typeof fetch = (input, init) => Promise.resolve(h.app.request(String(input), init))

  test('an offline queue of 50 survives a restart of the engine and is replayed once, in order', async () => {
    const user = await h.register({ name: 'Train Rider' })
    const actor = actorOf(user.id, user.email, 'Train Rider')
    const name = `device-${uuidv7()}`
    const names = Array.from({ length: 50 }, (_, i) => `Queued ${String(i + 1).padStart(2, '0')}`)

    // On the train: no network. Every buble shows at once, pending.
    const first = testDb(name)
    const offline = device(first, actor, user.token, offlineFetch)
    for (const bubleName of names) await offline.engine.mutate('buble.create', { id: uuidv7(), name: bubleName })
    await offline.engine.sync()
    expect((await offline.engine.status()).state).toBe('offline')
    expect(await first.outbox.count()).toBe(50)
    expect((await first.bubles.toArray()).every((row) => row._pending)).toBe(true)
    offline.engine.stop()
    first.close()

    // The app is closed and opened again later, online: a new engine over the same database.
    const again = testDb(name)
    expect(await again.outbox.count()).toBe(50)
    const online = device(again, actor, user.token, viaApp)
    await online.engine.sync()
    expect(online.answers.map((answer) => answer.status)).toEqual(Array(50).fill('applied'))
    expect(await again.outbox.count()).toBe(0)
    const rows = await again.bubles.toArray()
    expect(rows).toHaveLength(50)
    expect(rows.every((row) => !row._pending && typeof row.slug === 'string' && row.slug.startsWith('queued-'))).toBe(
      true,
    )

    // Exactly once on the server, in the order they were made (a fresh device receives them in version order).
    const onServer = (await (await h.call('GET', '/api/bubles', { token: user.token })).json()) as { name: string }[]
    expect(onServer.map((buble) => buble.name).sort()).toEqual(names)
    const received = (await pullAll(h, user.token)).changes.filter((change) => change.entity === 'buble')
    expect(received.map((change) => (change.data as { name: string }).name)).toEqual(names)
    // Nothing more to send, and nothing changes when syncing again.
    await online.engine.sync()
    expect(online.answers).toHaveLength(50)
    again.close()
  })

  test('a change refused by the server is rolled back on the device and kept as not saved', async () => {
    const owner = await h.register()
    const member = await h.register({ name: 'Plain Member' })
    const created = await (
      await h.call('POST', '/api/bubles', { token: owner.token, body: { name: 'Not yours to delete' } })
    ).json()
    const { code } = await (
      await h.call('POST', `/api/bubles/${created.id}/invites`, { token: owner.token, body: {} })
    ).json()
    await h.call('POST', `/api/bubles/invites/${code}/accept`, { token: member.token })
    const db = testDb()
    const phone = device(db, actorOf(member.id, member.email), member.token, viaApp)
    await phone.engine.sync()
    expect(await db.bubles.get(created.id)).toMatchObject({ name: 'Not yours to delete' })
    await phone.engine.mutate('buble.delete', { id: created.id })
    await phone.engine.sync()
    expect(phone.answers.at(-1)).toMatchObject({ status: 'rejected', code: 'FORBIDDEN' })
    expect(await db.bubles.get(created.id)).toMatchObject({ name: 'Not yours to delete', my_role: 'member' })
    expect(await db.rejections.toArray()).toMatchObject([
      { name: 'buble.delete', args: { id: created.id }, code: 'FORBIDDEN' },
    ])
    db.close()
  })

  test("another member's change reaches this device with its next pull, and a left buble leaves it", async () => {
    const owner = await h.register({ name: 'Olle Owner' })
    const member = await h.register({ name: 'Maja Member' })
    const db = testDb()
    const phone = device(db, actorOf(member.id, member.email), member.token, viaApp)
    const created = await (
      await h.call('POST', '/api/bubles', { token: owner.token, body: { name: 'Converging' } })
    ).json()
    const { code } = await (
      await h.call('POST', `/api/bubles/${created.id}/invites`, { token: owner.token, body: {} })
    ).json()
    await h.call('POST', `/api/bubles/invites/${code}/accept`, { token: member.token })
    await phone.engine.sync()
    expect((await db.members.where('buble_id').equals(created.id).toArray()).map((row) => row.user_id).sort()).toEqual(
      [owner.id, member.id].sort(),
    )
    await push(h, owner.token, [mutation('profile.update', { name: 'Olle Renamed' })])
    await phone.engine.sync()
    expect(await db.members.get(`${created.id}:${owner.id}`)).toMatchObject({ user: { name: 'Olle Renamed' } })
    await phone.engine.mutate('buble.leave', { buble_id: created.id })
    expect(await db.bubles.get(created.id)).toBeUndefined()
    await phone.engine.sync()
    expect(await db.members.where('buble_id').equals(created.id).count()).toBe(0)
    expect(await db.shadows.count()).toBe(0)
    db.close()
  })
  test('the next page is asked for while a page is written; a page that fails to be written drops the one fetched ahead, and the next round goes on from the stored cursor', async () => {
    const user = await h.register({ name: 'Page Turner' })
    for (let i = 1; i <= 4; i++)
      await h.call('POST', '/api/bubles', { token: user.token, body: { name: `Paged ${i}` } })
    const db = testDb()
    const events: string[] = []
    const logged: typeof fetch = (input, init) => {
      const cursor = new URL(String(input), 'http://device').searchParams.get('cursor')
      if (String(input).includes('/api/sync/pull')) events.push(`asked after ${cursor ?? 'nothing'}`)
      return viaApp(input, init)
    }
    // Storing the second page's cursor fails once: the round ends there.
    let stored = 0
    let failOnce = true
    db.meta.hook('creating', (key, row) => {
      if (key !== 'cursor') return
      stored += 1
      if (stored === 2 && failOnce) {
        failOnce = false
        throw new Error('the disk is full')
      }
      events.push(`stored ${(row as { value: string }).value}`)
    })
    db.meta.hook('updating', (_changes, key, row) => {
      if (key !== 'cursor') return
      stored += 1
      if (stored === 2 && failOnce) {
        failOnce = false
        throw new Error('the disk is full')
      }
      events.push(`stored ${(_changes as { value?: string }).value ?? (row as { value: string }).value}`)
      return undefined
    })
    const phone = device(db, actorOf(user.id, user.email, 'Page Turner'), user.token, logged, { pullLimit: 2 })

    await phone.engine.sync()
    expect((await phone.engine.status()).state).toBe('error')
    const first = events.find((event) => event.startsWith('stored '))!.slice('stored '.length)
    // The page after the first was asked for before the first's cursor was stored: while it was written.
    expect(events.indexOf(`asked after ${first}`)).toBeGreaterThan(-1)
    expect(events.indexOf(`asked after ${first}`)).toBeLessThan(events.indexOf(`stored ${first}`))
    expect(await db.meta.get('cursor')).toMatchObject({ value: first })

    await phone.engine.sync()
    expect((await phone.engine.status()).state).toBe('idle')
    // The next round starts from the stored cursor: the second page is asked for again, and everything arrives once.
    expect(events.filter((event) => event === `asked after ${first}`)).toHaveLength(2)
    expect(await db.bubles.count()).toBe(4)
    expect(await db.members.count()).toBe(4)
    db.close()
  })
})

describe.each(backends())('a server that dies mid-push, on %s', (backend: Backend) => {
  let database: TestDatabase | undefined
  let dataDir: string
  const servers: ServerProcess[] = []
  beforeAll(async () => {
    const { mkdtempSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const path = await import('node:path')
    dataDir = mkdtempSync(path.join(tmpdir(), 'buble-crash-'))
    if (backend === 'postgres') database = await openTestDatabase('postgres')
  })
  afterAll(async () => {
    for (const server of servers) await server.stop()
    await database?.close()
    const { rmSync } = await import('node:fs')
    rmSync(dataDir, { recursive: true, force: true })
  })

  test('after it commits and before it answers: the replay answers duplicate, and nothing is written twice', async () => {
    const ids = Array.from({ length: 5 }, () => uuidv7())
    const env: Record<string, string> = database?.url ? { DATABASE_URL: database.url } : {}
    const crashing = await startServerProcess({
      entry: 'api/src/testing/crash-server.ts',
      dataDir,
      env: { ...env, BUBLE_TEST_CRASH_AFTER_COMMIT: ids[2]! },
    })
    servers.push(crashing)
    const email = uniqueEmail('crash')
    const registered = await fetch(`${crashing.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Crash Tester', email, password: PASSWORD }),
    })
    const { access_token: token, user } = (await registered.json()) as { access_token: string; user: { id: string } }

    let base = crashing.url
    let online = false
    const planned = [...ids]
    const db = testDb()
    // Batches of two: [1, 2] is answered; [3, 4] commits, then the process dies without answering.
    const phone = device(db, actorOf(user.id, email), token, (input, init) => fetch(`${base}${String(input)}`, init), {
      isOnline: () => online,
      newId: () => planned.shift() ?? uuidv7(),
      pushBatch: 2,
    })
    for (let i = 0; i < 5; i++) await phone.engine.mutate('buble.create', { id: uuidv7(), name: `Crash ${i + 1}` })
    online = true
    await phone.engine.sync()
    expect(await crashing.exited).toBeNull()
    expect((await phone.engine.status()).state).toBe('offline')
    expect(phone.answers.map((answer) => [answer.id, answer.status])).toEqual([
      [ids[0], 'applied'],
      [ids[1], 'applied'],
    ])
    expect(await db.outbox.filter((entry) => entry.status === 'pending').count()).toBe(3)

    const restarted = await startServerProcess({ dataDir, env })
    servers.push(restarted)
    base = restarted.url
    await phone.engine.sync()
    expect(phone.answers.slice(2).map((answer) => [answer.id, answer.status])).toEqual([
      [ids[2], 'duplicate'],
      [ids[3], 'duplicate'],
      [ids[4], 'applied'],
    ])
    const list = await fetch(`${restarted.url}/api/bubles`, { headers: { authorization: `Bearer ${token}` } })
    const names = ((await list.json()) as { name: string }[]).map((buble) => buble.name).sort()
    expect(names).toEqual(['Crash 1', 'Crash 2', 'Crash 3', 'Crash 4', 'Crash 5'])
    expect(await db.bubles.count()).toBe(5)
    expect(await db.outbox.count()).toBe(0)
    db.close()
    // Two server processes start on a fresh PGlite data directory (initdb each): slow on a busy machine.
  }, 120_000)
})
