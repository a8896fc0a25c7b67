/**
 * Issue 11's benchmarks for `npm run bench`: live streams and chat with Web Push, against the real
 * server (the child process of run.ts). Members are seeded straight into PostgreSQL and their tokens
 * signed here with the server's own JWT secret (from the bench's DATA_DIR, or JWT_SECRET): the
 * server verifies them like any other, and 10,000 logins would measure argon2, not streams.
 *
 * - streams-10k: one `/api/stream` per member of 10 bubles of 1,000 (10,000 users), opened 200 at a
 *   time, each read until `ready`; held (30 s by default, so each sees a heartbeat); the server's RSS
 *   (VmRSS of its process) before, at the peak while held, and after closing; its open descriptors
 *   must come back once they are closed.
 * - chat-fanout-1000: the 1,000 members of one of those bubles stream; the bench user (also a member)
 *   sends 20 chat messages, one after another once the last has reached every stream; each receipt's
 *   latency runs from the POST's start to the `poke {entity: chat_message}` parsed by that stream.
 * - poke-fanout-1000, -5000, -10000 (issue 20): the same rounds to a buble of 1,000, 5,000 and 10,000
 *   members with exactly that many streams open (opened in steps, 1,000 then 5,000 then 10,000).
 *   The floor, in the same run: a bare `node:http` process holding as many event streams and writing
 *   one shared buffer to each when poked; the same clients read both, so what they cost (one
 *   process reading N sockets) is in the floor too.
 * - chat-send-with-pushes: the 1,000 members have a push subscription each on a local push service
 *   in this process (answers 201); a message in their buble makes the server send 1,000 pushes, and
 *   the next one is sent as soon as those are delivered, so pushes flow throughout while autocannon
 *   runs the chat-send load (its own buble of 100, no subscriptions). Its ratio is to chat-send's floor
 *   in the same run (a bare node:http server answering chat-send's bytes; run.ts measures it), and it
 *   is also shown beside plain chat-send.
 *
 * A missed target prints MISSED; a stream that never got ready or closed early, a receipt or a push
 * that never came, or a failed request is an error.
 */

import { spawn } from 'node:child_process'
import { createECDH, randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { type ClientRequest, createServer, request } from 'node:http'
import path from 'node:path'
import { v7 as uuidv7 } from 'uuid'
import { createAccessTokens } from '../src/lib/tokens.ts'
import type { DeviceContext, DeviceResult } from './device.ts'
import { insertMemberships, insertUsersAndBubles, seedTransaction } from './seed.ts'

export const STREAM_BENCHMARKS = [
  'streams-10k',
  'chat-fanout-1000',
  'chat-send-with-pushes',
  'poke-fanout-1000',
  'poke-fanout-5000',
  'poke-fanout-10000',
] as const

const STREAMS = 10_000
const PER_BUBLE = 1_000
const OPENING_AT_ONCE = 200
const HOLD_S = Number(process.env.BENCH_STREAM_HOLD ?? 30)
/** The server's heartbeat (stream.ts): a hold at least this long sees one on every stream. */
const HEARTBEAT_S = 25
const FANOUT_MESSAGES = 20
/** Issue 20's fan-out sizes and their p99 targets in ms (none for 10,000: reported only). */
const POKE_FANOUTS: readonly { size: number; p99Ms?: number }[] = [
  { size: 1_000, p99Ms: 60 },
  { size: 5_000, p99Ms: 250 },
  { size: 10_000 },
]
const PUSHES = 1_000

/** An autocannon run of the chat-send scenario, as run.ts measures it. */
export interface LoadResult {
  rps: number
  p50: number
  p99: number
  requests: number
  non2xx: number
  errors: number
  timeouts: number
}

export interface StreamBenchmarkSetup {
  ctx: DeviceContext
  dataDir: string
  serverPid: number
  /**
   * The chat-send load: prepares its buble once, then runs autocannon for `seconds`; plain chat-send's
   * req/s and its floor's (a bare node:http server sending the same 201) when chat-send ran.
   */
  chatSend: {
    prepare(): Promise<void>
    run(seconds: number): Promise<LoadResult>
    plainRps?: number | undefined
    floorRps?: number | undefined
  }
  warmupS: number
  durationS: number
}

interface Member {
  id: string
  token: string
}

const thousands = (n: number) => Math.round(n).toLocaleString('en-US')
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

// ---- the server process ---------------------------------------------------------------------------

/** The server's resident set size in kB (VmRSS of /proc/<pid>/status). */
function rssKb(pid: number): number {
  const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+)\s+kB/m)
  if (!match) throw new Error(`no VmRSS for process ${pid}`)
  return Number(match[1])
}

