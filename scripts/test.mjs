#!/usr/bin/env node
// `npm test`: every test Buble has.
//   0. Static checks: `tsc -b` over every workspace, `biome check .` and the feature boundaries
//      (scripts/check-boundaries.mjs), each counting as one test.
//   1. Vitest over all workspaces (unit, API against PGlite, or PostgreSQL when TEST_DATABASE_URL
//      is set, and the PWA's component tests).
//   2. The Playwright browser tests in the system Chromium (/usr/bin/chromium or CHROMIUM_PATH).
//      No Chromium: one loud line and skipped, or a failure when REQUIRE_E2E=1.
//   3. The Lighthouse check (scripts/lighthouse.mjs) in the same Chromium: one test per page measured
//      (/login, /dashboard, a buble page), each passing when every assertion of lighthouserc.json holds
//      there. Skipped or failed without Chromium exactly as the browser tests are.
// Ends with one plain line, `N passed, N failed, N skipped`, summing both runners, and exits
// non-zero when anything failed.

import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const tmp = mkdtempSync(path.join(os.tmpdir(), 'buble-test-'))
const requireE2E = process.env.REQUIRE_E2E === '1'
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

/** @type {{name: string, passed: number, failed: number, skipped: number, note?: string, failures?: string[]}[]} */
const results = []

/** The first line of an error, with the terminal's colour codes taken out, for the summary. */
function firstLine(text) {
  const plain = String(text ?? '').replace(/\u001b\[[0-9;]*m/g, '')
  return (
    plain
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim()
      .slice(0, 300) ?? ''
  )
}

function banner(text) {
  console.log(`\n=== ${text} ===\n`)
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return null
  }
}

function run(command, args, env = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } })
  if (result.error) console.error(`Could not run ${command}: ${result.error.message}`)
  return result.status ?? 1
}

// ---- 1. Vitest -------------------------------------------------------------------------------

function runVitest() {
  banner('Vitest: unit, API and component tests')
  if (!process.env.TEST_DATABASE_URL)
    console.warn(
      'POSTGRESQL NOT SET: API tests run on PGlite only, and the three-node cluster test (api/src/testing/cluster.test.ts) the settled-pull test (api/src/features/sync/settled-pull.test.ts) the chaos test (api/src/features/sync/chaos.test.ts) and the boot-wait test (api/src/boot-wait.test.ts) are left out — set TEST_DATABASE_URL to run them on PostgreSQL too',
    )
  const vitestManifest = createRequire(path.join(root, 'package.json')).resolve('vitest/package.json')
  const vitestBin = path.join(path.dirname(vitestManifest), 'vitest.mjs')
  const report = path.join(tmp, 'vitest.json')
  const code = run(process.execPath, [
    vitestBin,
    'run',
    '--passWithNoTests',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ])
  const json = readJson(report)
  const counts = { name: 'vitest', passed: 0, failed: 0, skipped: 0 }
  if (json) {
    counts.passed = json.numPassedTests ?? 0
    counts.failed = json.numFailedTests ?? 0
    counts.skipped = (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0)
    // A file that fails to load (syntax error, failing import, failing beforeAll) has no failed test
    // of its own: count it as one failure so the summary never reads "0 failed" for a red run.
    counts.failures = []
    for (const file of json.testResults ?? []) {
      const where = path.relative(root, file.name ?? '')
      const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed')
      for (const test of failedTests)
        counts.failures.push(`${where} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`)
      if (file.status === 'failed' && failedTests.length === 0) {
        counts.failed += 1
        counts.failures.push(`${where}: ${firstLine(file.message)}`)
      }
    }
  }
  if (code !== 0 && counts.failed === 0) {
    counts.failed = 1
    counts.note = `vitest exited with code ${code}${json ? '' : ' and wrote no report'}`
  }
  results.push(counts)
}

// ---- 0. Static checks ------------------------------------------------------------------------

function runStaticChecks() {
  banner('Static checks: TypeScript (strict, every workspace), Biome and feature boundaries')
  const bin = (name) => path.join(root, 'node_modules', '.bin', name)
  for (const [name, command, args] of [
    ['typecheck', bin('tsc'), ['-b']],
    ['biome', bin('biome'), ['check', '.']],
    ['boundaries', process.execPath, [path.join(root, 'scripts/check-boundaries.mjs')]],
  ]) {
    const code = run(command, args)
    results.push({ name, passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1, skipped: 0 })
  }
}

// ---- 2. Playwright ---------------------------------------------------------------------------

const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium'

