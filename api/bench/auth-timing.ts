/**
 * Issue 18's `auth-timing` for `npm run bench`: whether `POST /api/auth/forgot-password` and
 * `POST /api/auth/resend-verification` tell, by how long they take, that an address has an account.
 * Both answer the same words either way (CONTRACT §3.1); an answer that comes measurably later for
 * a known address tells it all the same.
 *
 * One client in this process asks each call for a known address (a newly signed-up, active,
 * unverified account: both calls have work to do for it) and for an address nobody has, one request
 * at a time, the known and the unknown one taking turns (which goes first alternates, so drift over
 * the run falls on both), with a pause after each answer (BENCH_AUTH_GAP_MS, default 20) so what the
 * server does after answering (the mail) is not measured as part of the next request. Each latency
 * is from sending the request to having read the whole answer. Warm-up rounds first, then
 * BENCH_AUTH_ROUNDS (default 200) measured ones.
 *
 * Target: for each call, the median for the known address over the median for the unknown one
 * within 0.8–1.25. Every answer must be 200: the bench server runs with rate limits off, so this
 * measures the calls and never a 429 (an answer of any other status is an error).
 */

import { Agent, request } from 'node:http'
import type { DeviceContext, DeviceResult } from './device.ts'

export const AUTH_TIMING_BENCHMARKS = ['auth-timing'] as const

const ROUNDS = Number(process.env.BENCH_AUTH_ROUNDS ?? 200)
const WARMUP_ROUNDS = 30
const GAP_MS = Number(process.env.BENCH_AUTH_GAP_MS ?? 20)
const LOW = 0.8
const HIGH = 1.25

const CALLS = ['forgot-password', 'resend-verification'] as const
type Call = (typeof CALLS)[number]

export interface AuthTimingSetup {
  /** A newly signed-up user: active, address not yet verified. */
  signUp(): Promise<DeviceContext>
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

// One kept-alive connection, as a client that asks again and again would use: Node's own client,
// which does less of its own work around each answer than fetch (less of the client in each figure).
const agent = new Agent({ keepAlive: true, maxSockets: 1 })

/** One request; answers its latency in ms (sent to the answer read to its end), or throws on an answer that is not 200. */
function ask(baseUrl: string, call: Call, email: string): Promise<number> {
  const body = JSON.stringify({ email })
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const req = request(
      `${baseUrl}/api/auth/${call}`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const ms = performance.now() - started
          if (res.statusCode === 200) resolve(ms)
          else
            reject(new Error(`${call} answered ${res.statusCode}: ${Buffer.concat(chunks).toString('utf8', 0, 200)}`))
        })
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

async function authTiming(setup: AuthTimingSetup): Promise<DeviceResult> {
  const known = await setup.signUp()
  const unknown = `nobody-${Date.now()}-${process.pid}@example.com`
  const samples: Record<Call, { known: number[]; unknown: number[] }> = {
    'forgot-password': { known: [], unknown: [] },
    'resend-verification': { known: [], unknown: [] },
  }
  const errors: string[] = []
  try {
    for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      for (const call of CALLS) {
        const order = round % 2 === 0 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const)
        for (const which of order) {
          const ms = await ask(known.baseUrl, call, which === 'known' ? known.email : unknown)
          if (round >= WARMUP_ROUNDS) samples[call][which].push(ms)
          await sleep(GAP_MS)
        }
      }
    }
  } catch (err) {
    errors.push(err instanceof Error ? err.message : String(err))
  }
  const figures: string[] = []
  let met = errors.length === 0
  for (const call of CALLS) {
    const { known: k, unknown: u } = samples[call]
    if (k.length === 0 || u.length === 0) {
      met = false
      continue
    }
    const ratio = median(k) / median(u)
    if (ratio < LOW || ratio > HIGH) met = false
    figures.push(
      `${call}: known ${median(k).toFixed(2)} ms, unknown ${median(u).toFixed(2)} ms (medians of ${k.length}), ratio ${ratio.toFixed(2)}`,
    )
  }
  const result: DeviceResult = {
    name: 'auth-timing: forgot-password and resend-verification for a known and an unknown address',
    figure: figures.join('; '),
    target: `median known / median unknown within ${LOW}–${HIGH} for each`,
    met,
  }
  if (errors.length > 0) result.error = errors.join('; ')
  return result
}

/** Runs `auth-timing` when `only` names it (or is unset) and answers its result. */
export async function runAuthTimingBenchmarks(
  setup: AuthTimingSetup,
  only: readonly string[] | undefined,
): Promise<DeviceResult[]> {
  const wanted = AUTH_TIMING_BENCHMARKS.filter((name) => !only || only.includes(name))
  if (wanted.length === 0) return []
  console.log(
    `\nauth-timing: ${WARMUP_ROUNDS} warm-up rounds, then ${ROUNDS}; one request at a time, ${GAP_MS} ms apart…`,
  )
  const results = [await authTiming(setup)]
  console.log('\nSign-in timing (issue 18: an answer must not tell whether an address has an account):')
  for (const result of results) {
    console.log(`  ${result.met ? 'MET   ' : 'MISSED'} ${result.name}: ${result.figure} — target ${result.target}`)
    if (result.error) console.error(`  ERROR: ${result.name}: ${result.error}`)
  }
  return results
}