const openDescriptors = (pid: number): number => readdirSync(`/proc/${pid}/fd`).length

// ---- members and their tokens ---------------------------------------------------------------------

/**
 * `bubles` bubles owned by the bench user, each with `perBuble` members of their own, straight into
 * PostgreSQL, and a token for every member signed with the server's secret. Answers them per buble.
 */
async function seedMembers(
  setup: StreamBenchmarkSetup,
  bubles: number,
  perBuble: number,
): Promise<{ bubleId: string; members: Member[] }[]> {
  const { ctx } = setup
  const run = uuidv7().slice(-12)
  const bubleIds = Array.from({ length: bubles }, () => uuidv7())
  const userIds = Array.from({ length: bubles * perBuble }, () => uuidv7())
  const bubleOf = (i: number) => bubleIds[Math.floor(i / perBuble)]!
  await seedTransaction(ctx.databaseUrl, 'analyze users, bubles, memberships', async (client) => {
    await insertUsersAndBubles(client, {
      run,
      prefix: 'stream',
      label: 'Streaming',
      userIds,
      bubleIds,
      ownerId: ctx.userId,
    })
    await insertMemberships(
      client,
      {
        bubleIds: [...bubleIds, ...userIds.map((_, i) => bubleOf(i))],
        userIds: [...bubleIds.map(() => ctx.userId), ...userIds],
        roles: [...bubleIds.map(() => 'owner' as const), ...userIds.map(() => 'member' as const)],
      },
      bubleIds,
    )
  })
  const secret =
    process.env.JWT_SECRET ||
    (JSON.parse(readFileSync(path.join(setup.dataDir, 'secrets.json'), 'utf8')) as { jwtSecret: string }).jwtSecret
  const tokens = createAccessTokens(secret)
  const members = await Promise.all(
    userIds.map(async (id) => ({ id, token: await tokens.sign({ id, tokenVersion: 0 }) })),
  )
  return bubleIds.map((bubleId, b) => ({ bubleId, members: members.slice(b * perBuble, (b + 1) * perBuble) }))
}

// ---- a device's live stream ------------------------------------------------------------------------

interface Poke {
  buble_id: string
  entity: string
}

/** One `/api/stream` read as a device would: its events parsed as they arrive, on a socket of its own. */
class LiveStream {
  ready = false
  keepalives = 0
  /** Set once the server ended the stream or the connection failed (not by `close`). */
  ended: string | undefined
  onPoke: ((poke: Poke, at: number) => void) | undefined
  private buffer = ''
  private closing = false
  private readonly req: ClientRequest

