/**
 * Issue 22's write-throughput benchmark, `push-parallel`: 8 devices, each its own user owning its
 * own buble, push full batches (100 new mutations: posts and chat messages, alternating) at the
 * same time, `BENCH_PUSH_ROUNDS` rounds each (default 10) after one warm-up round per node. Different
 * bubles share nothing but the server, so any queuing between them is the write path's own (before
 * decision 91: the one version lock a push held for its whole batch; since, none).
 *
 * The devices' users and bubles are seeded in PostgreSQL and their tokens signed with the server's
 * secret (no sign-up's argon2 measured). Requests go round-robin over the base URLs given (one node
 * today; `BENCH_PUSH_URLS`, comma-separated, for several). Reports mutations applied per second of
 * wall time and the p50/p99 of a batch's answer; checks every mutation came back `applied` and that
 * the rows are in the database, each once.
 */

import { readFileSync } from 'node:fs'
import path from 'node:path'
import { MAX_PUSH_BATCH } from '@buble/sync/protocol'
import pg from 'pg'
import { v7 as uuidv7 } from 'uuid'
import { createAccessTokens } from '../src/lib/tokens.ts'
import type { DeviceResult } from './device.ts'
import { insertMemberships, insertUsers, seedTransaction } from './seed.ts'

export const PUSH_PARALLEL = 'push-parallel'
const DEVICES = 8
/** Issue 22: on this 2-core machine, one node. */
const TARGET_MUTATIONS_PER_S = 1_000

type Mutation = { id: string; name: string; args: Record<string, unknown>; createdAt: string }
type Result = { id: string; status: string; code?: string }

interface Device {
  userId: string
  bubleId: string
  token: string
}

export interface PushParallelSetup {
  /** One URL per node; requests take them in turn. */
  baseUrls: readonly string[]
  databaseUrl: string | undefined
  /** The server's DATA_DIR, where its JWT secret is (unless JWT_SECRET is set). */
  dataDir: string
  rounds: number
}

// ---- the pure parts (push-parallel.test.ts) -------------------------------------------------------

/** The nearest-rank percentile of ascending `sorted` (NaN when empty). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

export interface Summary {
  batches: number
  mutations: number
  seconds: number
  mutationsPerS: number
  p50Ms: number
  p99Ms: number
  maxMs: number
}

/** Batches' latencies (ms, any order), mutations applied and the wall time, summed up. */
export function summarize(latenciesMs: readonly number[], mutations: number, wallMs: number): Summary {
  const sorted = [...latenciesMs].sort((a, b) => a - b)
  const seconds = wallMs / 1000
  return {
    batches: sorted.length,
    mutations,
    seconds,
    mutationsPerS: seconds > 0 ? mutations / seconds : 0,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted.length > 0 ? sorted[sorted.length - 1]! : Number.NaN,
  }
}

/** A function answering `urls` in turn, forever (throws when there are none). */
export function roundRobin(urls: readonly string[]): () => string {
  if (urls.length === 0) throw new Error('push-parallel needs at least one base URL')
  let next = 0
  return () => urls[next++ % urls.length]!
}

/** The base URLs from `BENCH_PUSH_URLS` (comma-separated), else `fallback`. */
export function baseUrlsFrom(env: string | undefined, fallback: string): string[] {
  const urls = (env ?? '')
    .split(',')
    .map((url) => url.trim().replace(/\/+$/, ''))
    .filter(Boolean)
  return urls.length > 0 ? urls : [fallback]
}

/** A batch of `size` new mutations into `bubleId`: posts and chat messages, alternating. */
export function batchFor(bubleId: string, label: string, size = MAX_PUSH_BATCH): Mutation[] {
  return Array.from({ length: size }, (_, i) => ({
    id: uuidv7(),
    name: i % 2 === 0 ? 'post.create' : 'chat.send',
    args: { id: uuidv7(), buble_id: bubleId, content: `${i % 2 === 0 ? 'Post' : 'Message'} ${label}.${i}` },
    createdAt: new Date().toISOString(),
  }))
}

// ---- seeding and pushing --------------------------------------------------------------------------

/** The devices' users, each the owner of a buble of its own, and their tokens. */
async function seedDevices(setup: PushParallelSetup, run: string): Promise<Device[]> {
  const userIds = Array.from({ length: DEVICES }, () => uuidv7())
  const bubleIds = Array.from({ length: DEVICES }, () => uuidv7())
  await seedTransaction(setup.databaseUrl, 'analyze users, bubles, memberships', async (client) => {
    await insertUsers(client, { run, prefix: 'push-parallel', name: 'Parallel Device', userIds })
    await client.query(
      `insert into bubles (id, slug, name, owner_id)
       select id, 'push-parallel-' || $3 || '-' || n, 'Parallel buble ' || n, owner
       from unnest($1::uuid[], $2::uuid[]) with ordinality as t(id, owner, n)`,
      [bubleIds, userIds, run],
    )
    await insertMemberships(client, { bubleIds, userIds, roles: userIds.map(() => 'owner' as const) }, bubleIds)
  })
  const secret =
    process.env.JWT_SECRET ||
    (JSON.parse(readFileSync(path.join(setup.dataDir, 'secrets.json'), 'utf8')) as { jwtSecret: string }).jwtSecret
  const tokens = createAccessTokens(secret)
  return Promise.all(
    userIds.map(async (userId, i) => ({
      userId,
      bubleId: bubleIds[i]!,
      token: await tokens.sign({ id: userId, tokenVersion: 0 }),
    })),
  )
}

