/**
 * Issue 12's streamed downloads for `npm run bench`, against the real server (the child process of
 * run.ts), each read to the end by a slow-ish client in this process (BENCH_SLOW_CLIENT_KBPS, default
 * 1,024 KB/s: the server must hold back rather than buffer what the client has not taken yet) while
 * the server's RSS (VmRSS of its process) is sampled every 50 ms:
 *
 * - csv-export-100k: the platform admin's `GET /api/admin/users/export.csv` with the 100,000 seeded
 *   users (seed-admin.ts, shared with the admin-*-search scenarios). Every record is counted (RFC 4180:
 *   a line break inside quotes is no record's end): a header and one record per listed user.
 * - data-export-10k: `GET /api/users/me/export` of a newly signed-up member with 10,000 posts in one
 *   buble; the ZIP is opened here and its posts.json must hold exactly 10,000 posts.
 *
 * Target for both: RSS growth (the peak during the download minus just before) under 50 MB. A
 * download that fails, breaks off or holds the wrong number of rows is an error.
 */

import { readFileSync } from 'node:fs'
import { type IncomingHttpHeaders, request } from 'node:http'
import { strFromU8, unzipSync } from 'fflate'
import pg from 'pg'
import type { DeviceContext, DeviceResult } from './device.ts'
import { seedMemberPosts } from './seed-admin.ts'

export const ADMIN_BENCHMARKS = ['csv-export-100k', 'data-export-10k'] as const

const SEEDED_USERS = 100_000
const MEMBER_POSTS = 10_000
const MAX_GROWTH_MB = 50
const SAMPLE_MS = 50
const SLOW_CLIENT_KBPS = Number(process.env.BENCH_SLOW_CLIENT_KBPS ?? 1024)

export interface AdminBenchmarkSetup {
  /** The platform admin (the bench user, made admin by the seed). */
  ctx: DeviceContext
  serverPid: number
  /** Seeds the 100,000 users and posts and makes `ctx` an admin, once per run. */
  seedAdmin(): Promise<void>
  /** A newly signed-up user. */
  signUp(): Promise<DeviceContext>
}

const thousands = (n: number) => Math.round(n).toLocaleString('en-US')
const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The server's resident set size in kB (VmRSS of /proc/<pid>/status). */
function rssKb(pid: number): number {
  const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+)\s+kB/m)
  if (!match) throw new Error(`no VmRSS for process ${pid}`)
  return Number(match[1])
}

interface Download {
  status: number
  headers: IncomingHttpHeaders
  bytes: number
  seconds: number
  rssBeforeKb: number
  rssPeakKb: number
  /** A second after the download ended. */
  rssAfterKb: number
  /** The connection failed or the body broke off. */
  error?: string
}

/**
 * GETs `target` with `token` on a connection of its own, reading no faster than SLOW_CLIENT_KBPS
 * (the socket is paused whenever the client is ahead of that pace), handing each chunk to `onData`;
 * samples the server's RSS every 50 ms from just before the request until the body ended.
 */
async function download(
  baseUrl: string,
  target: string,
  token: string,
  pid: number,
  onData: (chunk: Buffer) => void,
): Promise<Download> {
  const rssBeforeKb = rssKb(pid)
  let rssPeakKb = rssBeforeKb
  const sampler = setInterval(() => {
    rssPeakKb = Math.max(rssPeakKb, rssKb(pid))
  }, SAMPLE_MS)
  const started = performance.now()
  const bytesPerMs = (SLOW_CLIENT_KBPS * 1024) / 1000
  const outcome = await new Promise<Omit<Download, 'seconds' | 'rssBeforeKb' | 'rssPeakKb' | 'rssAfterKb'>>(
    (resolve) => {
      let bytes = 0
      let status = 0
      let headers: IncomingHttpHeaders = {}
      const done = (error?: string) => resolve(error ? { status, headers, bytes, error } : { status, headers, bytes })
      const req = request(
        `${baseUrl}${target}`,
        { headers: { authorization: `Bearer ${token}` }, agent: false },
        (res) => {
          status = res.statusCode ?? 0
          headers = res.headers
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.byteLength
            onData(chunk)
            const ahead = bytes / bytesPerMs - (performance.now() - started)
            if (ahead > 1) {
              res.pause()
              setTimeout(() => res.resume(), ahead)
            }
          })
          res.on('end', () => done())
          res.on('error', (err) => done(err.message))
          // Closed before its end: the server broke the download off (a later `done` is a no-op).
          res.on('close', () => {
            if (!res.complete) done('the server broke the download off')
          })
        },
      )
      req.setTimeout(120_000, () => req.destroy(new Error('no data for 120 s')))
      req.on('error', (err) => done(err.message))
      req.end()
    },
  )
  const seconds = (performance.now() - started) / 1000
  clearInterval(sampler)
  rssPeakKb = Math.max(rssPeakKb, rssKb(pid))
  await sleep(1000)
  return { ...outcome, seconds, rssBeforeKb, rssPeakKb, rssAfterKb: rssKb(pid) }
}

