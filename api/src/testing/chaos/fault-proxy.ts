/**
 * The chaos harness's fault proxy (issue 22 §4): a round-robin HTTP proxy over the API nodes, as
 * testing/cluster.ts's `startProxy` forwards, that injects the network's faults on request. The
 * harness arms a fault; the next sync request it fits takes it: duplicated (sent to two nodes, one
 * answer kept; or sent again after it was answered), delayed, reordered (held until the next request has gone through), answered never
 * (forwarded and committed, then the connection is dropped), or the node that serves it killed in
 * the middle (SIGKILL, through `onKill`). Bodies are buffered both ways: sync requests are small.
 */

import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http'
import { freePort } from '../server-process.ts'

export type ArmedFault =
  /** Sent twice: at once to two nodes, or (`lateMs`) answered first and sent again that much later. */
  | { kind: 'duplicate'; on: 'push' | 'pull'; lateMs?: number }
  | { kind: 'delay'; on: 'push' | 'pull'; ms: number }
  | { kind: 'reorder'; on: 'push' | 'pull'; holdMs: number }
  /** Committed, then the connection dropped: before any byte of the answer, or (`midBody`) after its status and part of its body. */
  | { kind: 'lost-answer'; on: 'push' | 'pull'; midBody?: boolean }
  | { kind: 'kill'; on: 'push' | 'pull'; afterMs: number }

export type ProxyFaultKind = 'duplicate' | 'delay' | 'reorder' | 'lost-answer' | 'kill-push' | 'kill-pull'

export interface FaultProxy {
  url: string
  /** The next request of `fault.on`'s kind takes the fault (each armed fault is used once). */
  arm(fault: ArmedFault): void
  /** Armed faults not yet used. */
  pending(): number
  /** Forgets every armed fault not yet used. */
  disarm(): void
  /** Faults actually injected, by kind. */
  readonly injected: Record<ProxyFaultKind, number>
  /** Sync requests forwarded, by path kind. */
  readonly forwarded: { push: number; pull: number; other: number }
  close(): Promise<void>
}

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

const HOP_HEADERS = ['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']

const readBody = (stream: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = []
    stream.on('data', (chunk: Buffer) => chunks.push(chunk))
    stream.on('end', () => resolve(Buffer.concat(chunks)))
    stream.on('error', reject)
  })

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** One request to one node, answered in full; rejects when the node is gone or cuts the connection. */
function forward(target: string, req: IncomingMessage, body: Buffer, onSent?: () => void): Promise<Answer> {
  const headers: Record<string, string | string[] | undefined> = { ...req.headers }
  for (const name of HOP_HEADERS) delete headers[name]
  headers['content-length'] = String(body.length)
  return new Promise<Answer>((resolve, reject) => {
    const upstream = request(new URL(req.url ?? '/', target), { method: req.method, headers }, (answer) => {
      readBody(answer).then(
        (data) => resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: data }),
        reject,
      )
    })
    upstream.on('error', reject)
    upstream.end(body, () => onSent?.())
  })
}

function send(res: ServerResponse, answer: Answer) {
  const headers = { ...answer.headers }
  for (const name of HOP_HEADERS) delete headers[name]
  res.writeHead(answer.status, { ...headers, 'content-length': String(answer.body.length) })
  res.end(answer.body)
}

/**
 * Starts the proxy over `targets` (read at each request; null for a node that is down, which the
 * round robin skips). `onKill(index)` kills node `index`; `pick` chooses which of a duplicated
 * request's answers the device gets (0 or 1), seeded by the harness.
 */