  constructor(baseUrl: string, token: string, onReady: (error?: string) => void) {
    const url = new URL('/api/stream', baseUrl)
    let settled = false
    const settle = (error?: string) => {
      if (error && !this.closing) this.ended ??= error
      if (settled) return
      settled = true
      this.ready = !error
      onReady(error)
    }
    this.req = request(
      url,
      { agent: false, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume()
          return settle(`status ${res.statusCode}`)
        }
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          const at = performance.now()
          this.buffer += chunk
          for (let end = this.buffer.indexOf('\n\n'); end >= 0; end = this.buffer.indexOf('\n\n')) {
            const block = this.buffer.slice(0, end)
            this.buffer = this.buffer.slice(end + 2)
            this.event(block, at, settle)
          }
        })
        res.on('end', () => settle('the server ended the stream'))
        res.on('error', (err) => settle(err.message))
      },
    )
    this.req.on('error', (err) => settle(err.message))
    this.req.end()
  }

  private event(block: string, at: number, settle: (error?: string) => void): void {
    let event = 'message'
    let data = ''
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) this.keepalives++
      else if (line.startsWith('event:')) event = line.slice(6).trim()
      else if (line.startsWith('data:')) data += line.slice(5).trim()
    }
    if (event === 'ready') settle()
    else if (event === 'poke') this.onPoke?.(JSON.parse(data) as Poke, at)
  }

  close(): void {
    this.closing = true
    this.req.destroy()
  }
}

/** Opens a stream per token, `OPENING_AT_ONCE` at a time, each until `ready`. Answers them and the failures. */
async function openStreams(
  baseUrl: string,
  tokens: readonly string[],
): Promise<{ streams: LiveStream[]; failures: string[]; seconds: number }> {
  const streams: LiveStream[] = []
  const failures: string[] = []
  const started = performance.now()
  let next = 0
  const worker = async () => {
    while (next < tokens.length) {
      const token = tokens[next++]!
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          failures.push('no ready within 60 s')
          stream.close()
          resolve()
        }, 60_000)
        const stream = new LiveStream(baseUrl, token, (error) => {
          clearTimeout(timer)
          if (error) failures.push(error)
          else streams.push(stream)
          resolve()
        })
      })
    }
  }
  await Promise.all(Array.from({ length: OPENING_AT_ONCE }, worker))
  return { streams, failures, seconds: (performance.now() - started) / 1000 }
}

/** Closes every stream and waits (up to 10 s) until the server's descriptors are back near `before`. */
async function closeStreams(streams: LiveStream[], pid: number, before: number): Promise<number> {
  for (const stream of streams) stream.close()
  let open = openDescriptors(pid)
  for (let waited = 0; waited < 10_000 && open > before + 20; waited += 250) {
    await sleep(250)
    open = openDescriptors(pid)
  }
  return open
}

const ended = (streams: readonly LiveStream[]) => streams.filter((stream) => stream.ended !== undefined)

// ---- the benchmarks -------------------------------------------------------------------------------

async function streams10k(setup: StreamBenchmarkSetup, members: Member[]): Promise<DeviceResult> {
  const pid = setup.serverPid
  const rssBefore = rssKb(pid)
  const fdsBefore = openDescriptors(pid)
  console.log(`streams-10k: opening ${thousands(members.length)} streams, ${OPENING_AT_ONCE} at a time…`)
  const { streams, failures, seconds } = await openStreams(
    setup.ctx.baseUrl,
    members.map((m) => m.token),
  )
  const rssOpen = rssKb(pid)
  console.log(`streams-10k: ${thousands(streams.length)} ready in ${seconds.toFixed(1)} s; holding ${HOLD_S} s…`)
  let rssPeak = rssOpen
  for (let held = 0; held < HOLD_S; held++) {
    await sleep(1000)
    rssPeak = Math.max(rssPeak, rssKb(pid))
  }
  const fdsOpen = openDescriptors(pid)
  const lost = ended(streams)
  const withHeartbeat = streams.filter((stream) => stream.keepalives > 0).length
  const fdsAfter = await closeStreams(streams, pid, fdsBefore)
  await sleep(1000)
  const rssAfter = rssKb(pid)
  const growthKb = rssPeak - rssBefore
  const result: DeviceResult = {
    name: `streams-10k: ${thousands(STREAMS)} concurrent /api/stream (one user each)`,
    figure:
      `${thousands(streams.length)} open in ${seconds.toFixed(1)} s (${thousands(streams.length / seconds)}/s); ` +
      `server RSS ${mb(rssBefore)} → ${mb(rssOpen)} open → ${mb(rssPeak)} peak over ${HOLD_S} s held ` +
      `(+${mb(growthKb)}, ${(growthKb / Math.max(1, streams.length)).toFixed(1)} KB a stream) → ${mb(rssAfter)} closed; ` +
      `${thousands(withHeartbeat)} saw a heartbeat; server descriptors ${thousands(fdsBefore)} → ${thousands(fdsOpen)} → ${thousands(fdsAfter)}`,
    target: 'RSS growth under 1 GB',
    met: streams.length === STREAMS && growthKb < 1024 * 1024,
  }
  const errors: string[] = []
  if (failures.length > 0) errors.push(`${failures.length} streams never got ready (first: ${failures[0]})`)
  if (lost.length > 0) errors.push(`${lost.length} streams ended while held (first: ${lost[0]?.ended})`)
  if (HOLD_S > HEARTBEAT_S + 2 && withHeartbeat < streams.length)
    errors.push(`${streams.length - withHeartbeat} streams saw no heartbeat in ${HOLD_S} s`)
  if (fdsAfter > fdsBefore + 100)
    errors.push(`the server still holds ${fdsAfter - fdsBefore} more descriptors 10 s after every stream closed`)
  if (errors.length > 0) result.error = errors.join('; ')
  return result
}

