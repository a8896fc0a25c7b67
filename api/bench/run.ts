/**
 * `npm run bench`: load-tests the real server with autocannon and reports against the targets.
 *
 * Starts the server (`api/src/testing/bench-server.ts`: server.ts with outbound fetches allowed to
 * reach 127.0.0.1, for the local push service) as a child process on a free port with a temporary
 * DATA_DIR and rate limits off, on PostgreSQL (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the
 * local buble_test database; PGlite with a warning when none answers), signs up one user, then runs
 * every scenario below: a short warm-up, then a measured run, then the same run against the
 * runtime's floor (floor.ts: a bare node:http server in a process of its own, answering the same
 * request with the answer Buble gave it, from memory), while the server's RSS is sampled (rss.ts).
 * It prints a table (req/s, p50, p99, the floor's req/s, their ratio, peak RSS) and a verdict per
 * target (report.ts): targets are ratios to the floor, which does not move when Buble gets faster.
 * Then issue 11's stream benchmarks (streams.ts): 10,000 live streams, a chat message's
 * fan-out to 1,000 of them, chat-send while Web Push batches flow. Then the device benchmarks
 * (device.ts): a fresh device pulling 10,000 changes and a device pushing 500 queued mutations, with
 * the real engine over fake-indexeddb in this process. Then issue 12's streamed downloads (admin.ts):
 * the CSV export of 100,000 users and a member's data export, with the server's RSS growth. Then
 * issue 18's auth-timing (auth-timing.ts): forgot-password and resend-verification must take as long
 * for an address nobody has as for a known one. Then issue 18's push-mixed and issue 22's push-parallel
 * (push-parallel.ts: 8 devices pushing batches of 100 into bubles of their own at once). Then issue 23's
 * search (search.ts: 100,000 posts, p95 of one connection's queries). It exits
 * non-zero when a request failed (non-2xx, connection error, timeout) or data was lost or doubled; a
 * missed target is printed as MISSED but does not fail the run, since wall-clock numbers depend on
 * the machine.
 *
 * Knobs: BENCH_DURATION (s each measured run, Buble's and its floor's alike, default 5),
 * BENCH_WARMUP (s, default 3), BENCH_CONNECTIONS (default 50),
 * BENCH_ONLY (comma-separated scenario names), BENCH_STREAM_HOLD (s the 10,000 streams are held,
 * default 30), BENCH_SLOW_CLIENT_KBPS (the pace issue 12's downloads are read at, default 1024),
 * BENCH_AUTH_ROUNDS and BENCH_AUTH_GAP_MS (auth-timing's measured rounds, default 200, and the pause
 * after each answer, default 20 ms), BENCH_PUSH_ROUNDS (push-parallel's batches per device, default 10),
 * BENCH_PUSH_URLS (push-parallel's nodes, comma-separated; default this run's server).
 */

import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import pg from 'pg'
import { runAdminBenchmarks } from './admin.ts'
import { runAuthTimingBenchmarks } from './auth-timing.ts'
import { cpuMs, cpuUsPerRequest } from './cpu.ts'
import {
  type DeviceResult,
  pullIntoFreshDevice,
  pushQueued,
  seedBubles,
  seedBusyBuble,
  upToDateCursor,
} from './device.ts'
import { type Floor, type FloorAnswer, recordAnswer, type SentRequest, startFloor } from './floor.ts'
import { PUSH_MIXED, runPushMixed } from './push-mixed.ts'
import { baseUrlsFrom, PUSH_PARALLEL, runPushParallel } from './push-parallel.ts'
import { type Row, type Targets, table, verdictLines } from './report.ts'
import { rssKb, sampleRss } from './rss.ts'
import { runSearchBenchmark } from './search.ts'
import { SEARCH_POSTS, SEARCH_USERS, seedAdminData } from './seed-admin.ts'
import { seedEventsAndPolls } from './seed-events.ts'
import { seedWall } from './seed-wall.ts'
import { runStreamBenchmarks } from './streams.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
// 5 s (was 10) since every scenario now runs twice, against Buble and against its floor: the run
// stays as long as before. Each figure is an average of per-second samples; 5 of them suffice.
const DURATION = Number(process.env.BENCH_DURATION ?? 5)
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
/** push-parallel's measured rounds per device (each one batch of 100). */
const PUSH_ROUNDS = Number(process.env.BENCH_PUSH_ROUNDS ?? 10)
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/buble_test'
/** Issue 20: the server's peak RSS over the HTTP load. */
const MAX_RSS_MB = 512

