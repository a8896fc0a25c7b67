import type { IncomingMessage } from 'node:http'
import { request } from 'node:http'
import { Hono } from 'hono'
import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { onARealSocket } from '../testing/real-socket.ts'
import { errorHandler } from './errors.ts'
import { jsonBodies } from './json-body.ts'
import { createLogger } from './log.ts'
import { validate } from './validate.ts'

const LIMIT = 1024

/** Whether `@hono/node-server` made its full Request out of the light one it hands Hono. */
const requestBuilt = (raw: Request) =>
  Object.getOwnPropertySymbols(raw).some((key) => key.description === 'requestCache' && Reflect.get(raw, key))

/** An app with the limit of `/api/*` and routes that say what they got and how. */
function testApp() {
  const bodyRead = (c: { env: unknown }) =>
    (c.env as { incoming?: IncomingMessage & { rawBody?: Buffer } } | undefined)?.incoming?.rawBody instanceof Buffer
      ? 'node'
      : 'request'
  return (
    new Hono()
      .use('/api/*', jsonBodies(LIMIT))
      .post('/api/echo', validate('json', z.object({ content: z.string() })), (c) =>
        c.json({ content: c.req.valid('json').content, read: bodyRead(c) }),
      )
      .put('/api/raw', async (c) => c.json({ raw: await c.req.raw.json(), read: bodyRead(c) }))
      .post('/api/text', async (c) => c.json({ text: await c.req.text(), read: bodyRead(c) }))
      // Whether the adapter built its WHATWG Request (it keeps it under a symbol of this name) before the route.
      .on(['GET', 'OPTIONS', 'POST'], '/api/built', (c) => c.json({ built: requestBuilt(c.req.raw) }))
      .get('/api/plain', (c) => c.json({ ok: true }))
      .onError(errorHandler(createLogger('silent')))
  )
}

interface Answer {
  status: number
  body: unknown
}

