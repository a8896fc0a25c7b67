#!/usr/bin/env node
// The Lighthouse check (`npm run lighthouse`, and a step of `npm test`): the real server on PGlite in a
// temporary DATA_DIR, serving the built PWA (pwa/dist: build it first), seeded through the HTTP API
// (api/src/testing/lighthouse-seed.ts), measured by @lhci/cli in the system Chromium with Lighthouse's
// default mobile emulation on /login, /dashboard and the seeded buble's page, and judged by
// `lhci assert` against lighthouserc.json. The check asserts scores and budgets, never a time of its own.
//
// Signed-in pages: the session lives in localStorage (`auth-storage`), which Lighthouse's storage reset
// would wipe. So a profile is signed in once through the login form (Playwright), then emptied of
// everything else (HTTP cache, service worker, Cache Storage, IndexedDB, cookies), and every run starts
// from its own copy of that profile with the reset off: a first visit that only knows who you are.
//
// Measured at gzip: lighthouserc.json has Chromium ask for `gzip, deflate` only, so the script budget
// (resource-summary, bytes on the wire) is issue 20's "120 KiB gzipped" exactly. Real Chromium gets
// Brotli, 15 % smaller (178 KiB br against 210 KiB gz for today's bundle): every figure here is a little
// pessimistic, never flattering.
//
// One test per URL: it passes when every `error` assertion of lighthouserc.json passes there and the run
// ended on the page asked for (a signed-in page that fell back to /login fails). Accessibility, best
// practices, CLS and /login's script budget are errors; the performance score, LCP, TBT and the signed-in
// pages' script budget are issue 20's targets not yet reached (decision 76): `warn`, printed as MISSED.
// Environment: CHROMIUM_PATH (default /usr/bin/chromium), LIGHTHOUSE_RUNS (runs per URL, default 1; the
// assertions take the median), LIGHTHOUSE_SUMMARY_FILE (where to write the per-URL results as JSON),
// LIGHTHOUSE_REPORT_DIR (keep the HTML and JSON reports there).

import { spawn, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
const runs = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS) || 1)
const lhci = path.join(root, 'node_modules/@lhci/cli/src/cli.js')
const rcFile = path.join(root, 'lighthouserc.json')
// Chromium as in the Playwright tests: no sandbox (CI runs as root), and nothing reaching out on its own.
const CHROME_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
]

/** What stops the check before it can judge a page (no browser, no build, a server that does not start). */
class Broken extends Error {}
function fail(message) {
  throw new Broken(message)
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })

