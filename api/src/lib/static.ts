/**
 * Serves the built PWA: hashed assets cached for a year, the service worker and HTML never cached, SPA fallback.
 * Compression is done once, at build time (file.br and file.gz beside each file): a request picks the
 * sibling its Accept-Encoding allows (Brotli first, then gzip) and nothing is compressed per request.
 */

import { existsSync } from 'node:fs'
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
    // Only a file under /assets/ carries a content hash in its name; an extensionless path there
    // is a history route answered by the shell, which must never be pinned for a year.
    const hashed = p.startsWith('/assets/') && path.extname(p) !== ''
    c.header('Cache-Control', hashed ? IMMUTABLE : NO_CACHE)
    // serveStatic says Vary only when it sent a compressed sibling; the identity answer varies on
    // the same header, and a shared cache that kept it without Vary would hand it to every client.
    if (!/accept-encoding/i.test(c.res.headers.get('Vary') ?? '')) c.header('Vary', 'Accept-Encoding', { append: true })
  })
  // `precompressed`: br, then zstd, then gzip, whichever the request accepts and exists on disk
  // (exact tokens: `br;q=0.5` is not taken, so a client that weighs encodings gets gzip or identity).
  app.use('/*', serveStatic({ root, precompressed: true }))
  // History fallback: any other GET that is not an API call or a file answers the app shell, compressed too.
  const shell = serveStatic({ root, path: 'index.html', precompressed: true })
  app.get('*', async (c, next) => {
    if (c.req.path.startsWith('/api/') || path.extname(c.req.path) !== '' || !existsSync(indexFile)) return next()
    return shell(c, next)
  })
}