describe('JSON bodies (json-body.ts)', () => {
  const app = testApp()
  const socket = onARealSocket(app.fetch)

  /** Over a real socket; `chunked` sends no Content-Length. */
  const overHttp = (
    method: string,
    path: string,
    body: Buffer | string,
    type: string | undefined = 'application/json',
    chunked = false,
  ): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const bytes = Buffer.from(body)
      const headers: Record<string, string | number> = type ? { 'content-type': type } : {}
      if (!chunked && (bytes.length > 0 || method !== 'GET')) headers['content-length'] = bytes.length
      const req = request({ host: '127.0.0.1', port: socket.port(), method, path, headers }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }),
        )
      })
      req.on('error', reject)
      if (chunked) {
        // Several writes, so the limit is met while the body is still arriving.
        for (let at = 0; at < bytes.length; at += 256) req.write(bytes.subarray(at, at + 256))
        req.end()
      } else req.end(bytes)
    })

  /** Through `app.request`: no Node request, so Hono's own reading. */
  const inMemory = async (
    method: string,
    path: string,
    body: Buffer | string,
    type = 'application/json',
  ): Promise<Answer> => {
    const res = await app.request(path, { method, headers: { 'content-type': type }, body })
    return { status: res.status, body: await res.json() }
  }

  const sameEitherWay = async (method: string, path: string, body: Buffer | string, type?: string) => {
    const real = await overHttp(method, path, body, type)
    const memory = await inMemory(method, path, body, type)
    expect({ ...real, body: { ...(real.body as object), read: undefined } }).toEqual({
      ...memory,
      body: { ...(memory.body as object), read: undefined },
    })
    return real
  }

  test('a JSON body is read from Node’s request and validated as before', async () => {
    const answer = await sameEitherWay('POST', '/api/echo', JSON.stringify({ content: 'Hello, bubble 👋' }))
    expect(answer).toEqual({ status: 200, body: { content: 'Hello, bubble 👋', read: 'node' } })
    expect((await inMemory('POST', '/api/echo', '{"content":"x"}')).body).toEqual({ content: 'x', read: 'request' })
  })

  test('decoded as Request.text() does: a BOM dropped, bad bytes replaced', async () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"content":"after a BOM"}')])
    expect((await sameEitherWay('POST', '/api/echo', bom)).body).toEqual({ content: 'after a BOM', read: 'node' })
    const bad = Buffer.concat([Buffer.from('{"content":"a'), Buffer.from([0xff]), Buffer.from('b"}')])
    expect((await sameEitherWay('POST', '/api/echo', bad)).body).toEqual({ content: 'a\ufffdb', read: 'node' })
  })

  test('malformed JSON and a failed validation answer 400 as before', async () => {
    expect(await sameEitherWay('POST', '/api/echo', '{"content": ')).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', message: 'Malformed JSON in request body' },
    })
    expect(await sameEitherWay('POST', '/api/echo', '{"content": 7}')).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', issues: [{ path: 'content' }] },
    })
  })

  test('a body over the limit is 413, whether its length is declared or it only keeps coming', async () => {
    const big = JSON.stringify({ content: 'x'.repeat(LIMIT) })
    const tooLarge = { status: 413, body: { code: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large' } }
    expect(await overHttp('POST', '/api/echo', big)).toEqual(tooLarge)
    expect(await inMemory('POST', '/api/echo', big)).toEqual(tooLarge)
    expect(await overHttp('POST', '/api/echo', big, 'application/json', true)).toEqual(tooLarge)
    // Exactly at the limit is allowed.
    const atLimit = JSON.stringify({ content: 'y'.repeat(LIMIT - 14) })
    expect(Buffer.byteLength(atLimit)).toBe(LIMIT)
    expect((await overHttp('POST', '/api/echo', atLimit, 'application/json', true)).status).toBe(200)
  })

  test('the body is still there for anything that asks Node’s request for it', async () => {
    expect(await sameEitherWay('PUT', '/api/raw', '{"kept":[1,2]}')).toEqual({
      status: 200,
      body: { raw: { kept: [1, 2] }, read: 'node' },
    })
  })

  test('another content type keeps Hono’s reading and the same limit', async () => {
    expect(await sameEitherWay('POST', '/api/text', 'plain words', 'text/plain')).toEqual({
      status: 200,
      body: { text: 'plain words', read: 'request' },
    })
    expect(await overHttp('POST', '/api/text', 'z'.repeat(LIMIT + 1), 'text/plain')).toMatchObject({
      status: 413,
      body: { code: 'PAYLOAD_TOO_LARGE' },
    })
  })

  test('a GET, HEAD or OPTIONS passes without its body looked at, so the adapter builds no Request for it', async () => {
    // Decision 49's second half: Hono's bodyLimit asked every GET for its body.
    expect(await overHttp('GET', '/api/built', '', undefined)).toEqual({ status: 200, body: { built: false } })
    expect(await overHttp('OPTIONS', '/api/built', '', undefined)).toEqual({ status: 200, body: { built: false } })
    // Not even a JSON content type or a declared body makes it read one.
    expect(await overHttp('GET', '/api/built', '{"a":1}')).toEqual({ status: 200, body: { built: false } })
    // A body nobody reads is not limited either: it is dropped with the request.
    expect(await overHttp('GET', '/api/plain', 'x'.repeat(LIMIT * 2), 'text/plain')).toEqual({
      status: 200,
      body: { ok: true },
    })
    const head = await new Promise<number>((resolve, reject) =>
      request({ host: '127.0.0.1', port: socket.port(), method: 'HEAD', path: '/api/plain' }, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
        .on('error', reject)
        .end(),
    )
    expect(head).toBe(200)
  })

  test('a POST without a JSON body still goes through the limit, which builds the Request', async () => {
    // The witness of the test above can say true: the other path still asks for the body.
    expect(await overHttp('POST', '/api/built', 'plain', 'text/plain')).toEqual({ status: 200, body: { built: true } })
  })
})