async function startServer(dataDir) {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const env = { ...process.env }
  // PGlite in DATA_DIR, mail filed there (the seeder reads the verification link from it).
  delete env.DATABASE_URL
  delete env.SMTP_URL
  const child = spawn(process.execPath, ['--import', 'tsx', 'api/src/server.ts'], {
    cwd: root,
    env: {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      BUBLE_RATE_LIMITS: 'off',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk) => {
    stderr += chunk
  })
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) fail(`the server exited: ${stderr}`)
    try {
      if ((await fetch(`${url}/api/health`)).ok) break
    } catch {
      // Not listening yet.
    }
    // A fresh PGlite runs every migration first: 20–45 s on a busy 2-core machine.
    if (attempt > 720) {
      child.kill('SIGKILL')
      fail(`the server did not answer /api/health: ${stderr}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return { url, stop: () => child.kill('SIGTERM') }
}

function seed(url, dataDir) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'api/src/testing/lighthouse-seed.ts', url, dataDir], {
    cwd: root,
    encoding: 'utf8',
  })
  if (result.status !== 0) fail(`seeding: ${result.stderr || result.error?.message}`)
  return JSON.parse(result.stdout)
}

/** A profile signed in through the login form, then emptied of everything but the stored session. */
async function signedInProfile(url, dir, { email, password }) {
  const { chromium: playwright } = await import('@playwright/test')
  const context = await playwright.launchPersistentContext(dir, {
    executablePath: chromium,
    args: CHROME_FLAGS,
    headless: true,
  })
  try {
    const page = context.pages()[0] ?? (await context.newPage())
    await page.goto(`${url}/login`)
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(password)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.getByRole('heading', { name: 'Your Bubles' }).waitFor()
    // A same-origin page that runs none of the app, so nothing writes while the rest is cleared.
    await page.goto(`${url}/api/health`)
    const kept = await page.evaluate(() => {
      for (const key of Object.keys(localStorage)) if (key !== 'auth-storage') localStorage.removeItem(key)
      return Object.keys(localStorage)
    })
    if (!kept.includes('auth-storage')) throw new Error('signing in stored no auth-storage session')
    const cdp = await context.newCDPSession(page)
    await cdp.send('Storage.clearDataForOrigin', {
      origin: url,
      storageTypes: 'cookies,file_systems,indexeddb,shader_cache,websql,service_workers,cache_storage',
    })
    await cdp.send('Network.clearBrowserCache')
  } finally {
    await context.close()
  }
}

function collect(url, workDir, profileTemplate) {
  const flags = [...CHROME_FLAGS]
  const args = [lhci, 'collect', `--config=${rcFile}`, '--additive', `--url=${url}`, `--chromePath=${chromium}`]
  if (profileTemplate) {
    const profile = mkdtempSync(path.join(workDir, 'profile-'))
    // Chromium's lock files name the process that held the template; a copy must start without them.
    cpSync(profileTemplate, profile, { recursive: true, filter: (src) => !path.basename(src).startsWith('Singleton') })
    flags.push(`--user-data-dir=${profile}`)
    args.push('--settings.disableStorageReset=true')
  }
  args.push(`--settings.chromeFlags=${flags.join(' ')}`)
  const result = spawnSync(process.execPath, args, {
    cwd: workDir,
    stdio: 'inherit',
    env: { ...process.env, CHROME_PATH: chromium },
  })
  if (result.status !== 0) fail(`lhci collect on ${url} exited with ${result.status}`)
}

function lhrs(workDir) {
  const dir = path.join(workDir, '.lighthouseci')
  return readdirSync(dir)
    .filter((name) => /^lhr-.*\.json$/.test(name))
    .map((name) => JSON.parse(readFileSync(path.join(dir, name), 'utf8')))
}

const ms = (audit) => `${Math.round(audit.numericValue)} ms`

function describe(lhr) {
  const a = lhr.audits
  const scripts = a['resource-summary'].details.items.find((item) => item.resourceType === 'script')
  const score = (id) => Math.round(lhr.categories[id].score * 100)
  return (
    `perf ${score('performance')}, a11y ${score('accessibility')}, best practices ${score('best-practices')}, ` +
    `LCP ${ms(a['largest-contentful-paint'])}, TBT ${ms(a['total-blocking-time'])}, ` +
    `CLS ${a['cumulative-layout-shift'].numericValue.toFixed(3)}, ` +
    `script ${(scripts.transferSize / 1024).toFixed(1)} KiB in ${scripts.requestCount}, ` +
    // How fast this machine was during the run (Lighthouse's own benchmark; ~1000+ on an idle desktop):
    // TBT and the simulated LCP scale with it, so a busy machine reads as a slow page.
    `CPU benchmark ${Math.round(lhr.environment.benchmarkIndex)}`
  )
}

async function main() {
  if (!existsSync(chromium)) fail(`no Chromium at ${chromium}`)
  if (!existsSync(path.join(root, 'pwa/dist/index.html'))) fail('no pwa/dist/index.html: run `npm run build` first')

  const workDir = mkdtempSync(path.join(os.tmpdir(), 'buble-lighthouse-'))
  const dataDir = path.join(workDir, 'data')
  const server = await startServer(dataDir)
  const tests = []
  try {
    const seeded = seed(server.url, dataDir)
    const template = path.join(workDir, 'signed-in')
    await signedInProfile(server.url, template, seeded)

    const pages = [
      { name: '/login', url: `${server.url}/login`, profile: null },
      { name: '/dashboard', url: `${server.url}/dashboard`, profile: template },
      { name: 'buble page', url: `${server.url}/bubles/${seeded.bubleSlug}`, profile: template },
    ]
    for (const page of pages) for (let run = 0; run < runs; run++) collect(page.url, workDir, page.profile)

    const assert = spawnSync(process.execPath, [lhci, 'assert', `--config=${rcFile}`], {
      cwd: workDir,
      stdio: 'inherit',
    })
    const assertions = JSON.parse(readFileSync(path.join(workDir, '.lighthouseci/assertion-results.json'), 'utf8'))
    const reports = lhrs(workDir)

    console.log('\nLighthouse, per run:')
    for (const page of pages) {
      const own = reports.filter((lhr) => lhr.requestedUrl === page.url)
      const failures = []
      for (const lhr of own) {
        console.log(`  ${page.name.padEnd(11)} ${describe(lhr)}`)
        // A signed-in page that fell back to /login measured the wrong page.
        if (new URL(lhr.finalDisplayedUrl).pathname !== new URL(page.url).pathname)
          failures.push(`ended on ${lhr.finalDisplayedUrl}, not ${page.url}`)
        for (const warning of lhr.runWarnings) console.log(`              warning: ${warning.split('\n')[0]}`)
      }
      if (own.length !== runs) failures.push(`${own.length} report(s), ${runs} expected`)
      // Errors fail the page; warnings are issue 20's targets not reached yet (timings Lighthouse
      // simulates from this machine's trace): printed as MISSED, like the bench's wall-clock targets.
      const missed = []
      for (const result of assertions.filter((r) => r.url === page.url && !r.passed)) {
        const bound = result.operator === '>=' ? 'at least' : 'at most'
        const line = `${result.auditId}${result.auditProperty ? `:${result.auditProperty}` : ''} ${result.name}: ${result.actual}, ${bound} ${result.expected} wanted`
        if (result.level === 'warn') missed.push(line)
        else failures.push(line)
      }
      tests.push({ name: page.name, passed: failures.length === 0, failures, missed })
    }
    if (assert.status !== 0 && tests.every((test) => test.passed)) {
      tests.push({ name: 'lhci assert', passed: false, failures: [`lhci assert exited with ${assert.status}`] })
    }
    if (process.env.LIGHTHOUSE_REPORT_DIR) {
      mkdirSync(process.env.LIGHTHOUSE_REPORT_DIR, { recursive: true })
      cpSync(path.join(workDir, '.lighthouseci'), process.env.LIGHTHOUSE_REPORT_DIR, { recursive: true })
      console.log(`\nReports kept in ${process.env.LIGHTHOUSE_REPORT_DIR}`)
    }
  } finally {
    server.stop()
    // The server lets go of PGlite's files as it stops.
    await new Promise((resolve) => setTimeout(resolve, 500))
    rmSync(workDir, { recursive: true, force: true })
  }

  console.log('\nLighthouse, per page:')
  for (const test of tests) {
    console.log(`  ${test.passed ? 'PASS' : 'FAIL'} ${test.name}`)
    for (const failure of test.failures) console.log(`       ${failure}`)
    for (const target of test.missed ?? []) console.log(`       MISSED (reported, not failed) ${target}`)
  }
  if (process.env.LIGHTHOUSE_SUMMARY_FILE) writeFileSync(process.env.LIGHTHOUSE_SUMMARY_FILE, JSON.stringify({ tests }))
  process.exit(tests.every((test) => test.passed) ? 0 : 1)
}

try {
  await main()
} catch (err) {
  console.error(`LIGHTHOUSE FAILED: ${err instanceof Broken ? err.message : err?.stack}`)
  process.exit(2)
}
