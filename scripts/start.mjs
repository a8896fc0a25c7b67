#!/usr/bin/env node
// `npm start`: builds the PWA when pwa/dist is missing or older than its sources, then runs the
// server (PWA + API on one port) with stdio inherited, forwarding SIGINT/SIGTERM and the exit code.
// BUBLE_SKIP_BUILD=1 skips the freshness check (e.g. a read-only image that was built ahead).

import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const distIndex = path.join(root, 'pwa/dist/index.html')

// Everything the PWA bundle is made from. Missing entries are ignored.
const SOURCES = [
  'pwa/src',
  'pwa/public',
  'pwa/index.html',
  'pwa/vite.config.ts',
  'pwa/package.json',
  'shared/src',
  'sync/src',
]

/** Newest modification time (ms) of a file or of any file below a folder; 0 when it does not exist. */
function newestMtime(target) {
  let stat
  try {
    stat = statSync(target)
  } catch {
    return 0
  }
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = 0
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue
    newest = Math.max(newest, newestMtime(path.join(target, entry.name)))
  }
  return newest
}

function buildReason() {
  if (!existsSync(distIndex)) return 'pwa/dist is missing'
  const built = statSync(distIndex).mtimeMs
  const changed = SOURCES.find((source) => newestMtime(path.join(root, source)) > built)
  return changed ? `${changed} changed since the last build` : null
}

if (process.env.BUBLE_SKIP_BUILD !== '1') {
  const reason = buildReason()
  if (reason) {
    console.log(`[start] Building the PWA (${reason})…`)
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
    const build = spawnSync(npm, ['run', 'build', '-w', '@buble/pwa'], { cwd: root, stdio: 'inherit' })
    if (build.status !== 0) {
      console.error('[start] The PWA build failed; not starting the server.')
      process.exit(build.status ?? 1)
    }
  }
}

const child = spawn(process.execPath, ['--import', 'tsx', 'api/src/server.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
})

const forward = (signal) => {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal)
}
process.on('SIGINT', forward)
process.on('SIGTERM', forward)

child.on('error', (err) => {
  console.error(`[start] Could not start the server: ${err.message}`)
  process.exit(1)
})
child.on('exit', (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal)
    process.kill(process.pid, signal)
    return
  }
  process.exit(code ?? 1)
})