/** What a scenario can use: the signed-up user's token, and what `prepare` of a scenario made. */
interface Context {
  baseUrl: string
  token: string
  userId: string
  email: string
  databaseUrl: string | undefined
  /** Set by scenarios' `prepare`: an up-to-date pull cursor of the user. */
  cursor?: string
  /** Set by wall-page-1's `prepare`: the buble with 100,000 posts the wall scenarios read. */
  wallId?: string
  /** Set by scenarios' `prepare`: the buble a scenario reads. */
  bubleId?: string
  /** Set by bubles-list's (or buble-get's) `prepare`: issue 20's buble of 8 members, 100,000 posts, 20 events and 20 polls. */
  bigBubleId?: string
  /** Set by events-2000's (or polls-2000's) `prepare`: the buble with 2,000 events and 2,000 polls. */
  eventsBubleId?: string
  /** Set by chat-send's `prepare`: the buble of 100 members the messages are sent to. */
  chatBubleId?: string
  /** The lists' ETags, for the revalidation scenarios. */
  etags?: { events?: string; polls?: string }
  /** Set once the admin lists' 100,000 users and posts are seeded and the user made an admin. */
  adminSeeded?: boolean
}

interface Scenario extends Targets {
  name: string
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  path: string | ((ctx: Context) => string)
  headers?: (ctx: Context) => Record<string, string>
  body?: (ctx: Context) => unknown
  /** Runs once before the scenario's warm-up. */
  prepare?: (ctx: Context) => Promise<void>
  /** Its data is seeded straight into PostgreSQL: skipped on the PGlite fallback. */
  needsPostgres?: boolean
  /** The status every answer must have (default: any 2xx). */
  expectStatus?: number
  /** When each request must differ: the path of the next one (`path` stays the scenario's label). */
  nextPath?: () => string
}

// Issue 20's targets, each a share of the scenario's own floor: a bare node:http server sending the
// same answer (floor.ts). The closed issues' targets were shares of health's req/s, and a faster
// health made them harder to meet (decision 49).

/** health: Hono on Node reaches 0.84 of the floor. */
const HEALTH = 0.8
/** GET /api/bubles and GET /api/bubles/:id, each (with p99 < 25 ms). */
const BUBLE_READ = 0.15
/** Every other GET, 304s and the admin searches included. */
const READ = 0.25
/**
 * chat-send: its old target was 0.3 of health, and health ran at 0.20 of its floor (issue 20: 10,200
 * of 49,800 req/s), so 0.3 × 0.20 = 0.06 of health's floor. chat-send's own floor (reading the
 * 40-byte body, sending the 201 of 1.2 KB) ran at 0.83–1.17 of health's, about 1.0 (alternating
 * rounds on this machine), so the old bar is 0.06 of its own floor too.
 */
const CHAT_SEND = 0.06

const bearer = (ctx: Context) => ({ authorization: `Bearer ${ctx.token}` })
/** A browser's request: every browser (and the PWA's fetch) accepts gzip. */
const browser = (ctx: Context) => ({ ...bearer(ctx), 'accept-encoding': 'gzip, deflate, br' })

/** Issue 10: a client that holds the buble's `list` asks again with its ETag: a bodiless 304. */
const notModified = (list: 'events' | 'polls'): Scenario => ({
  name: `${list}-2000-304`,
  path: (ctx) => `/api/bubles/${ctx.eventsBubleId}/${list}`,
  headers: (ctx) => ({ ...browser(ctx), 'if-none-match': ctx.etags?.[list] ?? '' }),
  expectStatus: 304,
  minRatioToFloor: READ,
  needsPostgres: true,
  prepare: async (ctx) => {
    await seedEventsOnce(ctx)
    ctx.etags = { ...ctx.etags, [list]: await etagOf(ctx, `/api/bubles/${ctx.eventsBubleId}/${list}`) }
  },
})

