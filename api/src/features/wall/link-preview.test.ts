import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createSafeFetch } from '../../lib/safe-fetch.ts'
import { fetchLinkPreview } from './link-preview.ts'

interface Page {
  status?: number
  type?: string
  body: string | Buffer
  location?: string
}

const html = (head: string, body = '<p>The page itself.</p>') =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`

const pages: Record<string, Page> = {
  '/og': {
    body: html(`
      <title>The plain title</title>
      <meta name="description" content="The plain description">
      <meta property="og:title" content="The Open Graph title">
      <meta property="og:description" content="The Open Graph description">
      <meta property="og:image" content="https://cdn.example.com/cover.jpg">`),
  },
  '/plain': {
    type: 'text/html; charset=utf-8',
    body: html('<title>Only a title</title><meta name="description" content="And a description">'),
  },
  '/twitter': {
    body: html(`
      <title>Not this one</title>
      <meta name="twitter:title" content="The Twitter title">
      <meta name="twitter:description" content="The Twitter description">
      <meta name="twitter:image" content="https://cdn.example.com/card.png">`),
  },
  '/secure-image': {
    body: html(`
      <meta property="og:image" content="http://cdn.example.com/plain.jpg">
      <meta property="og:image:secure_url" content="https://cdn.example.com/secure.jpg">`),
  },
  '/moved': { status: 301, body: '', location: '/articles/2024/story' },
  '/articles/2024/story': {
    body: html('<meta property="og:title" content="A story"><meta property="og:image" content="img/cover.png">'),
  },
  '/with-base': {
    body: html('<base href="/static/"><meta property="og:image" content="cover.png">'),
  },
  '/bad-image': {
    body: html(`
      <meta property="og:title" content="Bad images">
      <meta property="og:image" content="javascript:alert(1)">
      <meta name="twitter:image" content="data:image/png;base64,AAAA">`),
  },
  '/entities': {
    body: html(`
      <title>Tom &amp; Jerry &lt;3 &eacute;t&eacute; &#x1F600;</title>
      <meta name="description" content="&quot;Quoted&quot; &amp; &#39;single&#39;">`),
  },
  '/whitespace': {
    body: html(`<title>
        A   title
        over\tlines
      </title>`),
  },
  '/long': {
    body: html(`<title>${'t'.repeat(500)}</title><meta name="description" content="${'d '.repeat(1500)}">`),
  },
  '/latin1-header': {
    type: 'text/html; charset=iso-8859-1',
    body: Buffer.from(html('<title>Caf\u00e9 cr\u00e8me</title>'), 'latin1'),
  },
  '/latin1-meta': {
    type: 'text/html',
    body: Buffer.from(html('<meta charset="windows-1252"><title>Na\u00efve r\u00e9sum\u00e9</title>'), 'latin1'),
  },
  '/after-head': {
    body: html('<title>In the head</title>', '<meta property="og:description" content="In the body">'),
  },
  '/huge': {
    body: html('<title>A huge page</title>', 'x'.repeat(3 * 1024 * 1024)),
  },
  '/nothing': { body: html('<meta charset="utf-8">', '<h1>No head tags at all</h1>') },
  '/json': { type: 'application/json', body: '{"title":"not a page"}' },
  '/missing': { status: 404, body: html('<title>Not found</title>') },
}

const acceptHeaders: string[] = []
let server: Server
let base: string

beforeAll(async () => {
  server = createServer((req, res) => {
    acceptHeaders.push(req.headers.accept ?? '')
    const page = pages[req.url ?? '']
    if (!page) return void res.writeHead(404).end()
    const headers: Record<string, string> = { 'content-type': page.type ?? 'text/html' }
    if (page.location) headers.location = page.location
    res.writeHead(page.status ?? 200, headers).end(page.body)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => {
  server.closeAllConnections()
  server.close()
})

const safeFetch = createSafeFetch({ allowLoopback: true })
const preview = (path: string) => fetchLinkPreview(safeFetch, `${base}${path}`)

describe('fetchLinkPreview', () => {
  test('Open Graph tags win over the plain title and description', async () => {
    expect(await preview('/og')).toEqual({
      title: 'The Open Graph title',
      description: 'The Open Graph description',
      image: 'https://cdn.example.com/cover.jpg',
    })
  })

  test('the page is asked for as HTML', async () => {
    await preview('/og')
    expect(acceptHeaders.at(-1)).toContain('text/html')
  })

  test('a page with only a title and a meta description gives those', async () => {
    expect(await preview('/plain')).toEqual({ title: 'Only a title', description: 'And a description', image: null })
  })

  test('Twitter card tags are the fallback for Open Graph', async () => {
    expect(await preview('/twitter')).toEqual({
      title: 'The Twitter title',
      description: 'The Twitter description',
      image: 'https://cdn.example.com/card.png',
    })
  })

  test('og:image:secure_url is preferred to og:image', async () => {
    expect((await preview('/secure-image'))?.image).toBe('https://cdn.example.com/secure.jpg')
  })

  test('a relative og:image is resolved against the address that answered, after redirects', async () => {
    expect(await preview('/moved')).toEqual({
      title: 'A story',
      description: null,
      image: `${base}/articles/2024/img/cover.png`,
    })
  })

  test('a relative og:image follows the page’s <base href>', async () => {
    expect((await preview('/with-base'))?.image).toBe(`${base}/static/cover.png`)
  })

  test('an image that is not an http(s) address is dropped', async () => {
    expect(await preview('/bad-image')).toEqual({ title: 'Bad images', description: null, image: null })
  })

  test('entities are decoded', async () => {
    expect(await preview('/entities')).toEqual({
      title: 'Tom & Jerry <3 été 😀',
      description: `"Quoted" & 'single'`,
      image: null,
    })
  })

  test('whitespace is trimmed and collapsed', async () => {
    expect((await preview('/whitespace'))?.title).toBe('A title over lines')
  })

  test('the title is capped at 300 characters and the description at 1000', async () => {
    const result = await preview('/long')
    expect(result?.title?.length).toBe(300)
    expect(result?.title?.endsWith('…')).toBe(true)
    expect(result?.description?.length).toBeLessThanOrEqual(1000)
    expect(result?.description?.length).toBeGreaterThan(990)
  })

  test('a latin1 charset in the Content-Type is honoured', async () => {
    expect((await preview('/latin1-header'))?.title).toBe('Café crème')
  })

  test('a <meta charset> is honoured when the header names none', async () => {
    expect((await preview('/latin1-meta'))?.title).toBe('Naïve résumé')
  })

  test('tags after the head are not read', async () => {
    expect(await preview('/after-head')).toEqual({ title: 'In the head', description: null, image: null })
  })

  test('a page larger than the cap is previewed from its first megabyte', async () => {
    expect((await preview('/huge'))?.title).toBe('A huge page')
  })

  test('a page with no title, description or image gives null', async () => {
    expect(await preview('/nothing')).toBeNull()
  })

  test('an answer that is not HTML gives null', async () => {
    expect(await preview('/json')).toBeNull()
  })

  test('a 404 gives null even when it is an HTML page', async () => {
    expect(await preview('/missing')).toBeNull()
  })

  test('a refused address gives null instead of throwing', async () => {
    expect(await fetchLinkPreview(createSafeFetch(), `${base}/og`)).toBeNull()
    expect(await fetchLinkPreview(createSafeFetch(), 'http://169.254.169.254/latest/meta-data/')).toBeNull()
    expect(await fetchLinkPreview(createSafeFetch(), 'file:///etc/passwd')).toBeNull()
  })
})
