#!/usr/bin/env node
// `npm run fuzz`: issue 18's push fuzz test with many more seeds than `npm test` runs (3), on
// PGlite and, when TEST_DATABASE_URL is set, on PostgreSQL. FUZZ_SEEDS (default 100) seeds from
// FUZZ_FIRST_SEED (default: one derived from the clock, printed, so a failure can be run again
// with the same seeds); FUZZ_BATCHES batches per user and seed (default 6).

import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const first = process.env.FUZZ_FIRST_SEED ?? String(1000 + (Math.floor(Date.now() / 1000) % 1_000_000))
const seeds = process.env.FUZZ_SEEDS ?? '100'
console.log(
  `push fuzz: seeds ${first} to ${Number(first) + Number(seeds) - 1} (FUZZ_FIRST_SEED=${first} FUZZ_SEEDS=${seeds} to run them again)`,
)
const vitest = path.join(
  path.dirname(createRequire(path.join(root, 'package.json')).resolve('vitest/package.json')),
  'vitest.mjs',
)
const result = spawnSync(process.execPath, [vitest, 'run', 'api/src/features/sync/push-fuzz.test.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, FUZZ_FIRST_SEED: first, FUZZ_SEEDS: seeds },
})
process.exit(result.status ?? 1)
