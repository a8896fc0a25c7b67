#!/usr/bin/env node
// `npm run dev`: the API with reload (tsx watch, port $PORT or 8080) and the Vite dev server of the
// PWA (which proxies /api to the API). Both run in their own process groups and stop together:
// Ctrl-C stops both, and when one exits the other is stopped too.

import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** Absolute path of a package's bin script, resolved from the given workspace folder. */
function binOf(fromDir, pkg, name) {
  const require = createRequire(path.join(fromDir, 'package.json'))
  const manifestPath = require.resolve(`${pkg}/package.json`)
  const { bin } = require(manifestPath)
  return path.join(path.dirname(manifestPath), typeof bin === 'string' ? bin : bin[name])
}

const processes = [
  {
    name: 'api',
    args: [binOf(root, 'tsx', 'tsx'), 'watch', '--clear-screen=false', 'api/src/server.ts'],
    cwd: root,
  },
  {
    name: 'pwa',
    args: [binOf(path.join(root, 'pwa'), 'vite', 'vite')],
    cwd: path.join(root, 'pwa'),
  },
]

const children = []
let stopping = false
let exitCode = 0

function stopAll(signal = 'SIGTERM') {
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue
    try {
      process.kill(-child.pid, signal) // the whole group: tsx's and vite's own children too
    } catch {
      child.kill(signal)
    }
  }
}

function onChildExit(name, code, signal) {
  if (!stopping) {
    stopping = true
    exitCode = code ?? (signal ? 1 : 0)
    console.log(`[dev] ${name} exited (${signal ?? `code ${code}`}); stopping the other process.`)
    stopAll()
  }
  if (children.every((child) => child.exitCode !== null || child.signalCode !== null)) process.exit(exitCode)
}

for (const { name, args, cwd } of processes) {
  const child = spawn(process.execPath, args, {
    cwd,
    // No stdin: a process outside the terminal's foreground group would be stopped (SIGTTIN) on reading it.
    stdio: ['ignore', 'inherit', 'inherit'],
    env: process.env,
    detached: true,
  })
  child.on('exit', (code, signal) => onChildExit(name, code, signal))
  child.on('error', (err) => {
    console.error(`[dev] could not start ${name}: ${err.message}`)
    onChildExit(name, 1, null)
  })
  children.push(child)
}

const port = process.env.PORT || '8080'
console.log(`[dev] API on http://localhost:${port}/api (reloads on change); open the Vite URL printed below.`)

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    stopping = true
    stopAll(signal === 'SIGHUP' ? 'SIGTERM' : signal)
  })
}
// Last resort if this process is ended some other way while the children still run.
process.on('exit', () => stopAll('SIGKILL'))