/** What rounds of pokes measured: each receipt's latency from its write's start, and what went wrong. */
interface Rounds {
  latencies: number[]
  postMs: number[]
  missing: number
  doubled: number
  errors: string[]
}

/**
 * `rounds` writes that poke `bubleId` with `entity`, one after another once the last has reached every
 * stream (or 10 s passed); each receipt's latency runs from its write's start. `write` answers an
 * error, if any.
 */
async function fanoutRounds(
  streams: readonly LiveStream[],
  rounds: number,
  bubleId: string,
  entity: string,
  write: (i: number) => Promise<string | undefined>,
): Promise<Rounds> {
  const measured: Rounds = { latencies: [], postMs: [], missing: 0, doubled: 0, errors: [] }
  let round: { sentAt: number; got: Set<LiveStream>; done: () => void } | undefined
  for (const stream of streams) {
    stream.onPoke = (poke, at) => {
      if (!round || poke.buble_id !== bubleId || poke.entity !== entity) return
      if (round.got.has(stream)) return void measured.doubled++
      round.got.add(stream)
      measured.latencies.push(at - round.sentAt)
      if (round.got.size === streams.length) round.done()
    }
  }
  for (let i = 0; i < rounds; i++) {
    let done = () => {}
    const all = new Promise<void>((resolve) => {
      done = resolve
    })
    const sentAt = performance.now()
    round = { sentAt, got: new Set(), done }
    const error = await write(i)
    measured.postMs.push(performance.now() - sentAt)
    if (error) {
      measured.errors.push(error)
      break
    }
    await Promise.race([all, sleep(10_000)])
    measured.missing += streams.length - round.got.size
    round = undefined
    await sleep(250)
  }
  for (const stream of streams) stream.onPoke = undefined
  measured.latencies.sort((a, b) => a - b)
  measured.postMs.sort((a, b) => a - b)
  return measured
}