/** Every scenario, in the order run. Add new ones here. */
const SCENARIOS: Scenario[] = [
  { name: 'health', path: '/api/health', minRatioToFloor: HEALTH, maxP99Ms: 25 },
  { name: 'profile', path: '/api/users/profile', headers: bearer, minRatioToFloor: READ, maxP99Ms: 25 },
  {
    // Issue 20: the caller's bubles; in a full run, only issue 20's buble of 100,000 posts so far.
    name: 'bubles-list',
    path: '/api/bubles',
    headers: browser,
    minRatioToFloor: BUBLE_READ,
    maxP99Ms: 25,
    needsPostgres: true,
    prepare: seedBigBubleOnce,
  },
  {
    // Issue 20: that buble by its id.
    name: 'buble-get',
    path: (ctx) => `/api/bubles/${ctx.bigBubleId}`,
    headers: browser,
    minRatioToFloor: BUBLE_READ,
    maxP99Ms: 25,
    needsPostgres: true,
    prepare: seedBigBubleOnce,
  },
  {
    // Issue 3: a device that is up to date asks again; the user belongs to 50 bubles.
    name: 'pull-50',
    path: (ctx) => `/api/sync/pull?cursor=${ctx.cursor}`,
    headers: bearer,
    minRatioToFloor: READ,
    prepare: async (ctx) => {
      ctx.cursor = await upToDateCursor(ctx, 50)
    },
  },
  {
    // Issue 4: the member list of a buble of 500.
    name: 'members-500',
    path: (ctx) => `/api/bubles/${ctx.bubleId}/members`,
    headers: bearer,
    minRatioToFloor: READ,
    needsPostgres: true,
    prepare: async (ctx) => {
      ctx.bubleId = await seedBusyBuble(ctx, 499)
    },
  },
  {
    // Issue 4: unread counters of a member of a busy buble: 10,000 posts by others since they last
    // read the wall (and 100 members joined since they read the members tab).
    name: 'unread-busy',
    path: (ctx) => `/api/unread/buble/${ctx.bubleId}`,
    headers: bearer,
    minRatioToFloor: READ,
    needsPostgres: true,
    prepare: async (ctx) => {
      ctx.bubleId = await seedBusyBuble(ctx, 100)
      await seedWall(ctx, ctx.bubleId, { posts: 10_000, commentsPerPost: 0, reactionsPerPost: 0 })
    },
  },
  {
    // Issue 5: the first page of a wall of 100,000 posts, with 2 comments and 3 reactions each.
    name: 'wall-page-1',
    path: (ctx) => `/api/wall/${ctx.wallId}/posts?page=1`,
    headers: bearer,
    minRatioToFloor: READ,
    needsPostgres: true,
    prepare: async (ctx) => {
      ctx.wallId = await seedBusyBuble(ctx, 200)
      await seedWall(ctx, ctx.wallId, { posts: 100_000 })
    },
  },
  {
    // Issue 5: a deep page of the same wall costs about the same (no OFFSET scan).
    name: 'wall-page-500',
    path: (ctx) => `/api/wall/${ctx.wallId}/posts?page=500`,
    headers: bearer,
    minRatioToFloor: READ,
    needsPostgres: true,
  },
  {
    // Issue 10: the events of a buble with 2,000 events (and 2,000 polls), 100 members who each
    // answered 20 events: every RSVP built into the same statement, kept until the buble changes.
    name: 'events-2000',
    path: (ctx) => `/api/bubles/${ctx.eventsBubleId}/events`,
    headers: browser,
    minRatioToFloor: READ,
    needsPostgres: true,
    prepare: seedEventsOnce,
  },
  notModified('events'),
  {
    // Issue 10: the polls of the same buble, 4 options each, 100 members who each voted in 20, with the caller's vote.
    name: 'polls-2000',
    path: (ctx) => `/api/bubles/${ctx.eventsBubleId}/polls`,
    headers: browser,
    minRatioToFloor: READ,
    needsPostgres: true,
    prepare: seedEventsOnce,
  },
  notModified('polls'),
  {
    // Issue 11: a member of a buble of 100 sends a chat message (one sync write: the buble's lock,
    // the insert, the buble's stamp and a NOTIFY).
    name: 'chat-send',
    method: 'POST',
    path: (ctx) => `/api/chat/${ctx.chatBubleId}/messages`,
    headers: bearer,
    body: () => ({ content: 'Hej! Ses vi på fredag?' }),
    expectStatus: 201,
    minRatioToFloor: CHAT_SEND,
    needsPostgres: true,
    prepare: async (ctx) => {
      ctx.chatBubleId = await seedBusyBuble(ctx, 99)
    },
  },
  {
    // Issue 12: the platform admin searches 100,000 users for a surname 1% of them share
    // ("lindqvist": 1,000 matches, by name and e-mail), a page of 20 and the total.
    name: 'admin-users-search',
    path: `/api/admin/users?search=${SEARCH_USERS}`,
    headers: browser,
    minRatioToFloor: READ,
    needsPostgres: true,
    prepare: seedAdminOnce,
  },
  {
    // Issue 12: the platform admin searches 100,000 posts for a word in 1% of them ("kanelbullar").
    name: 'admin-posts-search',
    path: `/api/admin/posts?search=${SEARCH_POSTS}`,
    headers: browser,
    minRatioToFloor: READ,
    needsPostgres: true,
    prepare: seedAdminOnce,
  },
  // Issue 12, report-only: the same searches when no request finds its answer kept (list-cache.ts),
  // what a first look at each page costs. Every request asks a page not asked before: the term in
  // another letter case (ILIKE: the same 1,000 matches, another cache key), then the next page.
  coldSearch('users', SEARCH_USERS),
  coldSearch('posts', SEARCH_POSTS),
]

