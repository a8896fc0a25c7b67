import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createSafeFetch, isPublicAddress, type Resolver, SafeFetchError, type SafeFetchReason } from './safe-fetch.ts'

const MiB = 1024 * 1024

/** What the local server saw, so a test can tell whether a refused fetch ever reached it. */
const seen: string[] = []
/** Settles when the connection serving the endless body closes. */
let endlessClosed: Promise<unknown> = Promise.resolve()

function route(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://local')
  seen.push(url.pathname)
  const hops = /^\/hops\/(\d+)$/.exec(url.pathname)
  if (hops) {
    const left = Number(hops[1])
    if (left === 0) res.writeHead(200, { 'content-type': 'text/plain' }).end('arrived')
    else res.writeHead(302, { location: `/hops/${left - 1}` }).end()
  } else if (url.pathname === '/page') {
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hello</p>')
  } else if (url.pathname === '/to') {
    res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: url.searchParams.get('location') ?? '/' })
    res.end()
  } else if (url.pathname === '/echo') {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => {
      body += chunk
    })
    req.on('end', () => {
      const { headers, method } = req
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method, headers, body }))
    })
  } else if (url.pathname === '/slow-headers') {
    setTimeout(() => res.writeHead(200).end('late'), 3000).unref()
  } else if (url.pathname === '/slow-body') {
    res.writeHead(200, { 'content-type': 'text/plain' })
    res.write('a beginning and then nothing')
  } else if (url.pathname === '/big') {
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(3 * MiB, 'x'))
  } else if (url.pathname === '/gzip') {
    // What a server answers when the client said it accepts gzip, with a header given twice.
    const accepted = req.headers['accept-encoding'] ?? ''
    res.setHeader('set-cookie', ['a=1', 'b=2'])
    if (!accepted.includes('gzip')) res.writeHead(200, { 'content-type': 'text/plain' }).end('plain')
    else res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(gzipSync('unzipped'))
  } else if (url.pathname === '/br') {
    res.writeHead(200, { 'content-encoding': 'br' }).end(brotliCompressSync('unbrotlied'))
  } else if (url.pathname === '/twice') {
    res.writeHead(200, { 'content-encoding': 'gzip, br' }).end(brotliCompressSync(gzipSync('two layers')))
  } else if (url.pathname === '/corrupt') {
    res.writeHead(200, { 'content-encoding': 'gzip' }).end('this is not gzip')
  } else if (url.pathname === '/bomb') {
    // 8 MiB of zeros in about 8 KiB.
    res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(8 * MiB)))
  } else if (url.pathname === '/endless') {
    endlessClosed = writeEndlessly(res)
  } else {
    res.writeHead(404).end()
  }
}

/** Writes 64 KiB chunks, as fast as the client reads them, until the client goes away. */
function writeEndlessly(res: ServerResponse): Promise<unknown> {
  const chunk = Buffer.alloc(64 * 1024, 'x')
  res.writeHead(200, { 'content-type': 'application/octet-stream' })
  const closed = once(res, 'close')
  void (async () => {
    while (!res.destroyed) {
      if (!res.write(chunk)) await Promise.race([once(res, 'drain'), closed])
    }
  })()
  return closed
}

let server: Server
let port: number
let base: string

beforeAll(async () => {
  server = createServer(route)
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  port = (server.address() as AddressInfo).port
  base = `http://127.0.0.1:${port}`
})

afterAll(async () => {
  server.closeAllConnections()
  server.close()
})

