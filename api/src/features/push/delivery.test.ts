import { readdirSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import webpush from 'web-push'
import type { Logger } from '../../lib/log.ts'
import { createDeliverer, type DeliveryInput } from './delivery.ts'

/**
 * Pushes go out from a worker thread (delivery-worker.ts): it starts, encrypts, sends and answers
 * what the push service said; a push service that cannot be reached is worth a retry; a worker
 * that stops answers its pending pushes as retries and the next go out from the API's thread.
 */

const logger = () =>
  ({ info: vi.fn(), warn: vi.fn(), error: vi.fn(), debug: vi.fn() }) as unknown as Logger & {
    error: ReturnType<typeof vi.fn>
  }

describe('push delivery', () => {
  let server: Server
  let origin: string
  const seen: { path: string; encoding: string | undefined; authorization: string | undefined; bytes: number }[] = []
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        seen.push({
          path: req.url ?? '',
          encoding: req.headers['content-encoding'],
          authorization: req.headers.authorization,
          bytes: Buffer.concat(chunks).length,
        })
        res.statusCode = req.url === '/gone' ? 410 : 201
        if (req.url === '/busy') {
          res.statusCode = 503
          res.setHeader('retry-after', '7')
        }
        res.end()
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise((resolve) => server.close(resolve)))

  const keys = () => {
    const { publicKey } = webpush.generateVAPIDKeys()
    // A device's P-256 public key and a 16-byte auth secret, as a browser's subscription has them.
    return { p256dh: publicKey, auth: Buffer.alloc(16, 7).toString('base64url') }
  }
  const input = (path: string): DeliveryInput => ({
    endpoint: `${origin}${path}`,
    ...keys(),
    payload: JSON.stringify({ type: 'unread' }),
    authorization: 'vapid t=x, k=y',
  })

  test('from the worker: encrypted, with the VAPID header given, and the answer comes back', async () => {
    const log = logger()
    const deliverer = createDeliverer({ allowLoopback: true }, log)
    try {
      const outcomes = await Promise.all([
        deliverer.deliver(input('/a')),
        deliverer.deliver(input('/gone')),
        deliverer.deliver(input('/busy')),
      ])
      expect(outcomes).toEqual([
        { status: 201, retryAfter: null },
        { status: 410, retryAfter: null },
        { status: 503, retryAfter: '7' },
      ])
      const a = seen.find((request) => request.path === '/a')
      expect(a).toMatchObject({ encoding: 'aes128gcm', authorization: 'vapid t=x, k=y' })
      expect(a!.bytes).toBeGreaterThan(86)
      // The worker started and ran them: a worker that failed would have been logged.
      expect(log.error).not.toHaveBeenCalled()
      // On Linux its thread runs at nice 10, below the API thread (every other thread here is at 0).
      if (process.platform === 'linux') expect(threadNiceValues()).toContain(10)
    } finally {
      await deliverer.close()
    }
  })

  test('an unreachable push service is worth a retry; a loopback endpoint without leave is refused', async () => {
    const closed = `http://127.0.0.1:${await freePort()}/x`
    const log = logger()
    const deliverer = createDeliverer({ allowLoopback: true }, log)
    const strict = createDeliverer({ allowLoopback: false }, log)
    try {
      expect(await deliverer.deliver({ ...input('/x'), endpoint: closed })).toMatchObject({ failed: 'retry' })
      expect(await strict.deliver(input('/a'))).toMatchObject({ failed: 'refused' })
    } finally {
      await deliverer.close()
      await strict.close()
    }
  })

  test('after the worker stops, pushes go out from this thread', async () => {
    const log = logger()
    const deliverer = createDeliverer({ allowLoopback: true }, log)
    expect(await deliverer.deliver(input('/a'))).toEqual({ status: 201, retryAfter: null })
    await deliverer.close()
    expect(await deliverer.deliver(input('/a'))).toEqual({ status: 201, retryAfter: null })
  })
})

/** The nice value of every thread of this process (field 19 of /proc/self/task/<tid>/stat). */
function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
      // After "pid (comm) ", the fields from the third on; the nice value is the 19th field.
      return [Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])]
    } catch {
      return []
    }
  })
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })
}
