import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
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