async function pushBatch(baseUrl: string, device: Device, mutations: Mutation[]) {
  const res = await fetch(`${baseUrl}/api/sync/push`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${device.token}` },
    body: JSON.stringify({ clientId: `parallel-${device.userId}`, mutations }),
  })
  const text = await res.text()
  return { status: res.status, results: res.ok ? (JSON.parse(text) as { results: Result[] }).results : [], text }
}

/** Rows of the devices' bubles: posts and chat messages. */
async function countRows(databaseUrl: string, bubleIds: string[]): Promise<{ posts: number; messages: number }> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query<{ posts: string; messages: string }>(
      `select (select count(*) from posts where buble_id = any($1::uuid[])) as posts,
              (select count(*) from chat_messages where buble_id = any($1::uuid[])) as messages`,
      [bubleIds],
    )
    return { posts: Number(rows[0]!.posts), messages: Number(rows[0]!.messages) }
  } finally {
    await client.end()
  }
}

export async function runPushParallel(setup: PushParallelSetup): Promise<DeviceResult> {
  const nodes = setup.baseUrls.length
  const name = `${PUSH_PARALLEL} (${DEVICES} devices, a buble each, batches of ${MAX_PUSH_BATCH}, ${nodes} node${nodes === 1 ? '' : 's'})`
  if (!setup.databaseUrl) return { name, figure: 'skipped (needs PostgreSQL)', target: '-', met: true }
  const run = uuidv7().slice(-8)
  const devices = await seedDevices(setup, run)
  const nextUrl = roundRobin(setup.baseUrls)
  const latencies: number[] = []
  let sent = 0
  let applied = 0
  /** Applied in the measured rounds (counted in `push`: `total += await …` would read `total` before the wait). */
  let measuredApplied = 0
  let firstError = ''
  const push = async (device: Device, label: string, measured: boolean) => {
    const batch = batchFor(device.bubleId, label)
    sent += batch.length
    const at = performance.now()
    const answer = await pushBatch(nextUrl(), device, batch)
    if (measured) latencies.push(performance.now() - at)
    if (answer.status !== 200) {
      firstError ||= `${answer.status} ${answer.text.slice(0, 200)}`
      return
    }
    const ok = answer.results.filter((result) => result.status === 'applied').length
    if (ok !== batch.length) {
      const other = answer.results.find((result) => result.status !== 'applied')
      firstError ||= `${batch.length - ok} of a batch not applied${other ? ` (${other.status} ${other.code ?? ''})` : ''}`
    }
    applied += ok
    if (measured) measuredApplied += ok
  }
  // Warm-up rounds (connections, the statements' plans, the JIT), not measured: one per node, so
  // each node has run as many batches as a single node has before the clock starts.
  for (let n = 0; n < nodes; n++)
    await Promise.all(devices.map((device, i) => push(device, `${run} ${i} warm-up ${n}`, false)))
  const started = performance.now()
  await Promise.all(
    devices.map(async (device, i) => {
      for (let n = 1; n <= setup.rounds; n++) await push(device, `${run} ${i} ${n}`, true)
    }),
  )
  const summary = summarize(latencies, measuredApplied, performance.now() - started)
  const rows = await countRows(
    setup.databaseUrl,
    devices.map((device) => device.bubleId),
  )
  const expectedEach = sent / 2
  const figure =
    `${summary.batches} batches, ${summary.mutations.toLocaleString('en')} mutations in ${summary.seconds.toFixed(1)} s = ` +
    `${summary.mutationsPerS.toFixed(0)} mutations/s; push p50 ${summary.p50Ms.toFixed(0)} ms, p99 ${summary.p99Ms.toFixed(0)} ms, ` +
    `max ${summary.maxMs.toFixed(0)} ms; rows: ${rows.posts.toLocaleString('en')} posts, ${rows.messages.toLocaleString('en')} messages of ${sent.toLocaleString('en')} sent`
  const result: DeviceResult = {
    name,
    figure,
    target: `≥ ${TARGET_MUTATIONS_PER_S.toLocaleString('en')} mutations/s on one node`,
    met: summary.mutationsPerS >= TARGET_MUTATIONS_PER_S,
  }
  if (applied !== sent || rows.posts !== expectedEach || rows.messages !== expectedEach)
    result.error =
      `${sent} mutations sent, ${applied} applied, ${rows.posts} posts and ${rows.messages} messages stored ` +
      `(expected ${expectedEach} each)${firstError ? `; first: ${firstError}` : ''}`
  return result
}
