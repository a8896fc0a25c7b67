/**
 * The runtime's floor (issue 20 §1): a bare `node:http` server answering a scenario's request with
 * the very answer Buble gave it (status, headers, body as sent, compressed where Buble compressed),
 * from memory. What Buble reaches is then read as a share of what Node and this machine's client
 * can do at all with the same bytes, a figure that does not move when the server gets faster.
 *
 * `recordAnswer` takes one answer from Buble; `floorListener` is the floor's request handler;
 * `startFloor` runs it in a process of its own (floor-server.ts), as the real server runs: in this
 * one it would share the client's thread.
 */

import { type ChildProcess, spawn } from 'node:child_process'
import { request as httpRequest, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http'
import { fileURLToPath } from 'node:url'

/** One answer as it went over the wire, minus what Node's own framing writes. */
export interface FloorAnswer {
  status: number
  /** Name, value, name, value…: Buble's header lines in their order (`rawHeaders`), framing left out. */
  headers: string[]
  body: Uint8Array
}

/** The request a scenario sends, to Buble and to the floor alike. */
export interface SentRequest {
  method: string
  path: string
  headers: Record<string, string>
  body?: string | undefined
}

/**
 * Header lines Node's http server writes for every answer by itself (`Date`, keep-alive and the
 * framing): the floor's Node writes its own, so copying them would send them twice. A chunked
 * answer stays chunked: without Content-Length the floor's Node chunks it too.
 */
const FRAMING = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding'])

/** `rawHeaders` without the lines Node writes itself. */
export function keptHeaders(rawHeaders: readonly string[]): string[] {
  const kept: string[] = []
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string
    if (!FRAMING.has(name.toLowerCase())) kept.push(name, rawHeaders[i + 1] as string)
  }
  return kept
}

/** Sends `sent` to `baseUrl` once and answers what came back, the body as sent (not decompressed). */
export function recordAnswer(baseUrl: string, sent: SentRequest): Promise<FloorAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}${sent.path}`, { method: sent.method, headers: sent.headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: keptHeaders(res.rawHeaders), body: Buffer.concat(chunks) }),
      )
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(sent.body)
  })
}

/**
 * The floor's handler: `answer()` from memory, to any request. A request with a body is read to its
 * end first, as any server taking a POST must; one without is answered at once.
 */
export function floorListener(answer: () => FloorAnswer): RequestListener {
  const send = (res: ServerResponse) => {
    const { status, headers, body } = answer()
    res.writeHead(status, headers)
    res.end(body)
  }
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      send(res)
      return
    }
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => send(res))
  }
}

/** A floor server in a process of its own, given each scenario's answer in turn. */
export interface Floor {
  baseUrl: string
  /** Its process, whose CPU time the bench reads. */
  pid: number
  /** Makes `answer` what the floor sends from now on. */
  serve(answer: FloorAnswer): Promise<void>
  stop(): Promise<void>
}

const ENTRY = fileURLToPath(new URL('./floor-server.ts', import.meta.url))

/** Messages between run.ts and floor-server.ts. */
export type FloorMessage = { port: number } | { served: true }

export async function startFloor(): Promise<Floor> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', ENTRY], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // Structured clone: the body goes over as bytes, not as JSON of every byte.
    serialization: 'advanced',
  })
  const next = () =>
    new Promise<FloorMessage>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the floor server exited with code ${code}`))
      child.once('exit', onExit)
      child.once('message', (message) => {
        child.off('exit', onExit)
        resolve(message as FloorMessage)
      })
    })
  const started = await next()
  if (!('port' in started)) throw new Error('the floor server did not say its port')
  return {
    baseUrl: `http://127.0.0.1:${started.port}`,
    pid: child.pid ?? 0,
    async serve(answer) {
      const served = next()
      child.send(answer)
      await served
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
      child.kill('SIGTERM')
      await exited
    },
  }
}
