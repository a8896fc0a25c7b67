/** Runs the real server as a child process (for tests about processes: crashes, several API nodes). */

import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { TEST_JWT_SECRET } from './harness.ts'

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))

export interface ServerProcess {
  url: string
  child: ChildProcess
  /** Resolves with the exit code (null when killed by a signal) once the process has ended. */
  exited: Promise<number | null>
  /** What the process wrote to stderr so far. */
  stderr(): string
  stop(): Promise<void>
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

/**
 * Starts `entry` (default: the real server) on a free port with rate limits off, the tests' JWT
 * secret (so tokens work across processes) and its own DATA_DIR, and waits until it answers.
 */
export async function startServerProcess({
  entry = 'api/src/server.ts',
  env = {},
  dataDir,
}: {
  entry?: string
  env?: Record<string, string>
  dataDir?: string
} = {}): Promise<ServerProcess> {
  const port = await freePort()
  const ownDir = dataDir ? null : mkdtempSync(path.join(tmpdir(), 'buble-proc-'))
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir ?? ownDir!,
      JWT_SECRET: TEST_JWT_SECRET,
      BUBLE_RATE_LIMITS: 'off',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const url = `http://127.0.0.1:${port}`
  const started = Date.now()
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited early: ${stderr}`)
    try {
      if ((await fetch(`${url}/api/health`)).ok) break
    } catch {
      // Not listening yet.
    }
    if (Date.now() - started > 60_000) {
      child.kill('SIGKILL')
      throw new Error(`server did not start within 60 s: ${stderr}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return {
    url,
    child,
    exited,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
        await exited
        clearTimeout(timer)
      }
      if (ownDir) rmSync(ownDir, { recursive: true, force: true })
    },
  }
}
