/**
 * Issue 23's `search` for `npm run bench`: `GET /api/bubles/:id/search` in a buble of 100,000 posts
 * on PostgreSQL, one request at a time on one kept-alive connection. The posts are seeded with words
 * of known frequency, so each query's matches are known: a word in half of them, one in a tenth, a
 * name in one in a hundred, a word in one in a thousand, a stem ("runs" finds "running", one in
 * twenty), two words together (one in ten), a word no post has, and the second page of the commonest word.
 *
 * Target: p95 < 50 ms over every query (and each query's own p95 printed). Each answer must be 200
 * with the count of hits its word's frequency gives (an answer short of hits is an error).
 */

import { Agent, request } from 'node:http'
import type { DeviceContext, DeviceResult } from './device.ts'
import { seedBusyBuble } from './device.ts'
import { seedTransaction } from './seed.ts'

export const SEARCH_BENCHMARK = 'search'

const POSTS = 100_000
const ROUNDS = Number(process.env.BENCH_SEARCH_ROUNDS ?? 50)
const WARMUP_ROUNDS = 5
const TARGET_P95_MS = 50

/** Each query, and how many hits its first page must have (a page is 20). */
const QUERIES: { label: string; q: string; before?: boolean; hits: number }[] = [
  { label: 'common (1 in 2)', q: 'fika', hits: 20 },
  { label: 'frequent (1 in 10)', q: 'picnic', hits: 20 },
  { label: 'name (1 in 100)', q: 'Linnea', hits: 20 },
  { label: 'rare (1 in 1,000)', q: 'cloudberry', hits: 20 },
  { label: 'stem (1 in 20)', q: 'runs', hits: 20 },
  { label: 'two words (1 in 10)', q: 'fika picnic', hits: 20 },
  { label: 'none', q: 'zanzibar', hits: 0 },
  { label: 'common, page 2', q: 'fika', before: true, hits: 20 },
]

const agent = new Agent({ keepAlive: true, maxSockets: 1 })

/** One request; its latency in ms (sent to the answer read to its end) and its parsed answer. */
function ask(
  ctx: DeviceContext,
  target: string,
): Promise<{ ms: number; body: { results: unknown[]; before: string | null } }> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const req = request(
      `${ctx.baseUrl}${target}`,
      { agent, headers: { authorization: `Bearer ${ctx.token}` } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const ms = performance.now() - started
          const text = Buffer.concat(chunks).toString('utf8')
          if (res.statusCode === 200) resolve({ ms, body: JSON.parse(text) })
          else reject(new Error(`${target} answered ${res.statusCode}: ${text.slice(0, 200)}`))
        })
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end()
  })
}

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0
}

/** 100,000 posts by the buble's members, each with the words of its number's frequencies. */
async function seedSearchBuble(ctx: DeviceContext): Promise<string> {
  const bubleId = await seedBusyBuble(ctx, 7)
  await seedTransaction(ctx.databaseUrl, 'vacuum analyze posts', async (client, checkpoint) => {
    await client.query(
      `create temporary table authors as
       select row_number() over (order by user_id) as k, user_id from memberships
       where buble_id = $1 and user_id <> $2`,
      [bubleId, ctx.userId],
    )
    for (let from = 1; from <= POSTS; from += 50_000) {
      await client.query(
        `insert into posts (id, buble_id, author_id, content, position, created_at, added_version, version)
         select gen_random_uuid(), $1, a.user_id,
           'Post ' || g || ': ' || (array['we met', 'a walk', 'new books', 'the weather', 'some photos'])[1 + g % 5]
             || case when g % 2 = 0 then ' and fika' else '' end
             || case when g % 10 = 0 then ', a picnic by the water' else '' end
             || case when g % 100 = 0 then ' with Linnea' else '' end
             || case when g % 1000 = 0 then ', cloudberry jam' else '' end
             || case when g % 20 = 0 then '; we were running late' else '' end
             || ' ' || repeat('lorem ipsum ', 6),
           g, now() - ($2 - g) * interval '1 minute', v, v
         from (select g, buble_next_version() as v from generate_series($3::int, $4::int) g) s
         join authors a on a.k = 1 + g % 7`,
        [bubleId, POSTS, from, Math.min(POSTS, from + 49_999)],
      )
      await checkpoint()
    }
    await client.query(`update bubles set changed_version = buble_next_version() where id = $1`, [bubleId])
  })
  return bubleId
}

async function search(ctx: DeviceContext): Promise<DeviceResult> {
  console.log(`Seeding a buble of ${POSTS.toLocaleString('en-US')} posts for search…`)
  const bubleId = await seedSearchBuble(ctx)
  const path = (q: string, before?: string | null) =>
    `/api/bubles/${bubleId}/search?q=${encodeURIComponent(q)}${before ? `&before=${encodeURIComponent(before)}` : ''}`
  const firstPage = new Map<string, string | null>()
  const samples = new Map<string, number[]>(QUERIES.map((query) => [query.label, []]))
  const errors: string[] = []
  try {
    for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      for (const query of QUERIES) {
        const before = query.before ? firstPage.get(query.q) : undefined
        const { ms, body } = await ask(ctx, path(query.q, before))
        if (!query.before) firstPage.set(query.q, body.before)
        if (body.results.length !== query.hits)
          throw new Error(`"${query.q}" found ${body.results.length} hits, not ${query.hits}`)
        if (round >= WARMUP_ROUNDS) samples.get(query.label)!.push(ms)
      }
    }
  } catch (err) {
    errors.push(err instanceof Error ? err.message : String(err))
  }
  const all = [...samples.values()].flat()
  const p95 = percentile(all, 95)
  const each = QUERIES.map((query) => `${query.label} ${percentile(samples.get(query.label)!, 95).toFixed(1)}`)
  const result: DeviceResult = {
    name: `search: ${POSTS.toLocaleString('en-US')} posts, one connection`,
    figure: `p95 ${p95.toFixed(1)} ms, p50 ${percentile(all, 50).toFixed(1)} ms over ${all.length} requests (p95 ms by query: ${each.join('; ')})`,
    target: `p95 < ${TARGET_P95_MS} ms`,
    met: errors.length === 0 && all.length > 0 && p95 < TARGET_P95_MS,
  }
  if (errors.length > 0) result.error = errors.join('; ')
  return result
}

/** Runs `search` when `only` names it (or is unset) and answers its result; PostgreSQL only. */
export async function runSearchBenchmark(
  ctx: DeviceContext,
  only: readonly string[] | undefined,
): Promise<DeviceResult[]> {
  if (only && !only.includes(SEARCH_BENCHMARK)) return []
  if (!ctx.databaseUrl) {
    console.warn(`\n${SEARCH_BENCHMARK} skipped: its posts are seeded in PostgreSQL.`)
    return []
  }
  console.log(
    `\n${SEARCH_BENCHMARK}: ${WARMUP_ROUNDS} warm-up rounds, then ${ROUNDS} of ${QUERIES.length} queries, one at a time…`,
  )
  const result = await search(ctx)
  console.log(`  ${result.met ? 'MET   ' : 'MISSED'} ${result.name}: ${result.figure} — target ${result.target}`)
  if (result.error) console.error(`  ERROR: ${result.name}: ${result.error}`)
  return [result]
}
