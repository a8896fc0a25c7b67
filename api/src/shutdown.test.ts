/**
 * Issue 18 §1's backstop, through the real server process: with a write that never comes back,
 * other requests answer (503 within seconds on PostgreSQL, whose pool then heals by itself), and
 * SIGTERM still ends the process within its grace period.
 */

import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Backend, backends, openTestDatabase, type TestDatabase } from './testing/databases.ts'
import { PASSWORD, uniqueEmail } from './testing/harness.ts'
import { type ServerProcess, startServerProcess } from './testing/server-process.ts'

const HANG = 'this write never comes back'
/** What docker, Kubernetes and systemd allow between SIGTERM and SIGKILL by default. */
const KILL_AFTER_MS = 10_000
/** Short bounds, so the test sees them act (the real ones are DB_TIMEOUTS in db/client.ts). */
const TIMEOUTS = { connectionMs: 1000, lockMs: 1000, statementMs: 5000, idleInTransactionMs: 3000 }

/** Resolves with `promise`'s value, or with `late` once `ms` have passed. */
const settleWithin = <T, L>(ms: number, promise: Promise<T>, late: L): Promise<T | L> =>
  Promise.race([promise, new Promise<L>((resolve) => setTimeout(() => resolve(late), ms).unref())])

describe.each(backends())('a write that hangs on %s', (backend: Backend) => {
  let database: TestDatabase | undefined
  let server: ServerProcess
  let token: string
  let bubleId: string
  let otherBubleId: string

  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const post = (content: string, buble = bubleId) =>
    call('POST', '/api/sync/push', {
      clientId: 'hang-device',
      mutations: [
        {
          id: crypto.randomUUID(),
          name: 'post.create',
          args: { id: crypto.randomUUID(), buble_id: buble, content },
          createdAt: new Date().toISOString(),
        },
      ],
    })

  beforeAll(async () => {
    if (backend === 'postgres') database = await openTestDatabase('postgres')
    server = await startServerProcess({
      entry: 'api/src/testing/hang-server.ts',
      env: {
        BUBLE_TEST_HANG_ON: HANG,
        BUBLE_TEST_DB_TIMEOUTS: JSON.stringify(TIMEOUTS),
        ...(database?.url ? { DATABASE_URL: database.url } : {}),
      },
    })
    const registered = await fetch(`${server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Hana Hang', email: uniqueEmail('hang'), password: PASSWORD }),
    })
    token = ((await registered.json()) as { access_token: string }).access_token
    const made = await call('POST', '/api/bubles', { name: 'Hanging' })
    bubleId = ((await made.json()) as { id: string }).id
    const other = await call('POST', '/api/bubles', { name: 'Elsewhere' })
    otherBubleId = ((await other.json()) as { id: string }).id
  }, 90_000)
  afterAll(async () => {
    await server?.stop()
    await database?.close()
  })

  if (backend === 'postgres')
    test('writes in its buble answer 503 within seconds while it holds the buble, writes elsewhere and reads go on, and the pool heals once the session is ended', async () => {
      void post(HANG).catch(() => {})
      // The hung write holds its buble: a write there waiting for it gives up after lock_timeout.
      await expect.poll(async () => (await post('waits for the lock')).status, { timeout: 10_000 }).toBe(503)
      const busy = await post('waits again')
      expect(busy.status).toBe(503)
      expect(busy.headers.get('retry-after')).toBe('2')
      expect(await busy.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' })
      expect((await call('GET', '/api/bubles')).status).toBe(200)
      // No lock is global: a write in another buble goes through at once.
      const elsewhere = await post('in another buble', otherBubleId)
      expect(elsewhere.status).toBe(200)
      expect(((await elsewhere.json()) as { results: { status: string }[] }).results[0]!.status).toBe('applied')
      // idle_in_transaction_session_timeout ends the hung session and frees its lock: writes work again.
      await expect.poll(async () => (await post('after the healing')).status, { timeout: 20_000 }).toBe(200)
    }, 60_000)

  test('SIGTERM ends the process within its grace period, before a container runtime would kill it, with the write still hanging', async () => {
    void post(HANG).catch(() => {})
    // A write is now inside its transaction and will never return (on PGlite, every query behind it waits too).
    await new Promise((resolve) => setTimeout(resolve, 500))
    server.child.kill('SIGTERM')
    // Container runtimes send SIGKILL 10 s after SIGTERM: the process must be gone before.
    const code = await settleWithin(KILL_AFTER_MS, server.exited, 'still running')
    expect(code).not.toBe('still running')
  }, 60_000)
})
