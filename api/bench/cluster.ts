/**
 * `npm run bench:cluster` (issue 22 §3): chat-send and wall-page-1 through 1, 2 and 3 API nodes
 * behind the round-robin proxy of the cluster test (api/src/testing/cluster.ts), and `push-parallel`
 * (issue 22 §1: 8 devices, a buble each, batches of 100 at once) spread over 1 and then 3 nodes, on one PostgreSQL
 * database (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local buble_test server; a fresh
 * database is made and dropped). Three nodes start once; the proxy sends each run to the first 1,
 * 2 or 3 of them. Prints req/s, p50 and p99 per scenario and node count.
 *
 * On this 2-core machine the nodes, the proxy (one Node process), autocannon and PostgreSQL share
 * two cores: more nodes cannot add CPU, so the figures show what the extra processes cost, not what
 * they gain. Knobs: BENCH_DURATION (s each measured run, default 5), BENCH_WARMUP (s, default 2),
 * BENCH_CONNECTIONS (default 50), BENCH_WALL_POSTS (the wall's posts, default 100,000),
 * BENCH_PUSH_ROUNDS (push-parallel's rounds per device, default 10).
 */

import autocannon from 'autocannon'
import { startCluster, startProxy } from '../src/testing/cluster.ts'
import { TEST_JWT_SECRET } from '../src/testing/harness.ts'
import { seedBusyBuble } from './device.ts'
import { runPushParallel } from './push-parallel.ts'
import { seedWall } from './seed-wall.ts'

const DURATION = Number(process.env.BENCH_DURATION ?? 5)
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const WALL_POSTS = Number(process.env.BENCH_WALL_POSTS ?? 100_000)
const PUSH_ROUNDS = Number(process.env.BENCH_PUSH_ROUNDS ?? 10)
process.env.TEST_DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/buble_test'

interface Run {
  scenario: string
  nodes: number
  rps: number
  p50: number
  p99: number
  failed: number
}

async function main() {
  const cluster = await startCluster(3, { BUBLE_RATE_LIMITS: 'off' })
  let active = 3
  const proxy = await startProxy(() => cluster.nodes.slice(0, active).map((node) => node.url))
  const runs: Run[] = []
  try {
    const res = await fetch(`${proxy.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Bench User',
        email: `bench-cluster-${Date.now()}@example.com`,
        password: 'Bench-Passw0rd-1',
      }),
    })
    if (res.status !== 201) throw new Error(`register answered ${res.status}: ${await res.text()}`)
    const body = (await res.json()) as { access_token: string; user: { id: string; email: string } }
    const ctx = {
      baseUrl: proxy.url,
      token: body.access_token,
      userId: body.user.id,
      email: body.user.email,
      databaseUrl: cluster.database.url,
    }
    process.stdout.write(`seeding a wall of ${WALL_POSTS} posts and a chat of 100 members…\n`)
    const wallId = await seedBusyBuble(ctx, 200)
    await seedWall(ctx, wallId, { posts: WALL_POSTS })
    const chatId = await seedBusyBuble(ctx, 99)
    const auth = { authorization: `Bearer ${ctx.token}` }
    const scenarios = [
      {
        name: 'chat-send',
        method: 'POST' as const,
        path: `/api/chat/${chatId}/messages`,
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'Hej! Ses vi på fredag?' }),
        expect: 201,
      },
      {
        name: 'wall-page-1',
        method: 'GET' as const,
        path: `/api/wall/${wallId}/posts?page=1`,
        headers: auth,
        expect: 200,
      },
    ]
    for (const nodes of [1, 2, 3]) {
      active = nodes
      for (const scenario of scenarios) {
        const options = {
          url: `${proxy.url}${scenario.path}`,
          method: scenario.method,
          headers: scenario.headers,
          body: 'body' in scenario ? scenario.body : undefined,
          connections: CONNECTIONS,
        }
        await autocannon({ ...options, duration: WARMUP })
        const result = await autocannon({ ...options, duration: DURATION })
        const failed =
          result.errors +
          Object.entries(result.statusCodeStats ?? {}).reduce(
            (sum, [code, stat]) => sum + (Number(code) === scenario.expect ? 0 : (stat?.count ?? 0)),
            0,
          )
        runs.push({
          scenario: scenario.name,
          nodes,
          rps: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          failed,
        })
        process.stdout.write(
          `${scenario.name.padEnd(12)} ${nodes} node${nodes > 1 ? 's' : ' '}  ${Math.round(result.requests.average)
            .toString()
            .padStart(
              6,
            )} req/s  p50 ${String(result.latency.p50).padStart(4)} ms  p99 ${String(result.latency.p99).padStart(4)} ms${failed ? `  FAILED ${failed}` : ''}\n`,
        )
      }
    }
    // Writes: each device's batches go to the nodes in turn (1 node, then all 3), straight to them.
    // The devices' tokens are signed with the nodes' secret (the test servers' own).
    process.env.JWT_SECRET = TEST_JWT_SECRET
    for (const nodes of [1, 3]) {
      const result = await runPushParallel({
        baseUrls: cluster.nodes.slice(0, nodes).map((node) => node.url),
        databaseUrl: cluster.database.url,
        dataDir: cluster.dataDir,
        rounds: PUSH_ROUNDS,
      })
      process.stdout.write(
        `${'push-parallel'.padEnd(12)} ${nodes} node${nodes > 1 ? 's' : ' '}  ${result.figure}${result.error ? `  FAILED ${result.error}` : ''}\n`,
      )
      if (result.error) runs.push({ scenario: 'push-parallel', nodes, rps: 0, p50: 0, p99: 0, failed: 1 })
    }
    const served = proxy.served.map((count, node) => `node ${node}: ${count}`).join(', ')
    process.stdout.write(`requests per node (all runs): ${served}\n`)
  } finally {
    await proxy.close()
    await cluster.stop()
  }
  if (runs.some((run) => run.failed > 0)) process.exitCode = 1
}

await main()
