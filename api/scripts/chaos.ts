/**
 * `npm run chaos`: the long run of the sync chaos harness (issue 22 §4, api/src/testing/chaos/):
 * CHAOS_RUNS seeded runs (default 20) from CHAOS_SEED (default 1), each with CHAOS_DEVICES devices
 * (default 4) and CHAOS_STEPS steps (default 60), on CHAOS_NODES real API processes (default 3)
 * on a fresh database of TEST_DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432/postgres).
 * Prints each run's summary and a total; exits 1 when any invariant broke. A failing seed replays
 * with CHAOS_SEED=<seed> CHAOS_RUNS=1 (the same schedule, as far as timing allows).
 */

import {
  FAULT_KINDS,
  formatSummary,
  type RunSummary,
  runChaos,
  startChaosCluster,
} from '../src/testing/chaos/harness.ts'

const int = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback)
  if (!Number.isInteger(value) || value < 0) {
    process.stderr.write(`${name} must be a whole number\n`)
    process.exit(2)
  }
  return value
}

process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres'
const firstSeed = int('CHAOS_SEED', 1)
const runs = int('CHAOS_RUNS', 20)
const devices = Math.max(3, int('CHAOS_DEVICES', 4))
const steps = Math.max(12, int('CHAOS_STEPS', 60))
const nodes = Math.max(2, int('CHAOS_NODES', 3))

process.stdout.write(
  `chaos: ${runs} runs from seed ${firstSeed}, ${devices} devices, ${steps} steps, ${nodes} nodes on ${new URL(process.env.TEST_DATABASE_URL).host}\n`,
)
const cluster = await startChaosCluster(nodes)
const summaries: RunSummary[] = []
const failed: number[] = []
try {
  for (let seed = firstSeed; seed < firstSeed + runs; seed++) {
    let summary: RunSummary
    try {
      summary = await runChaos(cluster, { seed, devices, steps, faultRate: 0.15 })
    } catch (err) {
      // The harness itself failed (a node that never came back, say): that seed fails.
      process.stdout.write(`seed ${seed}: the run failed: ${err instanceof Error ? err.stack : String(err)}\n`)
      failed.push(seed)
      continue
    }
    summaries.push(summary)
    process.stdout.write(`${formatSummary(summary)}\n`)
    if (Object.values(summary.violations).some((list) => list && list.length > 0)) failed.push(seed)
  }
} finally {
  await cluster.stop()
}

const sum = (pick: (summary: RunSummary) => number) => summaries.reduce((total, summary) => total + pick(summary), 0)
const faults = FAULT_KINDS.map((kind) => `${kind} ${sum((summary) => summary.faults[kind])}`).join(', ')
process.stdout.write(
  [
    `total: ${runs} runs, ${failed.length} failed${failed.length > 0 ? ` (seeds ${failed.join(', ')})` : ''}`,
    `  faults: ${faults}`,
    `  mutations: ${sum((s) => s.mutations.sent)} sent, ${sum((s) => s.mutations.applied)} applied, ${sum((s) => s.mutations.duplicatesAnswered)} answered duplicate, ${sum((s) => s.mutations.rejected)} rejected`,
    '',
  ].join('\n'),
)
process.exit(failed.length > 0 ? 1 : 0)
