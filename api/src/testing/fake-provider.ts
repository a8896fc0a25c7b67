/** A provider stand-in on 127.0.0.1: scripted answers per path, every request recorded. */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** JSON to send with 200, or a full answer: another status, headers (a redirect's Location), a raw body, or no answer at all. */
export type ProviderReply =
  | unknown
  | { status?: number; headers?: Record<string, string>; raw?: string; hang?: true; body?: unknown }

export interface ProviderRequest {
  path: string
  query: Record<string, string>
}

const isFull = (
  reply: unknown,
): reply is { status?: number; headers?: Record<string, string>; raw?: string; hang?: true; body?: unknown } =>
  typeof reply === 'object' && reply !== null && ('status' in reply || 'raw' in reply || 'hang' in reply)

export async function startFakeProvider() {
  const replies = new Map<string, (query: Record<string, string>) => ProviderReply>()
  const requests: ProviderRequest[] = []
  const hanging = new Set<ServerResponse>()
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake')
    const query = Object.fromEntries(url.searchParams)
    requests.push({ path: url.pathname, query })
    const reply = replies.get(url.pathname)?.(query)
    if (reply === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":true}')
      return
    }
    if (isFull(reply) && reply.hang) {
      hanging.add(res)
      return
    }
    const status = isFull(reply) ? (reply.status ?? 200) : 200
    const body = isFull(reply) ? (reply.raw ?? JSON.stringify(reply.body ?? {})) : JSON.stringify(reply)
    const headers = isFull(reply) ? reply.headers : undefined
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    base,
    requests,
    /** What `path` answers from now on; a function sees the request's query. */
    answer(path: string, reply: ProviderReply | ((query: Record<string, string>) => ProviderReply)) {
      replies.set(
        path,
        typeof reply === 'function' ? (reply as (q: Record<string, string>) => ProviderReply) : () => reply,
      )
    },
    requestsTo: (path: string) => requests.filter((request) => request.path === path),
    reset() {
      replies.clear()
      requests.length = 0
    },
    async close() {
      for (const res of hanging) res.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
export type FakeProvider = Awaited<ReturnType<typeof startFakeProvider>>
