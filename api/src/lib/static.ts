/** Serves the built PWA: hashed assets cached for a year, the service worker and HTML never cached, SPA fallback. */

import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import type { Hono } from 'hono'

const NO_CACHE = 'no-cache'
const IMMUTABLE = 'public, max-age=31536000, immutable'

export function servePwa<E extends object>(app: Hono<E & { Variables: object }>, distDir: string): void {
  const root = path.relative(process.cwd(), distDir) || '.'
  const indexFile = path.join(distDir, 'index.html')
  app.use('/*', async (c, next) => {
    if (c.req.path.startsWith('/api/')) return next()
    await next()
    if (c.res.status !== 200) return
    const p = c.req.path
    c.header('Cache-Control', p.startsWith('/assets/') ? IMMUTABLE : NO_CACHE)
  })
  app.use('/*', serveStatic({ root }))
  // History fallback: any other GET that is not an API call or a file answers the app shell.
  app.get('*', async (c, next) => {
    if (c.req.path.startsWith('/api/') || path.extname(c.req.path) !== '' || !existsSync(indexFile)) return next()
    c.header('Cache-Control', NO_CACHE)
    return c.html(await readFile(indexFile, 'utf8'))
  })
}