/** "12.3 MB in 10.2 s; server RSS 180.0 MB → 195.2 MB peak (+15.2 MB) → 190.0 MB after" */
function memoryFigure(d: Download): string {
  return (
    `${mb(d.bytes / 1024)} in ${d.seconds.toFixed(1)} s (${thousands(d.bytes / 1024 / d.seconds)} KB/s); ` +
    `server RSS ${mb(d.rssBeforeKb)} → ${mb(d.rssPeakKb)} peak (+${mb(d.rssPeakKb - d.rssBeforeKb)}) → ${mb(d.rssAfterKb)} a second after`
  )
}

const grewLittle = (d: Download) => d.rssPeakKb - d.rssBeforeKb < MAX_GROWTH_MB * 1024

/** Counts CSV records (line feeds outside quotes) as chunks arrive, keeping the first line. */
function csvCounter() {
  let quoted = false
  let records = 0
  let head = ''
  return {
    add(chunk: Buffer) {
      if (records === 0) head += chunk.toString('utf8', 0, Math.min(chunk.byteLength, 256))
      for (let i = 0; i < chunk.byteLength; i++) {
        const byte = chunk[i]
        if (byte === 0x22) quoted = !quoted
        else if (byte === 0x0a && !quoted) records++
      }
    },
    records: () => records,
    header: () => head.split('\r\n')[0] ?? '',
  }
}

async function csvExport(setup: AdminBenchmarkSetup): Promise<DeviceResult> {
  const { ctx } = setup
  // Every listed account is exported: the seeded ones and whatever earlier runs left in the database.
  const client = new pg.Client({ connectionString: ctx.databaseUrl })
  await client.connect()
  const listed = await client
    .query<{ n: number }>(`select count(*)::int as n from users where status <> 'deleted'`)
    .finally(() => client.end())
  const expected = listed.rows[0]?.n ?? 0
  console.log(
    `csv-export-100k: downloading ${thousands(expected)} users as CSV at ${thousands(SLOW_CLIENT_KBPS)} KB/s at most…`,
  )
  const csv = csvCounter()
  const d = await download(ctx.baseUrl, '/api/admin/users/export.csv', ctx.token, setup.serverPid, (chunk) =>
    csv.add(chunk),
  )
  const rows = csv.records() - 1
  const result: DeviceResult = {
    name: `csv-export-100k: GET /api/admin/users/export.csv of ${thousands(expected)} users (${thousands(SEEDED_USERS)} seeded)`,
    figure: `${d.status}, ${thousands(rows)} rows + header, ${memoryFigure(d)}`,
    target: `RSS growth under ${MAX_GROWTH_MB} MB`,
    met: d.status === 200 && !d.error && grewLittle(d),
  }
  const errors: string[] = []
  if (d.error) errors.push(d.error)
  if (d.status !== 200) errors.push(`answered ${d.status}`)
  else if (!String(d.headers['content-type']).startsWith('text/csv'))
    errors.push(`content-type ${d.headers['content-type']}`)
  if (!csv.header().startsWith('Name,Email,')) errors.push(`the first line is not the header: ${csv.header()}`)
  if (rows !== expected) errors.push(`${thousands(rows)} rows, but the database lists ${thousands(expected)} users`)
  if (rows < SEEDED_USERS) errors.push(`fewer rows than the ${thousands(SEEDED_USERS)} users seeded`)
  if (errors.length > 0) result.error = errors.join('; ')
  return result
}