/** False, with the step recorded as skipped (or failed when REQUIRE_E2E=1), when there is no Chromium. */
function haveChromium(name) {
  if (existsSync(chromium)) return true
  if (requireE2E) {
    console.error(`E2E FAILED: no Chromium at ${chromium} and REQUIRE_E2E=1 — install Debian's chromium`)
    results.push({ name, passed: 0, failed: 1, skipped: 0, note: `no Chromium at ${chromium}` })
  } else {
    console.log(
      `E2E SKIPPED: no Chromium at ${chromium} — install Debian's chromium or set REQUIRE_E2E=1 to make this a failure`,
    )
    results.push({ name, passed: 0, failed: 0, skipped: 0, note: 'skipped: no Chromium' })
  }
  return false
}

function runPlaywright() {
  banner('Playwright: browser tests in Chromium')
  if (!haveChromium('playwright')) return
  if (!existsSync(path.join(root, 'pwa/playwright.config.ts'))) {
    console.error('E2E FAILED: pwa/playwright.config.ts is missing — there are no browser tests to run')
    results.push({ name: 'playwright', passed: 0, failed: 1, skipped: 0, note: 'no pwa/playwright.config.ts' })
    return
  }
  const report = path.join(tmp, 'playwright.json')
  // npm appends the extra arguments to the script: `npm run build && playwright test -c … --reporter=list,json`.
  const code = run(npm, ['run', 'test:e2e', '--', '--reporter=list,json'], {
    CHROMIUM_PATH: chromium,
    PLAYWRIGHT_JSON_OUTPUT_FILE: report,
  })
  const json = readJson(report)
  const counts = { name: 'playwright', passed: 0, failed: 0, skipped: 0 }
  if (json?.stats) {
    counts.passed = (json.stats.expected ?? 0) + (json.stats.flaky ?? 0)
    counts.failed = json.stats.unexpected ?? 0
    counts.skipped = json.stats.skipped ?? 0
    if (json.stats.flaky) counts.note = `${json.stats.flaky} flaky (passed on retry)`
    counts.failures = playwrightFailures(json.suites ?? [])
  }
  if (code !== 0 && counts.failed === 0) {
    counts.failed = 1
    counts.note = `test:e2e exited with code ${code}${json ? '' : ' before Playwright wrote a report (build failed?)'}`
  }
  results.push(counts)
}

/** "file › title: first line of the error" for every test of a Playwright JSON report that failed. */
function playwrightFailures(suites, titles = []) {
  const failures = []
  for (const suite of suites) {
    const inner = suite.file && titles.length === 0 ? [suite.file] : [...titles, suite.title]
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected') continue
        const error = test.results?.find((result) => result.error)?.error
        failures.push(`${[...inner, spec.title].join(' › ')}: ${firstLine(error?.message)}`)
      }
    failures.push(...playwrightFailures(suite.suites ?? [], inner))
  }
  return failures
}

// ---- 3. Lighthouse ---------------------------------------------------------------------------

function runLighthouse() {
  banner('Lighthouse: scores and budgets of /login, /dashboard and a buble page')
  if (!haveChromium('lighthouse')) return
  const summary = path.join(tmp, 'lighthouse.json')
  // `npm run lighthouse` builds the PWA first, so the pages measured are this tree's.
  const code = run(npm, ['run', 'lighthouse'], { CHROMIUM_PATH: chromium, LIGHTHOUSE_SUMMARY_FILE: summary })
  const json = readJson(summary)
  const counts = { name: 'lighthouse', passed: 0, failed: 0, skipped: 0 }
  for (const test of json?.tests ?? []) {
    if (test.passed) counts.passed += 1
    else counts.failed += 1
  }
  if (code !== 0 && counts.failed === 0) {
    counts.failed = 1
    counts.note = `lighthouse exited with code ${code}${json ? '' : ' before judging a page (build, server or seed failed?)'}`
  }
  results.push(counts)
}

// ---- Summary ---------------------------------------------------------------------------------

runStaticChecks()
runVitest()
runPlaywright()
runLighthouse()
rmSync(tmp, { recursive: true, force: true })

banner('Summary')
for (const r of results) {
  const note = r.note ? ` (${r.note})` : ''
  console.log(`  ${r.name.padEnd(10)} ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped${note}`)
  for (const failure of r.failures ?? []) console.log(`    FAILED ${failure}`)
}
const total = results.reduce(
  (sum, r) => ({ passed: sum.passed + r.passed, failed: sum.failed + r.failed, skipped: sum.skipped + r.skipped }),
  { passed: 0, failed: 0, skipped: 0 },
)
console.log('')
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`)
process.exit(total.failed > 0 ? 1 : 0)