/** `admin-<list>-search-cold`: a new (case variant, page) of `term` per request, never one kept. */
function coldSearch(list: 'users' | 'posts', term: string): Scenario {
  const variants = 2 ** term.length
  let sent = 0
  return {
    name: `admin-${list}-search-cold`,
    path: `/api/admin/${list}?search=${term}`,
    headers: browser,
    needsPostgres: true,
    prepare: seedAdminOnce,
    nextPath: () => {
      const i = sent++
      const cased = [...term].map((ch, bit) => ((i >> bit) & 1 ? ch.toUpperCase() : ch)).join('')
      // 50 pages of 20: the 1,000 matches.
      const page = 1 + (Math.floor(i / variants) % 50)
      return `/api/admin/${list}?search=${cased}&page=${page}`
    },
  }
}

/**
 * Issue 20's buble: 8 members (the bench user its owner), 100,000 posts, 20 events and 20 polls.
 * The posts have no comments or reactions: a buble's reads do not look at them, and wall-page-1's
 * 200,000 comments and 300,000 reactions took most of two minutes to seed on a busy machine.
 */
async function seedBigBubleOnce(ctx: Context): Promise<void> {
  if (ctx.bigBubleId) return
  console.log('Seeding a buble of 8 members, 100,000 posts, 20 events and 20 polls…')
  const started = performance.now()
  const id = await seedBusyBuble(ctx, 7)
  await seedWall(ctx, id, { posts: 100_000, commentsPerPost: 0, reactionsPerPost: 0 })
  await seedEventsAndPolls(ctx, id, { events: 20, polls: 20 })
  ctx.bigBubleId = id
  console.log(`  seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`)
}

/** The admin lists' 100,000 users and 100,000 posts, seeded by the first scenario (or download) that needs them. */
async function seedAdminOnce(ctx: Context): Promise<void> {
  if (ctx.adminSeeded) return
  console.log('Seeding 100,000 users in 100 bubles and 100,000 posts for the admin area…')
  if (!(await seedAdminData(ctx))) console.log('  (reused: an earlier run on this database left them)')
  ctx.adminSeeded = true
}

/** The buble with 2,000 events and 2,000 polls, seeded by the first scenario that needs it. */
async function seedEventsOnce(ctx: Context): Promise<void> {
  if (ctx.eventsBubleId) return
  ctx.eventsBubleId = await seedBusyBuble(ctx, 99)
  await seedEventsAndPolls(ctx, ctx.eventsBubleId, { events: 2_000, polls: 2_000 })
}

/** The ETag the server gives an answer now. */
async function etagOf(ctx: Context, target: string): Promise<string> {
  const res = await fetch(`${ctx.baseUrl}${target}`, { headers: bearer(ctx) })
  await res.arrayBuffer()
  const etag = res.headers.get('etag')
  if (!res.ok || !etag) throw new Error(`GET ${target} answered ${res.status} without an ETag`)
  return etag
}

/** Device benchmarks, run after the load tests. */
const DEVICE_BENCHMARKS = ['pull-10k', 'push-500'] as const

