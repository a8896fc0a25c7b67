/**
 * A node that starts before its PostgreSQL answers (a container started beside the database, a
 * connection cut during the migrations) waits for it, then serves, instead of exiting at once.
 */

import { createConnection, createServer, type Server } from 'node:net'
import { afterAll, describe, expect, test } from 'vitest'
import { openTestDatabase, type TestDatabase } from './testing/databases.ts'
import { freePort, type ServerProcess, startServerProcess } from './testing/server-process.ts'

if (!process.env.TEST_DATABASE_URL) throw new Error('boot-wait.test.ts needs TEST_DATABASE_URL (a PostgreSQL server)')

/**
 * A TCP front on `port` for PostgreSQL's own port: it cuts the first `refusals` connections at once
 * (a database that cannot serve yet), then relays. Answers how many it has cut.
 */
function front(port: number, target: URL, refusals: number): Promise<{ server: Server; cut: () => number }> {
  let cut = 0
  const server = createServer((socket) => {
    if (cut < refusals) {
      cut += 1
      socket.destroy()
      return
    }
    const upstream = createConnection(Number(target.port || 5432), target.hostname)
    socket.pipe(upstream).pipe(socket)
    socket.on('error', () => upstream.destroy())
    upstream.on('error', () => socket.destroy())
  })
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({ server, cut: () => cut })))
}

describe('a node whose database is not there yet', () => {
  let database: TestDatabase | undefined
  let node: ServerProcess | undefined
  let up: Server | undefined
  afterAll(async () => {
    await node?.stop()
    await new Promise((resolve) => (up ? up.close(resolve) : resolve(undefined)))
    await database?.close()
  })

  test('waits for PostgreSQL to answer, then migrates and serves', async () => {
    database = await openTestDatabase('postgres')
    const real = new URL(database.url!)
    const port = await freePort()
    const behind = new URL(real)
    behind.hostname = '127.0.0.1'
    behind.port = String(port)
    // The first three connections are cut as they open, as by a database still starting.
    const gate = await front(port, real, 3)
    up = gate.server
    node = await startServerProcess({ env: { DATABASE_URL: behind.toString() } })
    expect(gate.cut()).toBe(3)
    const health = await fetch(`${node.url}/api/health`)
    expect(health.status).toBe(200)
    expect(await health.json()).toMatchObject({ status: 'ok', db: 'postgres' })
    expect(node.stderr()).not.toContain('failed to start')
  }, 60_000)
})