/** Sends a chat message to `bubleId` as the bench user: the write whose poke is measured. */
const chatMessage = (ctx: DeviceContext, bubleId: string) => async (i: number) => {
  try {
    const res = await fetch(`${ctx.baseUrl}/api/chat/${bubleId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ctx.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: `Fan-out ${i + 1}: alla hör det här?` }),
    })
    await res.arrayBuffer()
    return res.status === 201 ? undefined : `POST answered ${res.status}`
  } catch (err) {
    return `POST failed: ${err instanceof Error ? `${err.message} (${String(err.cause)})` : String(err)}`
  }
}

const ms = (sorted: readonly number[], p: number) => `${percentile(sorted, p).toFixed(0)} ms`

async function chatFanout(setup: StreamBenchmarkSetup, bubleId: string, members: Member[]): Promise<DeviceResult> {
  const { ctx } = setup
  console.log(`chat-fanout-1000: opening ${thousands(members.length)} streams of one buble's members…`)
  const { streams, failures } = await openStreams(
    ctx.baseUrl,
    members.map((m) => m.token),
  )
  const measured =
    failures.length === 0
      ? await fanoutRounds(streams, FANOUT_MESSAGES, bubleId, 'chat_message', chatMessage(ctx, bubleId))
      : { latencies: [], postMs: [], missing: 0, doubled: 0, errors: [] }
  const { latencies, postMs, missing, doubled, errors } = measured
  const lost = ended(streams)
  for (const stream of streams) stream.close()
  const p99 = percentile(latencies, 99)
  const result: DeviceResult = {
    name: `chat-fanout-1000: a chat message reaches ${thousands(members.length)} open streams`,
    figure:
      `${thousands(latencies.length)} receipts of ${FANOUT_MESSAGES} messages: POST to poke p50 ${ms(latencies, 50)}, ` +
      `p99 ${ms(latencies, 99)}, max ${ms(latencies, 100)} (the POST itself p50 ${ms(postMs, 50)}); ` +
      `${missing} missing, ${doubled} doubled`,
    target: 'p99 under 500 ms',
    met: latencies.length > 0 && p99 < 500,
  }
  if (failures.length > 0) errors.push(`${failures.length} streams never got ready (first: ${failures[0]})`)
  if (missing > 0) errors.push(`${missing} receipts never came within 10 s`)
  if (lost.length > 0) errors.push(`${lost.length} streams ended early (first: ${lost[0]?.ended})`)
  if (errors.length > 0) result.error = errors.join('; ')
  return result
}

// ---- issue 20: a poke fanned out to 1,000, 5,000 and 10,000 streams --------------------------------

/**
 * The floor: a bare `node:http` process that holds every `GET /api/stream` as an event stream (`ready`
 * first) and, on a POST, writes `event: poke` with the body as data (one shared buffer) to each, then
 * answers 204. No framework, no database, no check: what N writes and N reads cost on this machine.
 */
const FLOOR_SERVER = `
const http = require('node:http')
const streams = new Set()
const ready = Buffer.from('event: ready\\ndata: {}\\n\\n')
const server = http.createServer((req, res) => {
  if (req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    res.write(ready)
    streams.add(res)
    res.on('close', () => streams.delete(res))
    return
  }
  const chunks = []
  req.on('data', (chunk) => chunks.push(chunk))
  req.on('end', () => {
    const bytes = Buffer.from('event: poke\\ndata: ' + Buffer.concat(chunks).toString() + '\\n\\n')
    for (const stream of streams) stream.write(bytes)
    res.writeHead(204).end()
  })
})
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'))
`

async function startFloorServer(): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, ['-e', FLOOR_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] })
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()))
    child.once('exit', (code) => reject(new Error(`the floor server exited (${code})`)))
  })
  return { url: `http://127.0.0.1:${port}`, stop: () => void child.kill() }
}

/**
 * Opens streams with `tokens` in steps, up to each size in turn, and runs `measure` with exactly that
 * many open; closes them all at the end.
 */
async function inSteps<T>(
  baseUrl: string,
  tokens: readonly string[],
  sizes: readonly number[],
  measure: (streams: readonly LiveStream[], size: number, failures: readonly string[]) => Promise<T>,
): Promise<T[]> {
  const open: LiveStream[] = []
  const failures: string[] = []
  const results: T[] = []
  try {
    for (const size of sizes) {
      const opened = await openStreams(baseUrl, tokens.slice(open.length, size))
      open.push(...opened.streams)
      failures.push(...opened.failures)
      console.log(`  ${thousands(open.length)} streams open (${opened.seconds.toFixed(1)} s for the last step)`)
      results.push(await measure(open, size, failures))
    }
  } finally {
    for (const stream of open) stream.close()
  }
  return results
}