interface Measurement {
  scenario: Scenario
  rps: number
  p50: number
  p99: number
  requests: number
  non2xx: number
  bytesPerSecond: number
  errors: number
  timeouts: number
  /** req/s of the floor sending the same answer (floor.ts), measured right after. */
  floorRps?: number
  /** The server's peak RSS during the scenario, warm-up included (KiB). */
  peakRssKb?: number | undefined
  /** CPU µs per request of the server, and of the floor, in the measured runs. */
  cpuUs?: number | undefined
  floorCpuUs?: number | undefined
}

// ---- server lifecycle ---------------------------------------------------------------------------

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

async function postgresAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 })
  try {
    await client.connect()
    await client.query('SELECT 1')
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => {})
  }
}

async function chooseDatabase(): Promise<{ url: string | undefined; label: string }> {
  const url = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || DEFAULT_DATABASE_URL
  const shown = url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@')
  if (await postgresAnswers(url)) return { url, label: `PostgreSQL (${shown})` }
  console.warn(`WARNING: no PostgreSQL answers at ${shown}; the benchmark is specified on PostgreSQL.`)
  console.warn('WARNING: falling back to the embedded PGlite database: numbers are not comparable to the targets.')
  return { url: undefined, label: 'PGlite (fallback)' }
}

function startServer(
  port: number,
  dataDir: string,
  databaseUrl: string | undefined,
  rateLimits: 'on' | 'off' = 'off',
): ChildProcess {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    BUBLE_RATE_LIMITS: rateLimits,
    LOG_LEVEL: 'warn',
  }
  if (databaseUrl) env.DATABASE_URL = databaseUrl
  else delete env.DATABASE_URL
  return spawn(
    process.execPath,
    [
      ...(process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean),
      '--import',
      'tsx',
      'api/src/testing/bench-server.ts',
    ],
    { cwd: ROOT, env, stdio: 'inherit' },
  )
}

async function waitForHealth(baseUrl: string, server: ChildProcess, timeoutMs = 60_000): Promise<unknown> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with code ${server.exitCode} during start-up`)
    try {
      const res = await fetch(`${baseUrl}/api/health`)
      if (res.ok) return await res.json()
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`no answer from ${baseUrl}/api/health within ${timeoutMs / 1000} s`)
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()))
  server.kill('SIGTERM')
  const timer = setTimeout(() => server.kill('SIGKILL'), 8000)
  await exited
  clearTimeout(timer)
}

// ---- measuring ------------------------------------------------------------------------------------

async function signUp(baseUrl: string, databaseUrl: string | undefined): Promise<Context> {
  const res = await fetch(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Bench User',
      email: `bench-${Date.now()}-${process.pid}@example.com`,
      password: 'Bench-Passw0rd-1',
    }),
  })
  if (res.status !== 201) throw new Error(`POST /api/auth/register answered ${res.status}: ${await res.text()}`)
  const body = (await res.json()) as { access_token: string; user: { id: string; email: string } }
  return { baseUrl, token: body.access_token, userId: body.user.id, email: body.user.email, databaseUrl }
}

/** The request `scenario` sends: to Buble, and to its floor. */
function sentRequest(scenario: Scenario, ctx: Context): SentRequest {
  const headers: Record<string, string> = { ...(scenario.headers?.(ctx) ?? {}) }
  const body = scenario.body?.(ctx)
  if (body !== undefined) headers['content-type'] = 'application/json'
  return {
    method: scenario.method ?? 'GET',
    path: typeof scenario.path === 'function' ? scenario.path(ctx) : scenario.path,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  }
}

/** autocannon sending `scenario`'s request to `baseUrl` for `seconds`. */
async function load(scenario: Scenario, sent: SentRequest, baseUrl: string, seconds: number): Promise<Measurement> {
  const { nextPath } = scenario
  const result = await autocannon({
    url: `${baseUrl}${sent.path}`,
    method: sent.method as autocannon.Request['method'],
    headers: sent.headers,
    body: sent.body,
    connections: CONNECTIONS,
    duration: seconds,
    ...(nextPath
      ? { requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, path: nextPath() }) }] }
      : {}),
  })
  const expected = scenario.expectStatus
  const unexpected = expected
    ? Object.entries(result.statusCodeStats ?? {}).reduce(
        (sum, [code, stat]) => sum + (Number(code) === expected ? 0 : (stat?.count ?? 0)),
        0,
      )
    : result.non2xx
  return {
    scenario,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: unexpected,
    errors: result.errors,
    timeouts: result.timeouts,
    bytesPerSecond: result.throughput.average,
  }
}

/** `load` with the CPU time `pid` spent meanwhile, per request. */
async function loadWithCpu(scenario: Scenario, sent: SentRequest, baseUrl: string, seconds: number, pid: number) {
  const before = cpuMs(pid)
  const measured = await load(scenario, sent, baseUrl, seconds)
  return { ...measured, cpuUs: cpuUsPerRequest(before, cpuMs(pid), measured.requests) }
}

/** `scenario` against Buble for `seconds`. */
const measure = (scenario: Scenario, ctx: Context, seconds: number): Promise<Measurement> =>
  load(scenario, sentRequest(scenario, ctx), ctx.baseUrl, seconds)

/**
 * `scenario` in full: a warm-up and a measured run against Buble, the server's RSS sampled
 * throughout, then its answer recorded and the same measured run against the floor.
 */
async function measureWithFloor(scenario: Scenario, ctx: Context, floor: Floor, serverPid: number) {
  const sent = sentRequest(scenario, ctx)
  const rss = sampleRss(serverPid)
  let peakRssKb: number | undefined
  const measured = await (async () => {
    if (WARMUP > 0) await load(scenario, sent, ctx.baseUrl, WARMUP)
    return loadWithCpu(scenario, sent, ctx.baseUrl, DURATION, serverPid)
  })().finally(() => {
    peakRssKb = rss.stop()
  })
  await serveOnFloor(floor, await recordAnswer(ctx.baseUrl, sent), sent)
  const onFloor = await loadWithCpu(scenario, sent, floor.baseUrl, DURATION, floor.pid)
  if (onFloor.non2xx + onFloor.errors + onFloor.timeouts > 0)
    throw new Error(`${scenario.name}'s floor: ${onFloor.non2xx} unexpected statuses, ${onFloor.errors} errors`)
  return { ...measured, peakRssKb, floorRps: onFloor.rps, floorCpuUs: onFloor.cpuUs }
}

