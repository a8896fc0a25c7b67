/**
 * Serves an app on a real socket through @hono/node-server for the tests of one describe block (it
 * registers its own beforeAll and afterAll): what `app.request()` cannot show, such as what the
 * adapter does with Node's request and response.
 */

import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { afterAll, beforeAll } from 'vitest'

type Fetch = Parameters<typeof serve>[0]['fetch']

/** The app on 127.0.0.1; `port()` is its port once the block's tests run. */
export function onARealSocket(fetch: Fetch): { port: () => number } {
  let server: ReturnType<typeof serve> | undefined
  let port = 0
  beforeAll(async () => {
    await new Promise<void>((resolve) => {
      server = serve({ fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) => {
        port = info.port
        resolve()
      })
    })
  })
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())))
  return { port: () => port }
}
