import { type IncomingMessage, request, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createAdaptorServer } from '@hono/node-server'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type EventSink, encodeEvent, openSink, SSE_HEADERS } from './stream-sink.ts'

const POKE = encodeEvent('poke', { buble_id: 'b1', entity: 'post' })
const RESYNC = 'event: resync\ndata: {}\n\n'

/** A server whose one route opens a sink and hands it (with Node's response) to the test. */
function sinkApp() {
  const opened: ((value: { sink: EventSink; out: ServerResponse | undefined }) => void)[] = []
  const app = new Hono().get('/events', (c) => {
    c.header('x-set-before', 'yes')
    const sink = openSink(c)
    opened.shift()?.({ sink, out: (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing })
    return c.body(sink.body, 200, SSE_HEADERS)
  })
  const next = () =>
    new Promise<{ sink: EventSink; out: ServerResponse | undefined }>((resolve) => {
      opened.push(resolve)
    })
  return { app, next }
}

const count = (text: string, event: string) => text.split(event).length - 1

describe("a sink on Node's response", () => {
  const { app, next } = sinkApp()
  const server = createAdaptorServer({ fetch: app.fetch })
  let port = 0
  beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)))
  beforeAll(() => {
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const get = () =>
    new Promise<IncomingMessage>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/events', agent: false }, resolve).on('error', reject).end()
    })
  const readAll = (res: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        text += chunk
      })
      res.on('end', () => resolve(text))
    })

  test('writes straight to the socket after the head, with the headers set before it; ending it ends the answer', async () => {
    const opening = next()
    const answer = get()
    const { sink, out } = await opening
    expect(out).toBeDefined()
    expect(await sink.opened).toBe(true)
    sink.write(encodeEvent('ready', {}))
    sink.write(POKE)
    const res = await answer
    expect(res.headers['content-type']).toBe('text/event-stream')
    expect(res.headers['x-set-before']).toBe('yes')
    const body = readAll(res)
    sink.end()
    expect(await body).toBe(`event: ready\ndata: {}\n\n${new TextDecoder().decode(POKE)}`)
    expect(sink.closed).toBe(true)
  })

  test('a client that stops reading holds one buffer of pokes; the rest are dropped, and it gets one resync once it reads again', async () => {
    const opening = next()
    const answer = get()
    const { sink, out } = await opening
    await sink.opened
    const res = await answer
    res.pause()
    // Fill what the kernel and Node will hold for it.
    let written = 0
    while (!out?.writableNeedDrain && written < 2_000_000) {
      for (let i = 0; i < 1000; i++) sink.write(POKE)
      written += 1000
      await new Promise((resolve) => setImmediate(resolve))
    }
    expect(out?.writableNeedDrain).toBe(true)
    const held = out?.writableLength
    for (let i = 0; i < 10_000; i++) sink.write(POKE)
    expect(out?.writableLength).toBe(held)

    const body = readAll(res)
    res.resume()
    // Once it has caught up, its resync is written.
    while (out?.writableNeedDrain) await new Promise((resolve) => setTimeout(resolve, 10))
    sink.end()
    const text = await body
    expect(count(text, 'event: poke')).toBeLessThan(written + 10_000)
    // One resync for each time it fell behind (the kernel's buffers grow as it fills them), never two in a row.
    expect(text.endsWith(RESYNC)).toBe(true)
    expect(text.includes(RESYNC + RESYNC)).toBe(false)
  })

  test('a client that leaves closes it', async () => {
    const opening = next()
    const answer = get()
    const { sink } = await opening
    await sink.opened
    const closed = new Promise<void>((resolve) => sink.onClose(resolve))
    ;(await answer).destroy()
    await closed
    expect(sink.closed).toBe(true)
    sink.write(POKE)
  })
})

describe('a sink on the answer body (no Node response)', () => {
  test('a reader that does not read holds 16 KiB of pokes; then it gets what was held and one resync', async () => {
    const { app, next } = sinkApp()
    const opening = next()
    const res = await app.request('/events')
    const { sink, out } = await opening
    expect(out).toBeUndefined()
    expect(await sink.opened).toBe(true)
    for (let i = 0; i < 10_000; i++) sink.write(POKE)
    const reader = res.body!.getReader()
    let text = ''
    const decoder = new TextDecoder()
    // Reading lets it drain: the resync follows what was held.
    while (!text.endsWith(RESYNC)) text += decoder.decode((await reader.read()).value)
    const held = count(text, 'event: poke')
    expect(held).toBeGreaterThan(0)
    expect(held * POKE.byteLength).toBeLessThanOrEqual(16 * 1024 + POKE.byteLength)
    sink.end()
    expect((await reader.read()).done).toBe(true)
  })
})