/** Gives the floor `answer`, and checks it sends it back byte for byte. */
async function serveOnFloor(floor: Floor, answer: FloorAnswer, sent: SentRequest): Promise<void> {
  await floor.serve(answer)
  const echoed = await recordAnswer(floor.baseUrl, sent)
  if (echoed.status !== answer.status || !Buffer.from(echoed.body).equals(Buffer.from(answer.body)))
    throw new Error(`the floor answered ${echoed.status} with other bytes than Buble's ${answer.status}`)
}

/** A scenario's table row. */
const rowOf = (m: Measurement): Row => ({
  name: m.scenario.name,
  targets: m.scenario,
  rps: m.rps,
  p50: m.p50,
  p99: m.p99,
  requests: m.requests,
  bad: m.non2xx,
  errors: m.errors + m.timeouts,
  bytesPerAnswer: m.rps > 0 ? m.bytesPerSecond / m.rps : 0,
  floorRps: m.floorRps ?? 0,
  peakRssKb: m.peakRssKb,
  cpuUs: m.cpuUs,
  floorCpuUs: m.floorCpuUs,
})

function report(
  measurements: Measurement[],
  dbLabel: string,
  rss: { before: number | undefined; after: number | undefined },
): { failed: boolean } {
  console.log(
    `\nBuble benchmark — ${dbLabel}, ${CONNECTIONS} connections, ${DURATION} s per scenario and per floor ` +
      `(floor: a bare node:http server sending the same answer from memory; ratio = req/s ÷ floor's req/s;\n` +
      `CPU µs: the server's CPU time per request, all threads; CPU ratio = floor's CPU µs ÷ Buble's, steadier when the machine is busy)\n`,
  )
  const rows = measurements.map(rowOf)
  for (const text of table(rows)) console.log(text)
  if (rss.before !== undefined && rss.after !== undefined)
    console.log(
      `\nServer RSS: ${(rss.before / 1024).toFixed(0)} MB before the load, ${(rss.after / 1024).toFixed(0)} MB after`,
    )
  console.log('\nTargets:')
  for (const text of verdictLines(rows, MAX_RSS_MB)) console.log(`  ${text}`)

  const failed = measurements.filter((m) => m.non2xx + m.errors + m.timeouts > 0)
  for (const m of failed) {
    console.error(
      `\nERROR: ${m.scenario.name}: ${m.non2xx} answers with an unexpected status, ${m.errors} connection errors, ${m.timeouts} timeouts`,
    )
  }
  return { failed: failed.length > 0 }
}

