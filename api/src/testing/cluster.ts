/**
 * Several real API processes (the server entry point, each its own Node process) on one fresh
 * PostgreSQL database, behind a small round-robin HTTP proxy of the tests' own, all on 127.0.0.1.
 * With `s3`, every file goes to one bucket of a real S3 protocol server on 127.0.0.1 (s3rver), as in a
 * deployment; without it, the nodes share one DATA_DIR on disk (a shared volume).
 */

import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, request, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openTestDatabase, type TestDatabase } from './databases.ts'
import { startTestS3, type TestS3 } from './s3.ts'
import { freePort, type ServerProcess, startServerProcess } from './server-process.ts'

/** A request carrying this header goes to the node it names (0, 1, 2 …) instead of the next in turn. */
export const NODE_HEADER = 'x-cluster-node'

export interface ClusterProxy {
  url: string
  /** How many requests each node was sent, by node index. */
  readonly served: number[]
  close(): Promise<void>
}

/**
 * A round-robin reverse proxy over `targets` (read at each request, so nodes can be added after it
 * listens): bodies stream both ways, so a live event stream passes through as it is written. A node
 * that is down answers 502, as a load balancer would, and the device retries.
 */
export async function startProxy(targets: () => readonly string[]): Promise<ClusterProxy> {
  const port = await freePort()
  const served: number[] = []
  let turn = 0
  const server: Server = createServer((req, res) => {
    const nodes = targets()
    const pinned = req.headers[NODE_HEADER]
    const index = typeof pinned === 'string' ? Number(pinned) : turn++ % nodes.length
    const target = nodes[index]
    if (!target) {
      res.writeHead(502).end()
      return
    }
    served[index] = (served[index] ?? 0) + 1
    const headers = { ...req.headers }
    delete headers[NODE_HEADER]
    const upstream = request(new URL(req.url ?? '/', target), { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
      answer.on('error', () => res.destroy())
    })
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end()
      else res.destroy()
    })
    // A client that goes away (a stream closed) ends the request to the node too.
    res.on('close', () => upstream.destroy())
    req.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** How often each node runs the jobs here (a minute in production). */
export const JOB_INTERVAL_MS = 300

export interface Cluster {
  nodes: ServerProcess[]
  proxy: ClusterProxy
  database: TestDatabase
  dataDir: string
  /** The bucket every node keeps files in, when started with `s3`. */
  s3: TestS3 | null
  stop(): Promise<void>
}

/**
 * Starts `count` nodes of the real server on one fresh database and one DATA_DIR, behind the proxy
 * (which is each node's PUBLIC_URL), with the rate limits of production. `stop` kills every node
 * still running, closes the proxy and drops the database, whatever state they are in.
 */
export async function startCluster(
  count: number,
  env: Record<string, string> = {},
  options: { s3?: boolean } = {},
): Promise<Cluster> {
  const s3 = options.s3 ? await startTestS3() : null
  const database = await openTestDatabase('postgres')
  const dataDir = mkdtempSync(path.join(tmpdir(), 'buble-cluster-'))
  const nodes: ServerProcess[] = []
  const proxy = await startProxy(() => nodes.map((node) => node.url))
  const stop = async () => {
    await Promise.allSettled(nodes.map((node) => node.stop()))
    await proxy.close()
    await database.close()
    await s3?.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
  try {
    const started = await Promise.all(
      Array.from({ length: count }, () =>
        startServerProcess({
          // The real boot, with the fake push service on 127.0.0.1 reachable (testing/cluster-server.ts).
          entry: 'api/src/testing/cluster-server.ts',
          dataDir,
          env: {
            DATABASE_URL: database.url!,
            PUBLIC_URL: proxy.url,
            BUBLE_RATE_LIMITS: 'on',
            CLUSTER_JOB_INTERVAL_MS: String(JOB_INTERVAL_MS),
            ...s3?.env,
            ...env,
          },
        }),
      ),
    )
    nodes.push(...started)
  } catch (err) {
    await stop()
    throw err
  }
  return { nodes, proxy, database, dataDir, s3, stop }
}
