import { request } from 'node:http'
import { Hono } from 'hono'
import { secureHeaders } from 'hono/secure-headers'
import { describe, expect, test } from 'vitest'
import { onARealSocket } from '../testing/real-socket.ts'
import { CONTENT_SECURITY_POLICY } from './api-middleware.ts'
import { AppError, errorHandler } from './errors.ts'
import { createLogger } from './log.ts'
import { securityHeaders } from './security-headers.ts'

const OPTIONS = {
  contentSecurityPolicy: CONTENT_SECURITY_POLICY,
  referrerPolicy: 'strict-origin-when-cross-origin',
  xContentTypeOptions: 'nosniff',
  crossOriginEmbedderPolicy: false,
} as const

/** Answers of every kind an API route gives: JSON, an error, a bodiless 304, its own value for one header. */
function testApp() {
  return new Hono()
    .use(securityHeaders(OPTIONS))
    .get('/api/json', (c) => c.json({ ok: true }))
    .get('/api/error', () => {
      throw new AppError('NOT_FOUND', 'Nothing here')
    })
    .get('/api/not-modified', (c) => c.body(null, 304, { etag: '"x"' }))
    .get('/api/own', (c) => c.json({ ok: true }, 200, { 'cross-origin-resource-policy': 'cross-origin' }))
    .get('/page', (c) => c.html('<p>hi</p>'))
    .onError(errorHandler(createLogger('silent')))
}

/** The headers Hono's own middleware sets, which every answer must carry. */
async function expected(): Promise<Record<string, string>> {
  const res = await new Hono()
    .use(secureHeaders(OPTIONS))
    .get('/', (c) => c.body(null, 204))
    .request('/')
  return Object.fromEntries(res.headers.entries())
}

describe('security headers (security-headers.ts)', () => {
  const app = testApp()
  const socket = onARealSocket(app.fetch)

  const overHttp = (path: string): Promise<{ status: number; headers: Record<string, unknown> }> =>
    new Promise((resolve, reject) => {
      request({ host: '127.0.0.1', port: socket.port(), path }, (res) => {
        res.resume()
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }))
      })
        .on('error', reject)
        .end()
    })

  test('every answer over a real socket carries every header, as an answer made in memory does', async () => {
    const wanted = await expected()
    expect(Object.keys(wanted).length).toBeGreaterThanOrEqual(10)
    for (const [path, status] of [
      ['/api/json', 200],
      ['/api/error', 404],
      ['/api/not-modified', 304],
      ['/page', 200],
    ] as const) {
      const real = await overHttp(path)
      const memory = await app.request(path)
      expect(real.status).toBe(status)
      expect(memory.status).toBe(status)
      for (const [name, value] of Object.entries(wanted)) {
        expect(real.headers[name], `${path} ${name} over HTTP`).toBe(value)
        expect(memory.headers.get(name), `${path} ${name} in memory`).toBe(value)
      }
    }
  })

  test('a header the answer sets itself wins, either way', async () => {
    expect((await overHttp('/api/own')).headers['cross-origin-resource-policy']).toBe('cross-origin')
    expect((await app.request('/api/own')).headers.get('cross-origin-resource-policy')).toBe('cross-origin')
    // The others are still there.
    expect((await overHttp('/api/own')).headers['x-frame-options']).toBe('SAMEORIGIN')
  })
})