/** Three fan-out bubles, owned by the bench user: the first 1,000, 5,000 and 10,000 of `members`. */
async function seedFanoutBubles(
  setup: StreamBenchmarkSetup,
  members: readonly Member[],
  sizes: readonly number[],
): Promise<string[]> {
  const { ctx } = setup
  const bubleIds = sizes.map(() => uuidv7())
  const bubleOf: string[] = []
  const userOf: string[] = []
  sizes.forEach((size, b) => {
    for (const member of members.slice(0, size)) {
      bubleOf.push(bubleIds[b]!)
      userOf.push(member.id)
    }
  })
  await seedTransaction(ctx.databaseUrl, 'analyze bubles, memberships', async (client) => {
    await insertUsersAndBubles(client, {
      run: uuidv7().slice(-12),
      prefix: 'fanout',
      label: 'Fan-out',
      userIds: [],
      bubleIds,
      ownerId: ctx.userId,
    })
    await insertMemberships(
      client,
      {
        bubleIds: [...bubleIds, ...bubleOf],
        userIds: [...bubleIds.map(() => ctx.userId), ...userOf],
        roles: [...bubleIds.map(() => 'owner' as const), ...userOf.map(() => 'member' as const)],
      },
      bubleIds,
    )
  })
  return bubleIds
}

async function pokeFanouts(setup: StreamBenchmarkSetup, members: Member[], sizes: number[]): Promise<DeviceResult[]> {
  const { ctx } = setup
  const rounds = FANOUT_MESSAGES
  console.log(`poke-fanout: the floor (bare node:http) to ${sizes.map(thousands).join(', ')} streams…`)
  const floor = await startFloorServer()
  let floors: Rounds[]
  try {
    floors = await inSteps(
      floor.url,
      members.map(() => ''),
      sizes,
      (streams) =>
        fanoutRounds(streams, rounds, 'floor', 'chat_message', async () => {
          const res = await fetch(`${floor.url}/poke`, {
            method: 'POST',
            body: JSON.stringify({ buble_id: 'floor', entity: 'chat_message' }),
          })
          await res.arrayBuffer()
          return res.status === 204 ? undefined : `the floor answered ${res.status}`
        }),
    )
  } finally {
    floor.stop()
  }
  // The floor's sockets wind down before the server's open.
  await sleep(1000)
  const bubleIds = await seedFanoutBubles(setup, members, sizes)
  console.log(`poke-fanout: the server to ${sizes.map(thousands).join(', ')} streams…`)
  return inSteps(
    ctx.baseUrl,
    members.map((m) => m.token),
    sizes,
    async (streams, size, failures) => {
      const i = sizes.indexOf(size)
      const bubleId = bubleIds[i]!
      const measured =
        failures.length === 0
          ? await fanoutRounds(streams, rounds, bubleId, 'chat_message', chatMessage(ctx, bubleId))
          : { latencies: [], postMs: [], missing: 0, doubled: 0, errors: [] }
      const { latencies, postMs, missing, doubled, errors } = measured
      const base = floors[i]!
      const target = POKE_FANOUTS.find((f) => f.size === size)?.p99Ms
      const p99 = percentile(latencies, 99)
      const lost = ended(streams)
      const result: DeviceResult = {
        name: `poke-fanout-${size}: a chat message's poke reaches ${thousands(size)} open streams`,
        figure:
          `${thousands(latencies.length)} receipts of ${rounds} messages: POST to poke p50 ${ms(latencies, 50)}, ` +
          `p99 ${ms(latencies, 99)}, max ${ms(latencies, 100)} (the POST itself p50 ${ms(postMs, 50)}); ` +
          `floor (bare node:http, same clients) p50 ${ms(base.latencies, 50)}, p99 ${ms(base.latencies, 99)} ` +
          `(p50 ${(percentile(latencies, 50) / percentile(base.latencies, 50)).toFixed(1)}×, ` +
          `p99 ${(p99 / percentile(base.latencies, 99)).toFixed(1)}× the floor's); ` +
          `${missing} missing, ${doubled} doubled`,
        target: target === undefined ? 'reported' : `p99 ≤ ${target} ms`,
        met: latencies.length > 0 && (target === undefined || p99 <= target),
      }
      if (failures.length > 0) errors.push(`${failures.length} streams never got ready (first: ${failures[0]})`)
      if (missing > 0) errors.push(`${missing} receipts never came within 10 s`)
      if (base.missing > 0 || base.errors.length > 0)
        errors.push(`the floor missed ${base.missing} receipts ${base.errors.join('; ')}`)
      if (lost.length > 0) errors.push(`${lost.length} streams ended early (first: ${lost[0]?.ended})`)
      if (errors.length > 0) result.error = errors.join('; ')
      return result
    },
  )
}

