import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { type FloorAnswer, floorListener, keptHeaders, recordAnswer, startFloor } from './floor.ts'

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))))
})

/** A server on a free port of 127.0.0.1 with `listener`; its base URL. */
async function listen(listener: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(listener)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** The raw header block an answer starts with, as bytes on the wire (Date left out). */
function rawHead(baseUrl: string, method: string, body?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${baseUrl}/x`,
      { method, headers: body ? { 'content-type': 'application/json' } : {} },
      (res) => {
        res.resume()
        res.on('end', () => {
          const lines: string[] = []
          for (let i = 0; i < res.rawHeaders.length; i += 2)
            if (res.rawHeaders[i] !== 'Date') lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`)
          resolve(`${res.statusCode}\n${lines.join('\n')}`)
        })
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

const gzipped = gzipSync(JSON.stringify({ events: Array.from({ length: 200 }, (_, i) => ({ id: i })) }))

/** Like Buble: security headers, a compressed JSON body with an ETag, or a bodiless 304. */
const original = (status: number) =>
  floorListener(() => ({
    status,
    headers: [
      'x-content-type-options',
      'nosniff',
      'etag',
      'W/"abc"',
      'vary',
      'Accept-Encoding, Authorization',
      ...(status === 304
        ? []
        : ['content-type', 'application/json', 'content-encoding', 'gzip', 'Content-Length', String(gzipped.length)]),
    ],
    body: status === 304 ? new Uint8Array() : gzipped,
  }))

describe('keptHeaders', () => {
  it('drops what Node writes itself and keeps every other line in order', () => {
    const raw = ['Content-Type', 'a', 'Date', 'd', 'Connection', 'keep-alive', 'Keep-Alive', 'timeout=5', 'ETag', 'e']
    expect(keptHeaders([...raw, 'Transfer-Encoding', 'chunked'])).toEqual(['Content-Type', 'a', 'ETag', 'e'])
  })
})

describe('the floor', () => {
  it.each([200, 304])('sends the status, header lines and body bytes it recorded (%i)', async (status) => {
    const buble = await listen(original(status))
    const answer = await recordAnswer(buble, { method: 'GET', path: '/x', headers: { 'accept-encoding': 'gzip' } })
    expect(Buffer.from(answer.body).equals(status === 304 ? Buffer.alloc(0) : gzipped)).toBe(true)
    const floor = await listen(floorListener(() => answer))
    expect(await rawHead(floor, 'GET')).toBe(await rawHead(buble, 'GET'))
    const again = await recordAnswer(floor, { method: 'GET', path: '/x', headers: {} })
    expect(again).toEqual(answer)
  })

  it('reads a request body to its end before it answers', async () => {
    const answer: FloorAnswer = { status: 201, headers: ['content-type', 'application/json'], body: Buffer.from('{}') }
    const order: string[] = []
    const listener = floorListener(() => {
      order.push('answered')
      return answer
    })
    const floor = await listen((req, res) => {
      req.on('end', () => order.push('body read'))
      listener(req, res)
    })
    const body = JSON.stringify({ content: 'x'.repeat(100_000) })
    const got = await recordAnswer(floor, {
      method: 'POST',
      path: '/x',
      headers: { 'content-type': 'application/json' },
      body,
    })
    expect(got).toEqual(answer)
    expect(order).toEqual(['body read', 'answered'])
  })

  it('keeps a chunked answer chunked', async () => {
    const buble = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.write('one,')
      res.end('two')
    })
    const answer = await recordAnswer(buble, { method: 'GET', path: '/x', headers: {} })
    const floor = await listen(floorListener(() => answer))
    expect(await rawHead(floor, 'GET')).toBe(await rawHead(buble, 'GET'))
    expect(await rawHead(floor, 'GET')).toContain('Transfer-Encoding: chunked')
  })

  it('runs in a process of its own and sends each answer it is given in turn', async () => {
    const floor = await startFloor()
    try {
      for (const text of ['first', 'second']) {
        const answer: FloorAnswer = { status: 200, headers: ['x-answer', text], body: Buffer.from(text) }
        await floor.serve(answer)
        expect(await recordAnswer(floor.baseUrl, { method: 'GET', path: '/', headers: {} })).toEqual(answer)
      }
    } finally {
      await floor.stop()
    }
  })
})
