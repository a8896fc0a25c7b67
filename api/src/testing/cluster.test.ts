/**
 * Issue 22 §3: three real API processes on one PostgreSQL database behind a round-robin proxy.
 * Runs only with TEST_DATABASE_URL set (CI sets it): without it the run leaves it out and says so.
 */

import { createECDH, randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import pg from 'pg'
import sharp from 'sharp'
import { v7 as uuidv7 } from 'uuid'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ACCOUNT_DELETION_JOB_LOCK } from '../features/profile/service.ts'
import { EXPIRY_JOB_LOCK } from '../features/stories/service.ts'
import { ORPHAN_JOB_LOCK } from '../features/uploads/files.ts'
import { type Cluster, JOB_INTERVAL_MS, NODE_HEADER, startCluster } from './cluster.ts'
import { readEvents } from './events.ts'
import { PASSWORD } from './harness.ts'
import { mutation, type TestMutation } from './sync.ts'

/** A push service on 127.0.0.1 that accepts every push and records the paths it was sent to. */
async function startPushService() {
  const received: string[] = []
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      received.push(req.url ?? '')
      res.writeHead(201).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

// Three processes cannot share the embedded PGlite: this file needs PostgreSQL. api/vitest.config.ts leaves it
// out of a run without TEST_DATABASE_URL (scripts/test.mjs says so in one loud line); run by hand, it fails.
if (!process.env.TEST_DATABASE_URL) throw new Error('cluster.test.ts needs TEST_DATABASE_URL (a PostgreSQL server)')

describe('three API nodes on one PostgreSQL behind a round-robin proxy', () => {
  let cluster: Cluster
  beforeAll(async () => {
    // Files in one S3 bucket, as in a deployment (docker-compose.yml): an upload through one node is
    // served by the others from there.
    cluster = await startCluster(3, {}, { s3: true })
  }, 90_000)
  afterAll(async () => {
    await cluster?.stop()
  }, 30_000)

  /** A request through the proxy; `node` pins it to one node, else the proxy picks the next in turn. */
  const call = (path: string, opts: { node?: number; token?: string; method?: string; body?: unknown } = {}) =>
    fetch(`${cluster.proxy.url}${path}`, {
      method: opts.method ?? (opts.body === undefined ? 'GET' : 'POST'),
      headers: {
        ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        ...(opts.node === undefined ? {} : { [NODE_HEADER]: String(opts.node) }),
      },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    })

  const register = async (prefix: string) => {
    const email = `${prefix}-${uuidv7()}@example.com`
    const res = await call('/api/auth/register', { body: { name: 'Cluster Member', email, password: PASSWORD } })
    expect(res.status).toBe(201)
    const { access_token: token } = (await res.json()) as { access_token: string }
    return { email, token }
  }

  const pushThrough = async (node: number, token: string, mutations: TestMutation[], clientId = 'cluster-device') => {
    const res = await call('/api/sync/push', { node, token, body: { clientId, mutations } })
    expect(res.status, await res.clone().text()).toBe(200)
    return ((await res.json()) as { results: { id: string; status: string }[] }).results
  }

  /** One query on a connection of the test's own. */
  const query = async <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: cluster.database.url })
    await client.connect()
    try {
      return (await client.query<R>(text, values)).rows
    } finally {
      await client.end()
    }
  }

  /** An image uploaded to the shared buble through `node`; answers its URL. */
  const uploadImage = async (node: number) => {
    const png = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#3366aa' } })
      .png()
      .toBuffer()
    const form = new FormData()
    form.set('buble_id', bubleId)
    form.set('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'tile.png')
    const uploaded = await fetch(`${cluster.proxy.url}/api/uploads/image`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, [NODE_HEADER]: String(node) },
      body: form,
    })
    expect(uploaded.status, await uploaded.clone().text()).toBe(201)
    return (await uploaded.json()) as { url: string }
  }

  let owner: { email: string; token: string }
  let bubleId: string
  beforeAll(async () => {
    owner = await register('owner')
    bubleId = uuidv7()
    await pushThrough(0, owner.token, [mutation('buble.create', { id: bubleId, name: 'Across nodes' })])
  }, 30_000)

  test('a post written through node A pokes a stream held by node B within a second, and node C pulls it', async () => {
    const stream = await call('/api/stream', { node: 1, token: owner.token })
    expect(stream.status).toBe(200)
    const events = readEvents(stream)
    const postId = uuidv7()
    try {
      expect((await events.next())?.event).toBe('ready')
      const [result] = await pushThrough(0, owner.token, [
        mutation('post.create', { id: postId, buble_id: bubleId, content: 'Written on node A' }),
      ])
      expect(result?.status).toBe('applied')
      const poke = await events.next(1000)
      expect(poke?.event).toBe('poke')
      expect(JSON.parse(poke?.data ?? '{}')).toMatchObject({ buble_id: bubleId })
    } finally {
      await events.close()
    }
    const pulled = await call('/api/sync/pull', { node: 2, token: owner.token })
    expect(pulled.status).toBe(200)
    const { changes } = (await pulled.json()) as { changes: { entity: string; id: string; data?: unknown }[] }
    const post = changes.find((change) => change.entity === 'post' && change.id === postId)
    expect(post?.data).toMatchObject({ content: 'Written on node A' })
  })

  test('10 failed logins spread over the 3 nodes lock the account on every node', async () => {
    const target = await register('locked')
    const before = [...cluster.proxy.served]
    for (let i = 0; i < 10; i++) {
      const res = await call('/api/auth/login', { body: { email: target.email, password: 'Wrong-Passw0rd-x' } })
      expect(res.status).toBe(401)
    }
    // Round robin: each node saw at least three of the ten.
    for (let node = 0; node < 3; node++)
      expect((cluster.proxy.served[node] ?? 0) - (before[node] ?? 0)).toBeGreaterThanOrEqual(3)
    // Now even the right password is refused, on whichever node is asked.
    for (let node = 0; node < 3; node++) {
      const res = await call('/api/auth/login', { node, body: { email: target.email, password: PASSWORD } })
      expect(res.status).toBe(429)
    }
  })

  test('a file uploaded through one node is served by the others, from the bucket', async () => {
    const { url } = await uploadImage(0)
    // In the bucket, not on the shared disk: the nodes could as well be on machines of their own.
    const key = url.split('/').at(-1) ?? ''
    expect(await cluster.s3?.has(key)).toBe(true)
    expect(existsSync(path.join(cluster.dataDir, 'uploads', key))).toBe(false)
    const served: Buffer[] = []
    for (const node of [1, 2]) {
      const res = await call(new URL(url, cluster.proxy.url).pathname, { node, token: owner.token })
      expect(res.status).toBe(200)
      served.push(Buffer.from(await res.arrayBuffer()))
    }
    expect(served[0]?.length).toBeGreaterThan(0)
    expect(served[1]?.equals(served[0]!)).toBe(true)
    expect((await sharp(served[0]).metadata()).width).toBe(32)
  })

  test('every node signs Web Push with the same VAPID key (a subscription made through one works from all)', async () => {
    const keys = new Set<string>()
    for (let node = 0; node < 3; node++) {
      const res = await call('/api/push/vapid-public-key', { node })
      expect(res.status).toBe(200)
      keys.add(((await res.json()) as { publicKey: string }).publicKey)
    }
    expect(keys.size).toBe(1)
  })

  test('a post written through one node shows at once in the admin posts list every node had kept', async () => {
    const admin = await register('admin')
    await query("update users set role = 'admin' where email = $1", [admin.email])
    const marker = `marker-${uuidv7()}`
    const list = async (node: number) => {
      const res = await call(`/api/admin/posts?search=${marker}`, { node, token: admin.token })
      expect(res.status).toBe(200)
      return res.text()
    }
    // Each node reads the list now, and keeps it.
    for (let node = 0; node < 3; node++) expect(await list(node)).not.toContain(marker)
    await pushThrough(0, owner.token, [
      mutation('post.create', { id: uuidv7(), buble_id: bubleId, content: `Admin sees ${marker}` }),
    ])
    // NOTIFY reaches the other nodes a moment after the commit: each answers the new post within a second.
    for (let node = 0; node < 3; node++) {
      const deadline = Date.now() + 1000
      let text = await list(node)
      while (!text.includes(marker) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        text = await list(node)
      }
      expect(text, `node ${node}`).toContain(`Admin sees ${marker}`)
    }
  })

  test('a push subscription stored through one node joins the push audience every other node had kept', async () => {
    const pushService = await startPushService()
    try {
      const member = await register('pushed')
      const invite = await call(`/api/bubles/${bubleId}/invites`, { node: 0, token: owner.token, body: {} })
      const { code } = (await invite.json()) as { code: string }
      expect(
        (await call(`/api/bubles/invites/${code}/accept`, { node: 1, token: member.token, method: 'POST' })).status,
      ).toBe(200)
      const post = (node: number, content: string) =>
        pushThrough(node, owner.token, [mutation('post.create', { id: uuidv7(), buble_id: bubleId, content })])
      // Nodes 1 and 2 read the buble's audience (no subscription of the member's yet) and keep it.
      await post(1, 'Before the subscription, node B')
      await post(2, 'Before the subscription, node C')
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(pushService.received).toEqual([])
      const ecdh = createECDH('prime256v1')
      ecdh.generateKeys()
      const subscribed = await call('/api/push/subscriptions', {
        node: 0,
        token: member.token,
        body: {
          endpoint: `${pushService.origin}/member-device`,
          keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
        },
      })
      expect(subscribed.status).toBe(201)
      for (const node of [1, 2]) {
        const before = pushService.received.length
        await post(node, `After the subscription, node ${node}`)
        const deadline = Date.now() + 3000
        while (pushService.received.length === before && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 25))
        expect(pushService.received.slice(before), `node ${node}`).toEqual(['/member-device'])
      }
    } finally {
      await pushService.close()
    }
  })

  /**
   * Jobs run once across nodes: while the test holds a job's advisory lock (as a node running it
   * would), every node's scheduler comes round several times and leaves the work; once released,
   * one node does it. `setup` makes the work due once the lock is held. Answers when `done` says so.
   */
  const heldThenRunOnce = async (lockKey: number, setup: () => Promise<void>, done: () => Promise<boolean>) => {
    const holder = new pg.Client({ connectionString: cluster.database.url })
    await holder.connect()
    try {
      await holder.query('select pg_advisory_lock($1)', [lockKey])
      await setup()
      await new Promise((resolve) => setTimeout(resolve, JOB_INTERVAL_MS * 5))
      expect(await done()).toBe(false)
      await holder.query('select pg_advisory_unlock($1)', [lockKey])
      const deadline = Date.now() + JOB_INTERVAL_MS * 10
      while (!(await done())) {
        if (Date.now() > deadline) throw new Error(`the job of lock ${lockKey} never ran`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    } finally {
      await holder.end()
    }
  }

  test('story expiry runs on one node at a time: skipped by every node while its lock is held elsewhere, then once', async () => {
    const [author] = await query<{ id: string }>('select id from users where email = $1', [owner.email])
    const storyId = uuidv7()
    await heldThenRunOnce(
      EXPIRY_JOB_LOCK,
      async () => {
        await query(
          `insert into stories (id, buble_id, author_id, media_url, media_type, duration_seconds, expires_at)
               values ($1, $2, $3, '/api/uploads/secure/expired-story.webp', 'image', 5, now() - interval '1 minute')`,
          [storyId, bubleId, author!.id],
        )
      },
      async () => (await query('select id from stories where id = $1', [storyId])).length === 0,
    )
    // Let every node come round again: one tombstone, the deletion went to devices once.
    await new Promise((resolve) => setTimeout(resolve, JOB_INTERVAL_MS * 3))
    const tombstones = await query("select version from sync_tombstones where entity = 'story' and entity_id = $1", [
      storyId,
    ])
    expect(tombstones).toHaveLength(1)
  })

  test('the orphan-file job runs on one node at a time; the file it removed is gone from every node', async () => {
    const { url } = await uploadImage(0)
    const path = new URL(url, cluster.proxy.url).pathname
    const key = decodeURIComponent(path.slice(path.indexOf('/secure/') + '/secure/'.length))
    await heldThenRunOnce(
      ORPHAN_JOB_LOCK,
      async () => {
        // Uploaded two hours ago and never attached: an orphan.
        const aged = await query(
          "update uploads set created_at = now() - interval '2 hours' where key = $1 returning key",
          [key],
        )
        expect(aged).toHaveLength(1)
      },
      async () => (await query('select key from uploads where key = $1', [key])).length === 0,
    )
    for (let node = 0; node < 3; node++) {
      const deadline = Date.now() + 2000
      let status = (await call(path, { node, token: owner.token })).status
      while (status !== 404 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        status = (await call(path, { node, token: owner.token })).status
      }
      expect(status, `node ${node}`).toBe(404)
    }
  })

  test('account deletion runs on one node at a time: the due account is deleted once its lock is free', async () => {
    const leaving = await register('leaving')
    await heldThenRunOnce(
      ACCOUNT_DELETION_JOB_LOCK,
      async () => {
        await query("update users set deletion_scheduled_for = now() - interval '1 minute' where email = $1", [
          leaving.email,
        ])
      },
      async () =>
        (await query<{ status: string }>('select status from users where email = $1', [leaving.email]))[0]?.status !==
        'active',
    )
    // The address was anonymised with the account: no row keeps it, and its token is dead on every node.
    expect(await query('select id from users where email = $1', [leaving.email])).toHaveLength(0)
    for (let node = 0; node < 3; node++)
      expect((await call('/api/users/profile', { node, token: leaving.token })).status).toBe(401)
  })

  // Last: it kills a node.
  test('a node killed with SIGKILL in the middle of a push: the retry through another node applies each mutation once', async () => {
    const batch = Array.from({ length: 100 }, (_, i) =>
      mutation('post.create', { id: uuidv7(), buble_id: bubleId, content: `Batch post ${i + 1}` }),
    )
    const ids = batch.map((m) => m.id)
    const postIds = batch.map((m) => m.args.id as string)
    const victim = cluster.nodes[2]!
    // Runs of plain posts are one statement now (decision 93): the push could commit before the test
    // saw it writing. A trigger holds the transaction open for a while once the posts are in, so the
    // kill lands in the middle of it every time (dropped before the retry).
    await query(`create or replace function hold_push() returns trigger language plpgsql as $$
        begin perform pg_sleep(2); return null; end $$`)
    await query('create trigger hold_push after insert on posts for each statement execute function hold_push()')
    const pushing = call('/api/sync/push', {
      node: 2,
      token: owner.token,
      body: { clientId: 'killed-device', mutations: batch },
    }).then(
      (res) => res.status,
      () => 'failed' as const,
    )
    // In the middle: a transaction has inserted posts and not yet ended (it holds the table's
    // RowExclusiveLock until then; no job writes posts).
    const deadline = Date.now() + 10_000
    for (;;) {
      const [writing] = await query<{ n: string }>(
        `select count(*) as n from pg_locks l join pg_class c on c.oid = l.relation
             where l.database = (select oid from pg_database where datname = current_database())
               and c.relname = 'posts' and l.mode = 'RowExclusiveLock' and l.granted`,
      )
      if (Number(writing?.n) > 0) break
      if (Date.now() > deadline) throw new Error('the push never began writing')
    }
    victim.child.kill('SIGKILL')
    expect(await victim.exited).toBe(null)
    await query('drop trigger hold_push on posts')
    await query('drop function hold_push()')
    // The device never heard an answer: the proxy answers 502 (or the connection drops).
    expect(await pushing).not.toBe(200)

    // It was killed before the whole batch had committed (with one transaction per batch, none had).
    const committed = Number(
      (await query<{ n: string }>('select count(*) as n from applied_mutations where id = any($1::uuid[])', [ids]))[0]
        ?.n,
    )
    expect(committed).toBeLessThan(100)

    // The device retries the same batch, with the same ids, through the next node in turn: what
    // had committed is a duplicate, the rest is applied now.
    const results = await pushThrough(0, owner.token, batch, 'killed-device')
    expect(results.filter((r) => r.status === 'applied')).toHaveLength(100 - committed)
    expect(results.filter((r) => r.status === 'duplicate')).toHaveLength(committed)
    // And again through the third (an answer lost on the way): every one is a duplicate.
    const replayed = await pushThrough(1, owner.token, batch, 'killed-device')
    expect(replayed.map((r) => r.status)).toEqual(batch.map(() => 'duplicate'))
    const [posts] = await query<{ n: string }>('select count(*) as n from posts where id = any($1::uuid[])', [postIds])
    expect(Number(posts?.n)).toBe(100)
    const [byContent] = await query<{ n: string }>(
      "select count(*) as n from posts where buble_id = $1 and content like 'Batch post %'",
      [bubleId],
    )
    expect(Number(byContent?.n)).toBe(100)
    const [applied] = await query<{ n: string }>(
      'select count(*) as n from applied_mutations where id = any($1::uuid[])',
      [ids],
    )
    expect(Number(applied?.n)).toBe(100)
  }, 30_000)
})