async function dataExport(setup: AdminBenchmarkSetup): Promise<DeviceResult> {
  const member = await setup.signUp()
  console.log(`data-export-10k: seeding ${thousands(MEMBER_POSTS)} posts of one member…`)
  await seedMemberPosts(member, MEMBER_POSTS)
  console.log(`data-export-10k: downloading their export at ${thousands(SLOW_CLIENT_KBPS)} KB/s at most…`)
  // The archive is kept here (the client's memory, not the server's) to be opened afterwards.
  const chunks: Buffer[] = []
  const d = await download(member.baseUrl, '/api/users/me/export', member.token, setup.serverPid, (chunk) =>
    chunks.push(chunk),
  )
  const errors: string[] = []
  let posts = -1
  let entries = 0
  let postsJsonBytes = 0
  if (d.error) errors.push(d.error)
  if (d.status !== 200) errors.push(`answered ${d.status}: ${Buffer.concat(chunks).toString('utf8', 0, 300)}`)
  else {
    if (d.headers['content-type'] !== 'application/zip') errors.push(`content-type ${d.headers['content-type']}`)
    try {
      const files = unzipSync(new Uint8Array(Buffer.concat(chunks)))
      entries = Object.keys(files).length
      const json = files['posts.json']
      if (!json) errors.push(`no posts.json among ${Object.keys(files).join(', ')}`)
      else {
        postsJsonBytes = json.byteLength
        posts = (JSON.parse(strFromU8(json)) as unknown[]).length
      }
    } catch (err) {
      errors.push(`the archive does not open: ${err instanceof Error ? err.message : String(err)}`)
    }
  }
  if (posts >= 0 && posts !== MEMBER_POSTS) errors.push(`posts.json holds ${thousands(posts)} posts`)
  // Each post is ~100–250 characters of JSON; deflated, well over 20 bytes a post.
  if (d.status === 200 && d.bytes < MEMBER_POSTS * 20) errors.push(`only ${d.bytes} bytes: implausibly small`)
  const result: DeviceResult = {
    name: `data-export-10k: GET /api/users/me/export of a member with ${thousands(MEMBER_POSTS)} posts`,
    figure:
      `${d.status}, a ZIP of ${entries} files, posts.json ${thousands(posts)} posts (${mb(postsJsonBytes / 1024)} unzipped), ` +
      memoryFigure(d),
    target: `RSS growth under ${MAX_GROWTH_MB} MB`,
    met: d.status === 200 && !d.error && grewLittle(d),
  }
  if (errors.length > 0) result.error = errors.join('; ')
  return result
}

/** Runs the admin benchmarks `only` names (all when unset) and answers their results. */
export async function runAdminBenchmarks(
  setup: AdminBenchmarkSetup,
  only: readonly string[] | undefined,
): Promise<DeviceResult[]> {
  const wanted = ADMIN_BENCHMARKS.filter((name) => !only || only.includes(name))
  if (wanted.length === 0) return []
  if (!setup.ctx.databaseUrl) {
    console.warn(`\n${wanted.join(', ')} skipped: their data is seeded in PostgreSQL.`)
    return []
  }
  const results: DeviceResult[] = []
  if (wanted.includes('csv-export-100k')) {
    await setup.seedAdmin()
    results.push(await csvExport(setup))
  }
  if (wanted.includes('data-export-10k')) results.push(await dataExport(setup))
  console.log(
    `\nAdmin and export downloads (issue 12: streamed, read at ${thousands(SLOW_CLIENT_KBPS)} KB/s at most; server RSS sampled every ${SAMPLE_MS} ms):`,
  )
  for (const result of results) {
    console.log(`  ${result.met ? 'MET   ' : 'MISSED'} ${result.name}: ${result.figure} — target ${result.target}`)
    if (result.error) console.error(`  ERROR: ${result.name}: ${result.error}`)
  }
  return results
}
