import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createHarness, type Harness } from '../testing/harness.ts'
import { servePwa } from './static.ts'

const INDEX = '<!doctype html><html><head><title>Buble</title></head><body><div id="app"></div></body></html>'
const APP_JS = 'console.log("buble app")'
const SW_JS = 'self.addEventListener("fetch", () => {})'
const MANIFEST = '{"name":"Buble","start_url":"/"}'
const SECRET = 'NOT-FOR-THE-WEB'
const YEAR_S = 365 * 24 * 60 * 60

const maxAgeOf = (cacheControl: string | null) => Number(cacheControl?.match(/max-age=(\d+)/)?.[1] ?? Number.NaN)

// Static files do not touch the database, so PGlite is enough.
describe('serving the built PWA', () => {
  let h: Harness
  let parent: string
  let dist: string
  beforeAll(async () => {
    parent = await mkdtemp(path.join(tmpdir(), 'buble-static-'))
    dist = path.join(parent, 'dist')
    await mkdir(path.join(dist, 'assets'), { recursive: true })
    await writeFile(path.join(dist, 'index.html'), INDEX)
    await writeFile(path.join(dist, 'sw.js'), SW_JS)
    await writeFile(path.join(dist, 'manifest.webmanifest'), MANIFEST)
    await writeFile(path.join(dist, 'assets', 'app-abc123.js'), APP_JS)
    // What the build writes beside each compressible file (vite-plugin-compression2).
    for (const file of ['index.html', 'sw.js', 'assets/app-abc123.js']) {
      const full = path.join(dist, file)
      const text = { 'index.html': INDEX, 'sw.js': SW_JS, 'assets/app-abc123.js': APP_JS }[file]!
      await writeFile(`${full}.br`, brotliCompressSync(text))
      await writeFile(`${full}.gz`, gzipSync(text))
    }
    // A file built without a gzip sibling: a gzip-only client gets it as it is.
    await writeFile(path.join(dist, 'assets', 'only-br-1a2b3c.css'), 'body{margin:0}')
    await writeFile(path.join(dist, 'assets', 'only-br-1a2b3c.css.br'), brotliCompressSync('body{margin:0}'))
    // Beside the served folder, never inside it.
    await writeFile(path.join(parent, 'secret.txt'), SECRET)
    h = await createHarness('pglite', { BUBLE_RATE_LIMITS: 'off' })
    // Routes must be added before the app answers its first request.
    servePwa(h.app, dist)
  })
  afterAll(async () => {
    await h?.close()
    if (parent) await rm(parent, { recursive: true, force: true })
  })

  const get = (url: string, token?: string) => h.call('GET', url, { token })
  const getEncoded = (url: string, acceptEncoding: string) =>
    h.call('GET', url, { headers: { 'accept-encoding': acceptEncoding } })
  const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer())

  test('a hashed asset is cached for a year and marked immutable', async () => {
    const res = await get('/assets/app-abc123.js')
    expect(res.status).toBe(200)
    expect(await res.text()).toBe(APP_JS)
    expect(res.headers.get('content-type')).toMatch(/javascript/)
    const cacheControl = res.headers.get('cache-control')
    expect(cacheControl).toContain('immutable')
    expect(maxAgeOf(cacheControl)).toBeGreaterThanOrEqual(YEAR_S)
  })

  test.each([
    ['/sw.js', SW_JS],
    ['/index.html', INDEX],
    ['/manifest.webmanifest', MANIFEST],
    ['/', INDEX],
  ])('%s is served and never cached without revalidation', async (url, content) => {
    const res = await get(url)
    expect(res.status).toBe(200)
    expect(await res.text()).toBe(content)
    const cacheControl = res.headers.get('cache-control')
    expect(cacheControl).toContain('no-cache')
    expect(cacheControl).not.toContain('immutable')
  })

  test.each(['/dashboard', '/profile/x', '/bubles/book-club/wall', '/verify-email'])(
    'the history route %s answers the app shell with the security headers',
    async (url) => {
      const res = await get(url)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toMatch(/^text\/html/)
      expect(await res.text()).toBe(INDEX)
      expect(res.headers.get('cache-control')).toContain('no-cache')
      const csp = res.headers.get('content-security-policy')
      expect(csp).toContain("default-src 'self'")
      expect(csp).toContain("frame-ancestors 'none'")
      expect(csp).not.toContain('unsafe-inline')
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    },
  )

  test('the shell keeps its query string route working', async () => {
    const res = await get('/reset-password?token=abc')
    expect(res.status).toBe(200)
    expect(await res.text()).toBe(INDEX)
  })

  describe('precompressed siblings', () => {
    // Each answer is the file the build wrote: the bytes are checked by decoding them.
    const decoders = { br: brotliDecompressSync, gzip: gunzipSync } as const

    test.each([
      ['/assets/app-abc123.js', APP_JS, /javascript/],
      ['/sw.js', SW_JS, /javascript/],
      ['/index.html', INDEX, /^text\/html/],
      ['/', INDEX, /^text\/html/],
      ['/dashboard', INDEX, /^text\/html/],
    ])('%s: Brotli when accepted, gzip otherwise, identity when neither', async (url, content, type) => {
      for (const [accept, encoding] of [
        ['gzip, deflate, br, zstd', 'br'],
        ['br', 'br'],
        ['gzip, deflate', 'gzip'],
        ['identity', null],
        ['', null],
      ] as const) {
        const res = await getEncoded(url, accept)
        expect(res.status, `${url} with ${accept}`).toBe(200)
        expect(res.headers.get('content-encoding'), `${url} with ${accept}`).toBe(encoding)
        expect(res.headers.get('content-type')).toMatch(type)
        expect(res.headers.get('vary')).toMatch(/accept-encoding/i)
        const body = await bytes(res)
        expect(Number(res.headers.get('content-length'))).toBe(body.length)
        expect((encoding ? decoders[encoding](body) : body).toString()).toBe(content)
      }
    })

    test('the cache headers stay those of the file, whichever encoding is sent', async () => {
      for (const accept of ['br', 'gzip', '']) {
        expect((await getEncoded('/assets/app-abc123.js', accept)).headers.get('cache-control')).toContain('immutable')
        for (const url of ['/', '/sw.js', '/dashboard']) {
          const cacheControl = (await getEncoded(url, accept)).headers.get('cache-control')
          expect(cacheControl, `${url} with ${accept}`).toContain('no-cache')
          expect(cacheControl).not.toContain('immutable')
        }
      }
    })

    test('a weighted or refused encoding is not taken', async () => {
      expect((await getEncoded('/assets/app-abc123.js', 'br;q=0, gzip')).headers.get('content-encoding')).toBe('gzip')
      expect((await getEncoded('/assets/app-abc123.js', 'gzip;q=0')).headers.get('content-encoding')).toBeNull()
    })

    test('a file without the accepted sibling is sent as it is', async () => {
      const gzipOnly = await getEncoded('/assets/only-br-1a2b3c.css', 'gzip')
      expect(gzipOnly.headers.get('content-encoding')).toBeNull()
      expect(await gzipOnly.text()).toBe('body{margin:0}')
      expect(gzipOnly.headers.get('content-type')).toMatch(/^text\/css/)
      const brotli = await getEncoded('/assets/only-br-1a2b3c.css', 'br, gzip')
      expect(brotli.headers.get('content-encoding')).toBe('br')
      expect(brotliDecompressSync(await bytes(brotli)).toString()).toBe('body{margin:0}')
    })

    test('a file that is not compressible is never looked up with a sibling', async () => {
      await writeFile(path.join(dist, 'icon.png'), 'PNG')
      await writeFile(path.join(dist, 'icon.png.br'), 'not-this')
      const res = await getEncoded('/icon.png', 'br')
      expect(res.headers.get('content-encoding')).toBeNull()
      expect(await res.text()).toBe('PNG')
    })
  })

  test('an extensionless path under /assets/ is the shell, never cached for a year', async () => {
    const res = await get('/assets/nope')
    expect(res.status).toBe(200)
    expect(await res.text()).toBe(INDEX)
    expect(res.headers.get('cache-control')).toContain('no-cache')
    expect(res.headers.get('cache-control')).not.toContain('immutable')
  })

  test('a missing asset is a 404, not the app shell', async () => {
    for (const url of ['/assets/nope.js', '/assets/app-000000.css', '/favicon.ico']) {
      const res = await get(url)
      expect(res.status).toBe(404)
      expect(await res.text()).not.toContain('<div id="app">')
      expect(res.headers.get('cache-control') ?? '').not.toContain('immutable')
    }
  })

  test('API paths stay JSON: unknown ones are 401 or 404 JSON, never the shell', async () => {
    const { token } = await h.register()
    const anonymous = await get('/api/unknown')
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get('content-type')).toMatch(/^application\/json/)
    expect((await anonymous.json()).code).toBe('UNAUTHORIZED')
    const signedIn = await get('/api/unknown', token)
    expect(signedIn.status).toBe(404)
    expect(signedIn.headers.get('content-type')).toMatch(/^application\/json/)
    expect((await signedIn.json()).code).toBe('NOT_FOUND')
    const health = await get('/api/health')
    expect(health.status).toBe(200)
    expect((await health.json()).status).toBe('ok')
    expect(health.headers.get('cache-control') ?? '').not.toContain('immutable')
  })

  test('files beside the served folder are never reachable', async () => {
    for (const url of [
      '/../secret.txt',
      '/..%2fsecret.txt',
      '/..%2Fsecret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/%2e%2e/secret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/..\\secret.txt',
    ]) {
      const res = await get(url)
      expect(await res.text(), url).not.toContain(SECRET)
    }
  })
})
