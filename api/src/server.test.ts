import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createLogger } from './lib/log.ts'
import { createS3Storage } from './lib/storage-s3.ts'
import { PASSWORD } from './testing/harness.ts'
import { startTestS3 } from './testing/s3.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number }
      srv.close(() => resolve(port))
    })
  })
}

function start(env: Record<string, string>): {
  child: ChildProcess
  output: () => string
  exited: Promise<number | null>
} {
  const child = spawn(process.execPath, ['--import', 'tsx', 'api/src/server.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', BUBLE_RATE_LIMITS: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk) => (output += chunk))
  child.stderr?.on('data', (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, output: () => output, exited }
}

async function waitForHealth(base: string): Promise<unknown> {
  for (let i = 0; i < 300; i++) {
    try {
      const res = await fetch(`${base}/api/health`)
      if (res.ok) return res.json()
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('server did not come up')
}

describe('starting the server', () => {
  test.each([
    ['PORT', 'abc'],
    ['JWT_SECRET', 'too-short-secret'],
    ['DATABASE_URL', 'mysql://root@localhost/buble'],
  ])('a bad %s stops start-up with one line naming it, never its value', async (name, value) => {
    const { output, exited } = start({ [name]: value, DATA_DIR: path.join(tmpdir(), 'buble-never-created') })
    expect(await exited).toBe(1)
    const lines = output().trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(name)
    expect(lines[0]).not.toContain(value)
  })

  test('S3 half configured stops start-up with one line naming the missing variables, never a value', async () => {
    const { output, exited } = start({
      S3_ENDPOINT: 'http://127.0.0.1:3900',
      S3_BUCKET: 'buble-files',
      S3_SECRET_ACCESS_KEY: 'very-secret-key',
      DATA_DIR: path.join(tmpdir(), 'buble-never-created'),
    })
    expect(await exited).toBe(1)
    expect(output().trim()).toBe(
      'Buble cannot start: S3 storage is half configured: set S3_REGION, S3_ACCESS_KEY_ID too, or none of the S3_* variables',
    )
  })

  describe('on the embedded database', () => {
    let dataDir: string
    beforeAll(async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'buble-start-'))
    })
    afterAll(() => rm(dataDir, { recursive: true, force: true }))

    test('it serves /api/health on PGlite in DATA_DIR, keeps its generated secrets there, and a token survives a restart', async () => {
      const port = await freePort()
      const base = `http://127.0.0.1:${port}`
      const first = start({ PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'info' })
      try {
        expect(await waitForHealth(base)).toMatchObject({ status: 'ok', db: 'pglite' })
        const res = await fetch(`${base}/api/auth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Restart Tester', email: 'restart@example.com', password: PASSWORD }),
        })
        expect(res.status).toBe(201)
        const { access_token } = (await res.json()) as { access_token: string }

        // Without SMTP_URL, the verification mail lands in DATA_DIR/mail as an .eml file with both parts.
        const mails = await readdir(path.join(dataDir, 'mail'))
        expect(mails.some((f) => f.endsWith('.eml'))).toBe(true)
        const eml = await readFile(path.join(dataDir, 'mail', mails[0]!), 'utf8')
        expect(eml).toContain('text/plain')
        expect(eml).toContain('text/html')
        expect(first.output()).toContain('/verify-email?token=')

        const secrets = await stat(path.join(dataDir, 'secrets.json'))
        expect(secrets.mode & 0o077).toBe(0)

        first.child.kill('SIGTERM')
        await first.exited
        const second = start({ PORT: String(port), DATA_DIR: dataDir })
        try {
          await waitForHealth(base)
          const profile = await fetch(`${base}/api/users/profile`, {
            headers: { authorization: `Bearer ${access_token}` },
          })
          expect(profile.status).toBe(200)
          expect(((await profile.json()) as { email: string }).email).toBe('restart@example.com')
        } finally {
          second.child.kill('SIGTERM')
          await second.exited
        }
      } finally {
        first.child.kill('SIGTERM')
      }
    }, 90_000)
  })

  test('with S3_* set, uploaded files go to the bucket and none to DATA_DIR', async () => {
    const s3 = await startTestS3()
    const dataDir = await mkdtemp(path.join(tmpdir(), 'buble-start-s3-'))
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    const server = start({ PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'info', ...s3.env })
    try {
      await waitForHealth(base)
      expect(server.output()).toContain(`"files":"bucket ${s3.settings.bucket} at ${s3.settings.endpoint}"`)
      const registered = await fetch(`${base}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Bucket Tester', email: 'bucket@example.com', password: PASSWORD }),
      })
      const { access_token } = (await registered.json()) as { access_token: string }
      const auth = { authorization: `Bearer ${access_token}` }
      // A 1×1 GIF.
      const gif = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64')
      const form = new FormData()
      form.append('file', new Blob([gif], { type: 'image/gif' }), 'dot.gif')
      const uploaded = await fetch(`${base}/api/uploads/avatar`, { method: 'POST', headers: auth, body: form })
      expect(uploaded.status).toBe(200)
      const { url } = (await uploaded.json()) as { url: string }
      const key = url.split('/').pop()!
      const served = await fetch(`${base}${url}`, { headers: auth })
      expect(served.status).toBe(200)
      expect(served.headers.get('content-type')).toBe('image/webp')
      const bytes = Buffer.from(await served.arrayBuffer())
      expect(Number(served.headers.get('content-length'))).toBe(bytes.length)
      const inBucket = await createS3Storage(s3.settings, createLogger('silent')).get(key)
      expect(inBucket?.equals(bytes)).toBe(true)
      expect(await readdir(dataDir)).not.toContain('uploads')
    } finally {
      server.child.kill('SIGTERM')
      await server.exited
      await s3.close()
      await rm(dataDir, { recursive: true, force: true })
    }
  }, 90_000)
})