// ---- device benchmarks ----------------------------------------------------------------------------

async function runDeviceBenchmarks(
  baseUrl: string,
  databaseUrl: string | undefined,
  only: string[] | undefined,
): Promise<DeviceResult[]> {
  const wanted = DEVICE_BENCHMARKS.filter((name) => !only || only.includes(name))
  if (wanted.length === 0) return []
  const results: DeviceResult[] = []
  if (wanted.includes('pull-10k')) {
    if (!databaseUrl) {
      console.warn('\npull-10k skipped: seeding 10,000 changes needs PostgreSQL.')
    } else {
      // A user of its own, so the load tests' bubles do not count.
      const ctx = await signUp(baseUrl, databaseUrl)
      console.log('\npull-10k: seeding 20 bubles of 500 members…')
      const expected = await seedBubles(ctx, 20, 500)
      results.push(await pullIntoFreshDevice(ctx, expected))
    }
  }
  if (wanted.includes('push-500')) {
    console.log('push-500: queueing 500 mutations offline…')
    results.push(await pushQueued(await signUp(baseUrl, databaseUrl), 500))
  }
  console.log('\nDevice benchmarks (the sync engine over fake-indexeddb, in this process):')
  for (const result of results) {
    console.log(`  ${result.met ? 'MET   ' : 'MISSED'} ${result.name}: ${result.figure} — target ${result.target}`)
    if (result.error) console.error(`  ERROR: ${result.name}: ${result.error}`)
  }
  return results
}

// ---- issue 18: pushes of every kind, rate limits on ----------------------------------------------

/** `push-mixed` against a server of its own with the default rate limits (this run's server has them off). */
async function pushMixedWithLimits(databaseUrl: string | undefined): Promise<DeviceResult> {
  const port = await freePort()
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'buble-bench-limits-'))
  const baseUrl = `http://127.0.0.1:${port}`
  console.log(`\n${PUSH_MIXED}: a second server with rate limits on, ${baseUrl}…`)
  const server = startServer(port, dataDir, databaseUrl, 'on')
  try {
    await waitForHealth(baseUrl, server)
    const result = await runPushMixed({ baseUrl, databaseUrl, dataDir, durationS: DURATION })
    console.log(`  ${result.met ? 'MET   ' : 'MISSED'} ${result.name}: ${result.figure} — ${result.target}`)
    if (result.error) console.error(`  ERROR: ${PUSH_MIXED}: ${result.error}`)
    return result
  } finally {
    await stopServer(server)
    rmSync(dataDir, { recursive: true, force: true })
  }
}

// ---- issue 22: parallel pushes into bubles of their own ------------------------------------------

/** `push-parallel` against this run's server (or the nodes `BENCH_PUSH_URLS` names); PostgreSQL only. */
async function pushParallel(baseUrl: string, databaseUrl: string | undefined, dataDir: string): Promise<DeviceResult> {
  if (!databaseUrl) {
    console.warn(`\n${PUSH_PARALLEL} skipped: seeding its devices needs PostgreSQL.`)
    return { name: PUSH_PARALLEL, figure: 'skipped (needs PostgreSQL)', target: '-', met: true }
  }
  const baseUrls = baseUrlsFrom(process.env.BENCH_PUSH_URLS, baseUrl)
  console.log(
    `\n${PUSH_PARALLEL}: 8 devices push ${PUSH_ROUNDS} rounds of 100 mutations at once, through ${baseUrls.join(', ')}…`,
  )
  const result = await runPushParallel({ baseUrls, databaseUrl, dataDir, rounds: PUSH_ROUNDS })
  console.log(`  ${result.met ? 'MET   ' : 'MISSED'} ${result.name}: ${result.figure} — target ${result.target}`)
  if (result.error) console.error(`  ERROR: ${PUSH_PARALLEL}: ${result.error}`)
  return result
}

// ---- main -----------------------------------------------------------------------------------------