/** A push service on 127.0.0.1: every POST is a delivered push, answered 201 (as FCM and Mozilla do). */
async function localPushService() {
  let received = 0
  let other = 0
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      if (req.method === 'POST' && req.url?.startsWith('/push/')) received++
      else other++
      res.writeHead(req.method === 'POST' ? 201 : 404).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}/push/`,
    received: () => received,
    other: () => other,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

async function chatSendWithPushes(
  setup: StreamBenchmarkSetup,
  bubleId: string,
  members: Member[],
): Promise<DeviceResult> {
  const { ctx } = setup
  await setup.chatSend.prepare()
  const service = await localPushService()
  // One real P-256 key and auth secret for every subscription: each push is encrypted afresh anyway.
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  const p256dh = ecdh.getPublicKey().toString('base64url')
  const auth = randomBytes(16).toString('base64url')
  const run = uuidv7().slice(-12)
  const ids = members.map(() => uuidv7())
  await seedTransaction(ctx.databaseUrl, 'analyze push_subscriptions', async (client) => {
    await client.query(
      `insert into push_subscriptions (id, user_id, endpoint, p256dh, auth)
       select id, user_id, $3::text || $4::text || '-' || n, $5, $6
       from unnest($1::uuid[], $2::uuid[]) with ordinality as t(id, user_id, n)`,
      [ids, members.map((m) => m.id), service.url, run, p256dh, auth],
    )
  })

  const errors: string[] = []
  /** Sends a message to the members' buble and waits until the local service got its pushes. */
  let batches = 0
  const pushBatch = async (): Promise<number> => {
    const before = service.received()
    const started = performance.now()
    const res = await fetch(`${ctx.baseUrl}/api/chat/${bubleId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ctx.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: `Push ${++batches}: kommer alla?` }),
    })
    await res.arrayBuffer()
    if (res.status !== 201) throw new Error(`POST to the pushed buble answered ${res.status}`)
    const deadline = started + 60_000
    while (service.received() - before < members.length && performance.now() < deadline) await sleep(10)
    const got = service.received() - before
    if (got < members.length)
      throw new Error(`${members.length - got} of ${members.length} pushes never came within 60 s`)
    return (performance.now() - started) / 1000
  }

  const floor = setup.chatSend.floorRps ?? 0
  let load: LoadResult | undefined
  let delivered = 0
  let idleS = 0
  let stop = false
  let flowing: Promise<void> = Promise.resolve()
  try {
    console.log(`chat-send-with-pushes: ${thousands(members.length)} pushes with nothing else running…`)
    idleS = await pushBatch()
    // Pushes flow throughout: the next message as soon as the last one's pushes are in.
    flowing = (async () => {
      while (!stop) await pushBatch()
    })()
    flowing.catch(() => {})
    console.log(
      `chat-send-with-pushes: warm-up ${setup.warmupS} s, then ${setup.durationS} s of chat-send while pushes flow…`,
    )
    if (setup.warmupS > 0) await setup.chatSend.run(setup.warmupS)
    const from = service.received()
    load = await setup.chatSend.run(setup.durationS)
    delivered = service.received() - from
    stop = true
    await flowing
  } catch (err) {
    errors.push(err instanceof Error ? err.message : String(err))
  } finally {
    stop = true
    await flowing.catch(() => {})
    await service.close()
    await seedTransaction(ctx.databaseUrl, 'select 1', async (client) => {
      await client.query('delete from push_subscriptions where id = any($1::uuid[])', [ids])
    })
  }
  const ratio = load && floor > 0 ? load.rps / floor : 0
  const plain = setup.chatSend.plainRps
  const result: DeviceResult = {
    name: `chat-send-with-pushes: POST /api/chat/:id/messages while ${thousands(members.length)}-push batches flow`,
    figure: load
      ? `${load.rps.toFixed(0)} req/s (p50 ${load.p50} ms, p99 ${load.p99} ms) = ${floor > 0 ? `${ratio.toFixed(3)} of chat-send's floor (${floor.toFixed(0)} req/s)` : "chat-send's floor not measured (add chat-send to BENCH_ONLY)"}` +
        `${plain ? `, ${((load.rps / plain) * 100).toFixed(0)}% of chat-send without pushes (${plain.toFixed(0)} req/s)` : ''}; ` +
        `${thousands(delivered / setup.durationS)} pushes delivered/s meanwhile (${thousands(members.length)} alone in ${idleS.toFixed(2)} s, ` +
        `${thousands(members.length / idleS)}/s); ${batches} batches`
      : 'not measured',
    // Issue 11's bar, 30 % of health when health ran at 0.20 of its floor: 0.06 of the floor (decision 74).
    target: "≥ 0.06 of chat-send's floor",
    met: ratio >= 0.06,
  }
  if (load && load.non2xx + load.errors + load.timeouts > 0)
    errors.push(`${load.non2xx} unexpected statuses, ${load.errors} connection errors, ${load.timeouts} timeouts`)
  if (service.other() > 0) errors.push(`${service.other()} requests to the push service were not pushes`)
  if (errors.length > 0) result.error = errors.join('; ')
  return result
}