export async function startFaultProxy(options: {
  targets: () => readonly (string | null)[]
  /** Kills node `index`; false when it may not (another node is down). */
  onKill: (index: number) => boolean
  /** Whether a node may be killed now (a kill waits, armed, until then). */
  canKill: () => boolean
  pick: () => number
}): Promise<FaultProxy> {
  const port = await freePort()
  let armed: ArmedFault[] = []
  let turn = 0
  const injected: Record<ProxyFaultKind, number> = {
    duplicate: 0,
    delay: 0,
    reorder: 0,
    'lost-answer': 0,
    'kill-push': 0,
    'kill-pull': 0,
  }
  const forwarded = { push: 0, pull: 0, other: 0 }
  /** Requests held back by `reorder`, released once a later request has been answered (or after their hold). */
  let held: (() => void)[] = []

  const nextNode = (): { index: number; url: string } | null => {
    const nodes = options.targets()
    for (let tries = 0; tries < nodes.length; tries++) {
      const index = turn++ % nodes.length
      const url = nodes[index]
      if (url) return { index, url }
    }
    return null
  }

  /** A kill taken and not yet done: the next waits for it (one node down at a time). */
  let killing = false
  const take = (on: 'push' | 'pull' | null): ArmedFault | undefined => {
    if (!on) return undefined
    const at = armed.findIndex((fault) => fault.on === on && (fault.kind !== 'kill' || (!killing && options.canKill())))
    if (at < 0) return undefined
    const [fault] = armed.splice(at, 1)
    if (fault?.kind === 'kill') killing = true
    return fault
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const body = await readBody(req)
    const path = (req.url ?? '').split('?')[0]
    const on = path === '/api/sync/push' ? 'push' : path === '/api/sync/pull' ? 'pull' : null
    forwarded[on ?? 'other'] += 1
    const fault = take(on)
    // What was held for a reorder goes after this one.
    const release = held
    held = []
    let killScheduled = false
    try {
      if (fault?.kind === 'reorder') {
        // A reorder only when a later request overtakes this one; held alone, it was a delay.
        const overtaken = await new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), fault.holdMs)
          held.push(() => {
            clearTimeout(timer)
            resolve(true)
          })
        })
        injected[overtaken ? 'reorder' : 'delay'] += 1
        // Held alone: the reorder waits, armed, for a busier moment.
        if (!overtaken) armed.push(fault)
      }
      if (fault?.kind === 'delay') {
        injected.delay += 1
        await sleep(fault.ms)
      }
      const node = nextNode()
      if (!node) {
        // No node to lose an answer of: the fault waits, armed, for a request that reaches one.
        if (fault?.kind === 'lost-answer') armed.push(fault)
        res.writeHead(502).end()
        return
      }
      if (fault?.kind === 'duplicate') {
        injected.duplicate += 1
        const other = nextNode() ?? node
        if (fault.lateMs !== undefined) {
          // A retransmission the network delivers again after the device has had its answer.
          const answer = await forward(node.url, req, body).catch(() => null)
          if (answer) send(res, answer)
          else res.writeHead(502).end()
          setTimeout(() => {
            forward(other.url, req, body).catch(() => null)
          }, fault.lateMs)
          return
        }
        const answers = await Promise.allSettled([forward(node.url, req, body), forward(other.url, req, body)])
        const first = options.pick() < 0.5 ? 0 : 1
        const chosen = answers[first]!.status === 'fulfilled' ? answers[first] : answers[1 - first]
        if (chosen?.status === 'fulfilled') send(res, chosen.value)
        else res.writeHead(502).end()
        return
      }
      if (fault?.kind === 'kill') {
        // Killed once the request has reached the node: the node may be anywhere in it.
        const answer = await forward(node.url, req, body, () => {
          killScheduled = true
          setTimeout(() => {
            if (options.onKill(node.index)) injected[fault.on === 'push' ? 'kill-push' : 'kill-pull'] += 1
            killing = false
          }, fault.afterMs)
        }).catch(() => null)
        if (answer) send(res, answer)
        else res.writeHead(502).end()
        return
      }
      const answer = await forward(node.url, req, body).catch(() => null)
      if (!answer) {
        // The node went down before it answered (a kill, a restart): there was no answer to lose,
        // so the fault waits, armed, for the next request.
        if (fault?.kind === 'lost-answer') armed.push(fault)
        res.writeHead(502).end()
        return
      }
      if (fault?.kind === 'lost-answer') {
        // The node has answered: its transaction committed. The device never hears of it.
        injected['lost-answer'] += 1
        if (fault.midBody) {
          const headers = { ...answer.headers }
          for (const name of HOP_HEADERS) delete headers[name]
          res.writeHead(answer.status, { ...headers, 'content-length': String(answer.body.length) })
          res.write(answer.body.subarray(0, Math.floor(answer.body.length / 2)), () => res.socket?.destroy())
          return
        }
        res.socket?.destroy()
        return
      }
      send(res, answer)
    } finally {
      // A kill that never reached its node (none up, or the request failed first) lets the next one go.
      if (fault?.kind === 'kill' && !killScheduled) killing = false
      for (const go of release) go()
    }
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(502).end()
      else res.destroy()
    })
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${port}`,
    arm(fault) {
      armed.push(fault)
    },
    pending: () => armed.length,
    disarm() {
      armed = []
      for (const go of held) go()
      held = []
    },
    injected,
    forwarded,
    close: () =>
      new Promise<void>((resolve) => {
        for (const go of held) go()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