/** The HTTP scenarios, each against Buble and then against its floor; prints the table and verdicts. */
async function runLoadTests(
  scenarios: Scenario[],
  ctx: Context,
  serverPid: number,
  database: { url: string | undefined; label: string },
): Promise<{ measurements: Measurement[]; failed: boolean }> {
  if (scenarios.length === 0) return { measurements: [], failed: false }
  const floor = await startFloor()
  try {
    await warmFloor(floor, ctx)
    const before = rssKb(serverPid)
    const measurements: Measurement[] = []
    for (const scenario of scenarios) {
      if (scenario.needsPostgres && !database.url) {
        console.warn(`${scenario.name} skipped: its data is seeded in PostgreSQL.`)
        continue
      }
      await scenario.prepare?.(ctx)
      console.log(`${scenario.name}: warm-up ${WARMUP} s, then ${DURATION} s, then ${DURATION} s on the floor…`)
      measurements.push(await measureWithFloor(scenario, ctx, floor, serverPid))
    }
    return { measurements, ...report(measurements, database.label, { before, after: rssKb(serverPid) }) }
  } finally {
    await floor.stop()
  }
}

/**
 * The floor's process is warmed once, on health's answer: its handler is the same code for every
 * answer, so each scenario's floor run needs no warm-up of its own.
 */
async function warmFloor(floor: Floor, ctx: Context): Promise<void> {
  const health = SCENARIOS.find((s) => s.name === 'health') as Scenario
  const sent = sentRequest(health, ctx)
  await serveOnFloor(floor, await recordAnswer(ctx.baseUrl, sent), sent)
  await load(health, sent, floor.baseUrl, Math.max(WARMUP, 1))
}

async function main(): Promise<number> {
  const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim())
  const scenarios = only ? SCENARIOS.filter((s) => only.includes(s.name)) : SCENARIOS
  const database = await chooseDatabase()
  const port = await freePort()
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'buble-bench-'))
  const baseUrl = `http://127.0.0.1:${port}`
  console.log(`Starting the server on ${baseUrl} (${database.label}, DATA_DIR ${dataDir})…`)
  const server = startServer(port, dataDir, database.url)
  const stop = () => void stopServer(server).finally(() => process.exit(130))
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  try {
    const health = await waitForHealth(baseUrl, server)
    console.log(`Health: ${JSON.stringify(health)}`)
    const ctx = await signUp(baseUrl, database.url)
    const { measurements, failed: failedRequests } = await runLoadTests(scenarios, ctx, server.pid ?? 0, database)
    const chatSend = SCENARIOS.find((s) => s.name === 'chat-send') as Scenario
    const streams = await runStreamBenchmarks(
      {
        ctx,
        dataDir,
        serverPid: server.pid ?? 0,
        chatSend: {
          prepare: async () => {
            if (!ctx.chatBubleId) await chatSend.prepare?.(ctx)
          },
          run: (seconds) => measure(chatSend, ctx, seconds),
          plainRps: measurements.find((m) => m.scenario === chatSend)?.rps,
          floorRps: measurements.find((m) => m.scenario === chatSend)?.floorRps,
        },
        warmupS: WARMUP,
        durationS: DURATION,
      },
      only,
    )
    const admin = await runAdminBenchmarks(
      {
        ctx,
        serverPid: server.pid ?? 0,
        seedAdmin: () => seedAdminOnce(ctx),
        signUp: () => signUp(baseUrl, database.url),
      },
      only,
    )
    const devices = await runDeviceBenchmarks(baseUrl, database.url, only)
    const authTiming = await runAuthTimingBenchmarks({ signUp: () => signUp(baseUrl, database.url) }, only)
    const mixed = !only || only.includes(PUSH_MIXED) ? [await pushMixedWithLimits(database.url)] : []
    const parallel = !only || only.includes(PUSH_PARALLEL) ? [await pushParallel(baseUrl, database.url, dataDir)] : []
    const search = await runSearchBenchmark(ctx, only)
    const results = [...streams, ...admin, ...devices, ...authTiming, ...mixed, ...parallel, ...search]
    return failedRequests || results.some((result) => result.error) ? 1 : 0
  } finally {
    await stopServer(server)
    rmSync(dataDir, { recursive: true, force: true })
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`Benchmark failed: ${err instanceof Error ? err.message : String(err)}`)
    process.exit(1)
  },
)