/** Runs a fetch expected to fail and answers its reason. */
async function reasonOf(fetching: Promise<unknown>): Promise<SafeFetchReason> {
  const err = await fetching.then(
    () => null,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(SafeFetchError)
  return (err as SafeFetchError).reason
}

/** A resolver answering from a table, recording each name it was asked. */
function fakeResolver(table: Record<string, string[] | (() => string[])>) {
  const asked: string[] = []
  const lookup: Resolver = async (hostname) => {
    asked.push(hostname)
    const entry = table[hostname]
    if (!entry) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
    const addresses = typeof entry === 'function' ? entry() : entry
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  }
  return { asked, lookup }
}

describe('isPublicAddress', () => {
  test.each([
    ['8.8.8.8', true],
    ['1.1.1.1', true],
    ['93.184.216.34', true],
    ['172.15.255.255', true],
    ['172.32.0.1', true],
    ['100.63.255.255', true],
    ['100.128.0.1', true],
    ['2606:4700::1111', true],
    ['2001:4860:4860::8888', true],
    ['::ffff:8.8.8.8', true],
    ['64:ff9b::808:808', true],
    ['2002:808:808::1', true],
    ['127.0.0.1', false],
    ['127.255.255.254', false],
    ['::1', false],
    ['10.0.0.1', false],
    ['10.255.255.255', false],
    ['172.16.0.1', false],
    ['172.31.255.255', false],
    ['192.168.1.1', false],
    ['100.64.0.1', false],
    ['100.127.255.254', false],
    ['169.254.169.254', false],
    ['fe80::1', false],
    ['febf::1', false],
    ['fc00::1', false],
    ['fd12:3456::1', false],
    ['fec0::1', false],
    ['224.0.0.1', false],
    ['239.255.255.250', false],
    ['ff02::1', false],
    ['0.0.0.0', false],
    ['0.1.2.3', false],
    ['::', false],
    ['255.255.255.255', false],
    ['240.0.0.1', false],
    ['192.0.2.1', false],
    ['198.51.100.1', false],
    ['203.0.113.1', false],
    ['198.18.0.1', false],
    ['2001:db8::1', false],
    ['100::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['::ffff:10.0.0.1', false],
    ['::ffff:169.254.169.254', false],
    ['::ffff:0.0.0.0', false],
    ['::127.0.0.1', false],
    ['::a00:1', false],
    ['64:ff9b::7f00:1', false],
    ['64:ff9b::a9fe:a9fe', false],
    ['64:ff9b:1::a00:1', false],
    ['2002:7f00:1::', false],
    ['2002:c0a8:101::', false],
    ['::1:2:3:4', false],
    ['localhost', false],
    ['127.1', false],
    ['not an address', false],
    ['', false],
  ])('%s → %s', (ip, expected) => {
    expect(isPublicAddress(ip)).toBe(expected)
  })
})

describe('without allowLoopback', () => {
  const safeFetch = createSafeFetch({ timeoutMs: 2000 })

  test.each([
    ['the IPv4 loopback', () => `${base}/page`],
    ['the IPv6 loopback', () => `http://[::1]:${port}/page`],
    ['an IPv4-mapped loopback', () => `http://[::ffff:127.0.0.1]:${port}/page`],
    ['the unspecified address', () => `http://0.0.0.0:${port}/page`],
    ['a hex-spelled loopback', () => `http://0x7f000001:${port}/page`],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ['a private address', () => 'http://10.0.0.1/'],
    ['localhost, which resolves to loopback', () => `http://localhost:${port}/page`],
  ])('%s is refused before anything is sent', async (_what, url) => {
    const before = seen.length
    expect(await reasonOf(safeFetch(url()))).toBe('address')
    expect(seen.length).toBe(before)
  })

  test.each([
    ['ftp', 'ftp://example.com/file'],
    ['file', 'file:///etc/passwd'],
    ['data', 'data:text/html,hi'],
  ])('the %s scheme is refused', async (_scheme, url) => {
    expect(await reasonOf(safeFetch(url))).toBe('scheme')
  })

  test('something that is not a URL is refused as such', async () => {
    expect(await reasonOf(safeFetch('not a url'))).toBe('url')
  })

  test('a host name is refused when any of its addresses is refused', async () => {
    const { asked, lookup } = fakeResolver({ 'mixed.test': ['93.184.216.34', '10.0.0.1'] })
    const before = seen.length
    expect(await reasonOf(createSafeFetch({ lookup })(`http://mixed.test:${port}/page`))).toBe('address')
    expect(asked).toEqual(['mixed.test'])
    expect(seen.length).toBe(before)
  })

  test('a name the resolver does not know is a network failure', async () => {
    const { lookup } = fakeResolver({})
    expect(await reasonOf(createSafeFetch({ lookup })(`http://nowhere.test:${port}/page`))).toBe('network')
  })
})

describe('the address dialled is the address checked', () => {
  test('a name resolving to loopback is refused without allowLoopback and reached with it', async () => {
    const { lookup } = fakeResolver({ 'example.test': ['127.0.0.1'] })
    expect(await reasonOf(createSafeFetch({ lookup })(`http://example.test:${port}/page`))).toBe('address')
    const response = await createSafeFetch({ lookup, allowLoopback: true })(`http://example.test:${port}/page`)
    expect(response.status).toBe(200)
    expect(response.body.toString()).toBe('<p>hello</p>')
  })

  test('a rebinding resolver (public first, loopback after) never gets the connection to loopback', async () => {
    let calls = 0
    const { lookup } = fakeResolver({ 'rebind.test': () => (++calls === 1 ? ['93.184.216.34'] : ['127.0.0.1']) })
    const before = seen.length
    const reason = await reasonOf(createSafeFetch({ lookup, timeoutMs: 300 })(`http://rebind.test:${port}/page`))
    // The one checked answer (a public address, unreachable from here) is what was dialled.
    expect(['network', 'timeout']).toContain(reason)
    expect(calls).toBe(1)
    expect(seen.length).toBe(before)
  })

  test('every hop of a redirect is resolved and checked at connect time', async () => {
    const { asked, lookup } = fakeResolver({ 'first.test': ['127.0.0.1'], 'second.test': ['10.0.0.1'] })
    const next = encodeURIComponent(`http://second.test:${port}/page`)
    const safeFetch = createSafeFetch({ lookup, allowLoopback: true })
    expect(await reasonOf(safeFetch(`http://first.test:${port}/to?location=${next}`))).toBe('address')
    expect(asked).toEqual(['first.test', 'second.test'])
  })
})

describe('with allowLoopback', () => {
  const safeFetch = createSafeFetch({ allowLoopback: true })

  test('a page is fetched with its status, headers and final address', async () => {
    const response = await safeFetch(`${base}/page`)
    expect(response).toMatchObject({ status: 200, url: `${base}/page`, truncated: false })
    expect(response.headers.get('content-type')).toBe('text/html')
    expect(response.body.toString()).toBe('<p>hello</p>')
  })

  test('the IPv6 loopback and localhost are allowed too', async () => {
    // The server listens on IPv4 only, so [::1] is allowed through the check and then refused by the OS.
    expect(await reasonOf(safeFetch(`http://[::1]:${port}/page`))).toBe('network')
    expect((await safeFetch(`http://localhost:${port}/page`)).status).toBe(200)
  })

  test('method, headers, Accept, body and the user agent are sent', async () => {
    const response = await createSafeFetch({ allowLoopback: true, userAgent: 'BubleTest/1' })(`${base}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'x-extra': 'yes' },
      body: 'payload',
      accept: 'application/json',
    })
    expect(JSON.parse(response.body.toString())).toMatchObject({
      method: 'POST',
      body: 'payload',
      headers: { accept: 'application/json', 'user-agent': 'BubleTest/1', 'x-extra': 'yes' },
    })
  })

  test('a chain of 3 redirects is followed to its end', async () => {
    const response = await safeFetch(`${base}/hops/3`)
    expect(response).toMatchObject({ status: 200, url: `${base}/hops/0` })
    expect(response.body.toString()).toBe('arrived')
  })

  test('a 4th redirect is refused', async () => {
    expect(await reasonOf(safeFetch(`${base}/hops/4`))).toBe('redirects')
  })

  test('the redirect limit can be lowered', async () => {
    expect(await reasonOf(createSafeFetch({ allowLoopback: true, maxRedirects: 1 })(`${base}/hops/2`))).toBe(
      'redirects',
    )
  })

  test.each([
    ['a private address', 'http://10.0.0.1/', 'address'],
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data/', 'address'],
    ['an IPv4-mapped private address', 'http://[::ffff:192.168.0.1]/', 'address'],
    ['an ftp address', 'ftp://example.com/', 'scheme'],
    ['a file address', 'file:///etc/passwd', 'scheme'],
  ])('a redirect to %s is refused', async (_what, location, reason) => {
    expect(await reasonOf(safeFetch(`${base}/to?location=${encodeURIComponent(location)}`))).toBe(reason)
  })

  test('a 303 turns a POST into a GET without its body', async () => {
    const response = await safeFetch(`${base}/to?status=303&location=/echo`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'payload',
    })
    const echoed = JSON.parse(response.body.toString())
    expect(echoed).toMatchObject({ method: 'GET', body: '' })
    expect(echoed.headers['content-type']).toBeUndefined()
  })

  test('a 307 keeps the method and the body', async () => {
    const response = await safeFetch(`${base}/to?status=307&location=/echo`, { method: 'POST', body: 'payload' })
    expect(JSON.parse(response.body.toString())).toMatchObject({ method: 'POST', body: 'payload' })
  })

  test('credentials are not carried to another origin', async () => {
    const location = encodeURIComponent(`http://localhost:${port}/echo`)
    const response = await safeFetch(`${base}/to?location=${location}`, {
      headers: { authorization: 'Bearer secret', 'x-extra': 'yes' },
    })
    const echoed = JSON.parse(response.body.toString())
    expect(echoed.headers.authorization).toBeUndefined()
    expect(echoed.headers['x-extra']).toBe('yes')
  })

  test('a server slow to answer is cut off by the timeout', async () => {
    expect(await reasonOf(createSafeFetch({ allowLoopback: true, timeoutMs: 200 })(`${base}/slow-headers`))).toBe(
      'timeout',
    )
  })

  test('the timeout covers the body too', async () => {
    expect(await reasonOf(createSafeFetch({ allowLoopback: true, timeoutMs: 200 })(`${base}/slow-body`))).toBe(
      'timeout',
    )
  })

  test('a 3 MiB body is cut at the 1 MiB default', async () => {
    const response = await safeFetch(`${base}/big`)
    expect(response.status).toBe(200)
    expect(response.truncated).toBe(true)
    expect(response.body.length).toBe(MiB)
  })

  test('an endless body is cut at maxBytes and its connection closed', async () => {
    const response = await createSafeFetch({ allowLoopback: true, maxBytes: 100_000 })(`${base}/endless`)
    expect(response).toMatchObject({ status: 200, truncated: true })
    expect(response.body.length).toBe(100_000)
    // Settles only if reading stopped and the stream was cancelled: the server would write forever otherwise.
    await endlessClosed
  })

  test('a compressed body is asked for and decoded as fetch decodes it; repeated headers are kept', async () => {
    const gzipped = await safeFetch(`${base}/gzip`)
    expect(gzipped.body.toString()).toBe('unzipped')
    expect(gzipped.headers.get('set-cookie')).toBe('a=1, b=2')
    expect((await safeFetch(`${base}/br`)).body.toString()).toBe('unbrotlied')
    expect((await safeFetch(`${base}/twice`)).body.toString()).toBe('two layers')
  })

  test('a body that does not decode is a network failure', async () => {
    expect(await reasonOf(safeFetch(`${base}/corrupt`))).toBe('network')
  })

  test('maxBytes counts decoded bytes: a small compressed body that unpacks to 8 MiB is cut', async () => {
    const response = await createSafeFetch({ allowLoopback: true, maxBytes: 100_000 })(`${base}/bomb`)
    expect(response).toMatchObject({ status: 200, truncated: true })
    expect(response.body.length).toBe(100_000)
  })

  test('a body of exactly maxBytes is whole', async () => {
    const response = await createSafeFetch({ allowLoopback: true, maxBytes: 12 })(`${base}/page`)
    expect(response).toMatchObject({ truncated: false })
    expect(response.body.toString()).toBe('<p>hello</p>')
  })
})

describe('trusted origins (the providers’ configured base URLs)', () => {
  test('a trusted origin on 127.0.0.1 is fetched without allowLoopback, redirects within it included', async () => {
    const safeFetch = createSafeFetch({ trustedOrigins: [`${base}/some/prefix`] })
    const response = await safeFetch(`${base}/page`)
    expect(response).toMatchObject({ status: 200, url: `${base}/page` })
    expect(response.body.toString()).toBe('<p>hello</p>')
    expect((await safeFetch(`${base}/hops/2`)).body.toString()).toBe('arrived')
  })

  test('a trusted host name that resolves to a private or loopback address is reached', async () => {
    const { asked, lookup } = fakeResolver({ 'mirror.lan': ['127.0.0.1'] })
    const response = await createSafeFetch({ lookup, trustedOrigins: [`http://mirror.lan:${port}`] })(
      `http://mirror.lan:${port}/page`,
    )
    expect(response.status).toBe(200)
    expect(asked).toEqual(['mirror.lan'])
  })

  test.each([
    ['a private address', () => 'http://10.0.0.1/'],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ['localhost (another origin, loopback)', () => `http://localhost:${port}/page`],
    ['another port of the same loopback host', () => `http://127.0.0.1:${port + 1}/page`],
  ])('a redirect from a trusted origin to %s is refused before anything is sent there', async (_what, target) => {
    const safeFetch = createSafeFetch({ trustedOrigins: [base] })
    const before = seen.length
    expect(await reasonOf(safeFetch(`${base}/to?location=${encodeURIComponent(target())}`))).toBe('address')
    // Only the trusted hop itself reached the server.
    expect(seen.slice(before)).toEqual(['/to'])
  })

  test('a redirect from a trusted origin to a name resolving to a private address is refused at connect time', async () => {
    const { asked, lookup } = fakeResolver({ 'mirror.lan': ['127.0.0.1'], 'inside.lan': ['192.168.1.20'] })
    const safeFetch = createSafeFetch({ lookup, trustedOrigins: [`http://mirror.lan:${port}`] })
    const next = encodeURIComponent(`http://inside.lan:${port}/page`)
    expect(await reasonOf(safeFetch(`http://mirror.lan:${port}/to?location=${next}`))).toBe('address')
    expect(asked).toEqual(['mirror.lan', 'inside.lan'])
  })

  test('an address that is not a trusted origin is refused by the same fetch', async () => {
    const safeFetch = createSafeFetch({ trustedOrigins: [base] })
    for (const url of [`http://localhost:${port}/page`, `http://[::1]:${port}/page`, 'http://10.0.0.1/'])
      expect(await reasonOf(safeFetch(url)), url).toBe('address')
    // The origin is scheme, host and port: https on the same host and port is another one.
    expect(await reasonOf(safeFetch(`https://127.0.0.1:${port}/page`))).toBe('address')
  })

  test('the timeout, the size cap and the redirect limit hold for a trusted origin', async () => {
    const safeFetch = createSafeFetch({ trustedOrigins: [base], timeoutMs: 300, maxBytes: 1024 })
    expect(await reasonOf(safeFetch(`${base}/slow-headers`))).toBe('timeout')
    expect(await reasonOf(safeFetch(`${base}/hops/4`))).toBe('redirects')
    const big = await createSafeFetch({ trustedOrigins: [base], maxBytes: 1024 })(`${base}/big`)
    expect(big).toMatchObject({ truncated: true })
    expect(big.body.length).toBe(1024)
  })
})