/** Runs the stream benchmarks `only` names (all when unset) and answers their results. */
export async function runStreamBenchmarks(
  setup: StreamBenchmarkSetup,
  only: readonly string[] | undefined,
): Promise<DeviceResult[]> {
  const wanted = STREAM_BENCHMARKS.filter((name) => !only || only.includes(name))
  if (wanted.length === 0) return []
  if (!setup.ctx.databaseUrl) {
    console.warn(`\n${wanted.join(', ')} skipped: their members are seeded in PostgreSQL.`)
    return []
  }
  console.log(`\nSeeding ${thousands(STREAMS / PER_BUBLE)} bubles of ${thousands(PER_BUBLE)} members with tokens…`)
  const bubles = await seedMembers(setup, STREAMS / PER_BUBLE, PER_BUBLE)
  const [first] = bubles
  const results: DeviceResult[] = []
  if (wanted.includes('streams-10k'))
    results.push(
      await streams10k(
        setup,
        bubles.flatMap((b) => b.members),
      ),
    )
  if (wanted.includes('chat-fanout-1000')) results.push(await chatFanout(setup, first!.bubleId, first!.members))
  if (wanted.includes('chat-send-with-pushes'))
    results.push(await chatSendWithPushes(setup, first!.bubleId, first!.members.slice(0, PUSHES)))
  const fanouts = POKE_FANOUTS.map((f) => f.size).filter((size) =>
    (wanted as readonly string[]).includes(`poke-fanout-${size}`),
  )
  if (fanouts.length > 0)
    results.push(
      ...(await pokeFanouts(
        setup,
        bubles.flatMap((b) => b.members),
        fanouts,
      )),
    )
  console.log(
    '\nStream benchmarks (issue 11: live streams, chat fan-out, Web Push; issue 20: poke fan-out; clients in this process):',
  )
  for (const result of results) {
    console.log(`  ${result.met ? 'MET   ' : 'MISSED'} ${result.name}: ${result.figure} — target ${result.target}`)
    if (result.error) console.error(`  ERROR: ${result.name}: ${result.error}`)
  }
  return results
}
