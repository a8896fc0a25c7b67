/**
 * The one guarded outbound fetch (CONTRACT §7): http(s) only, every address of every hop checked at connect
 * time (so DNS rebinding cannot swap in another one), redirects followed by hand, one timeout, a byte cap.
 * Origins the operator configured may be trusted: those skip the address check, and only those.
 */

import { promises as dns } from 'node:dns'
import { isIP, type LookupFunction } from 'node:net'
import { pipeline, type Readable } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import ipaddr from 'ipaddr.js'
import { Agent, Headers, request } from 'undici'

/** Why a fetch was refused or failed, for the caller's log. */
export type SafeFetchReason = 'url' | 'scheme' | 'address' | 'redirects' | 'timeout' | 'network'

export class SafeFetchError extends Error {
  override readonly name = 'SafeFetchError'
  constructor(
    readonly reason: SafeFetchReason,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options)
  }
}

/** All addresses of a host name, as `dns.promises.lookup(host, { all: true })` answers them. */
export type Resolver = (hostname: string) => Promise<readonly { address: string; family: number }[]>

export interface SafeFetchOptions {
  /** Also allow loopback (127.0.0.0/8, ::1), never private ranges. Only the project's own tests set it, in code. */
  allowLoopback?: boolean
  /** Covers the whole exchange: every hop and the body. */
  timeoutMs?: number
  maxBytes?: number
  maxRedirects?: number
  userAgent?: string
  /** Tests inject one; defaults to the system resolver. */
  lookup?: Resolver
  /**
   * Origins the operator configured (the providers' base URLs, CONTRACT §7), fetched without the
   * address refusal: a mirror, a proxy or a stub on the local network or on 127.0.0.1. Only for
   * configuration, never for an address a user supplies. Every URL whose origin is not one of these,
   * a redirect's target included, is checked as usual; timeout, size cap and redirect limit hold for all.
   */
  trustedOrigins?: readonly string[]
}

export interface SafeFetchInit {
  method?: string
  headers?: Record<string, string>
  body?: string | Uint8Array
  /** Sent as the Accept header. */
  accept?: string
}

export interface SafeFetchResponse {
  status: number
  /** The address that answered, after redirects. */
  url: string
  headers: Headers
  /** The first `maxBytes` bytes of the body, after any Content-Encoding is undone. */
  body: Buffer
  /** True when the body went on past `maxBytes` and was cut there. */
  truncated: boolean
}

export type SafeFetch = (url: string, init?: SafeFetchInit) => Promise<SafeFetchResponse>

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization']
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']

const systemResolver: Resolver = (hostname) => dns.lookup(hostname, { all: true })

export function createSafeFetch(options: SafeFetchOptions = {}): SafeFetch {
  const {
    allowLoopback = false,
    timeoutMs = 5000,
    maxBytes = 1024 * 1024,
    maxRedirects = 3,
    userAgent = 'Buble/0.1',
    lookup = systemResolver,
  } = options
  const trusted = new Set((options.trustedOrigins ?? []).map((origin) => new URL(origin).origin))
  // Host names are resolved only here, at connect time, so the address checked is the address dialled.
  // Sent with undici's `request`, not its `fetch`: the same connection pool without the WHATWG
  // Request and Response built around every call (more than twice the CPU per push, decision 54).
  const dispatcher = new Agent({ connect: { lookup: guardedLookup(lookup, allowLoopback) } })
  // A pool of its own for the trusted origins: undici pools by origin within an agent, and no
  // connection of this one is ever used for an address that was not trusted.
  const trustedDispatcher = trusted.size > 0 ? new Agent({ connect: { lookup: plainLookup(lookup) } }) : dispatcher
  const check = (raw: string, base?: string) => checkUrl(raw, base, allowLoopback, trusted)

  return async function safeFetch(url, init = {}) {
    const signal = AbortSignal.timeout(timeoutMs)
    let hop: HopRequest = {
      method: (init.method ?? 'GET').toUpperCase(),
      headers: {
        'user-agent': userAgent,
        'accept-encoding': 'gzip, deflate, br',
        ...(init.accept ? { accept: init.accept } : {}),
        ...init.headers,
      },
      body: init.body,
    }
    try {
      let current = check(url)
      for (let redirects = 0; ; redirects++) {
        const via = trusted.has(current.origin) ? trustedDispatcher : dispatcher
        const response = await request(current, { ...hop, signal, dispatcher: via })
        const status = response.statusCode
        const headers = headersOf(response.headers)
        const location = REDIRECT_STATUSES.has(status) ? headers.get('location') : null
        if (location === null) {
          const encoded = hop.method !== 'HEAD' && status !== 204 && status !== 304
          const stream = encoded ? decoded(response.body, headers.get('content-encoding')) : response.body
          const { body, truncated } = await readCapped(stream, maxBytes)
          return { status, url: current.href, headers, body, truncated }
        }
        // Not read: dropped with its connection (its destruction reports an abort, heard here).
        response.body.on('error', () => {}).destroy()
        if (redirects >= maxRedirects) throw new SafeFetchError('redirects', `More than ${maxRedirects} redirects`)
        const next = check(location, current.href)
        hop = redirected(hop, status, current, next)
        current = next
      }
    } catch (err) {
      throw toSafeFetchError(err, signal)
    }
  }
}

/**
 * Checks ahead of time what a fetch to `raw` would check at connect time (for an address stored to
 * be fetched later, a push endpoint): the scheme, then every address its host resolves to. Throws
 * a SafeFetchError naming the problem; answers the parsed URL.
 */
export async function assertFetchableUrl(
  raw: string,
  options: { allowLoopback?: boolean; lookup?: Resolver; schemes?: readonly string[] } = {},
): Promise<URL> {
  const { allowLoopback = false, lookup = systemResolver, schemes = ['http:', 'https:'] } = options
  const url = checkUrl(raw, undefined, allowLoopback, new Set())
  if (!schemes.includes(url.protocol)) throw new SafeFetchError('scheme', `${url.protocol} addresses are not allowed`)
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  if (isIP(host) === 0) {
    let addresses: readonly { address: string }[]
    try {
      addresses = await lookup(host)
    } catch (err) {
      throw new SafeFetchError('network', `${host} could not be resolved`, { cause: err })
    }
    assertAllowed(
      host,
      addresses.map((entry) => entry.address),
      allowLoopback,
    )
  }
  return url
}

/** True when `ip` is an address a server of ours may fetch from: none of loopback, private and the like. */
export function isPublicAddress(ip: string): boolean {
  return classify(ip) === 'public'
}

type Verdict = 'public' | 'loopback' | 'refused'

// Only allocated global unicast space counts; everything else in IPv6 is special or unassigned.
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3')
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16')
// These carry an IPv4 address in their last 32 bits and reach it, so they are judged as that address.
const EMBEDDING_IPV4 = [
  '::ffff:0:0/96', // IPv4-mapped
  '::ffff:0:0:0/96', // IPv4-translated (RFC 6145)
  '64:ff9b::/96', // NAT64 well-known prefix (RFC 6052)
  '::/96', // IPv4-compatible, deprecated (`::` and `::1` are judged before this)
].map((cidr) => ipaddr.parseCIDR(cidr))

function classify(ip: string): Verdict {
  // net.isIP first: ipaddr.js also accepts shorthand like `127.1` that is no address literal.
  if (isIP(ip) === 0 || !ipaddr.isValid(ip)) return 'refused'
  const address = ipaddr.parse(ip)
  return address.kind() === 'ipv4' ? classifyV4(address as ipaddr.IPv4) : classifyV6(address as ipaddr.IPv6)
}

function classifyV4(address: ipaddr.IPv4): Verdict {
  const range = address.range()
  if (range === 'unicast') return 'public'
  return range === 'loopback' ? 'loopback' : 'refused'
}

function classifyV6(address: ipaddr.IPv6): Verdict {
  const range = address.range()
  if (range === 'loopback') return 'loopback'
  if (range === 'unspecified') return 'refused'
  const bytes = address.toByteArray()
  if (EMBEDDING_IPV4.some((cidr) => address.match(cidr))) return classifyV4(new ipaddr.IPv4(bytes.slice(12, 16)))
  if (address.match(SIX_TO_FOUR)) return classifyV4(new ipaddr.IPv4(bytes.slice(2, 6)))
  return range === 'unicast' && address.match(GLOBAL_UNICAST) ? 'public' : 'refused'
}

function assertAllowed(host: string, addresses: readonly string[], allowLoopback: boolean): void {
  if (addresses.length === 0) throw new SafeFetchError('address', `${host} has no address`)
  for (const address of addresses) {
    const verdict = classify(address)
    if (verdict === 'public' || (verdict === 'loopback' && allowLoopback)) continue
    throw new SafeFetchError('address', `${host} resolves to a refused address (${address})`)
  }
}

/**
 * Parses a URL (relative to `base` for a redirect) and refuses a wrong scheme or a refused IP
 * literal; an IP literal of a trusted origin is not refused.
 */
function checkUrl(raw: string, base: string | undefined, allowLoopback: boolean, trusted: ReadonlySet<string>): URL {
  let url: URL
  try {
    url = new URL(raw, base)
  } catch {
    throw new SafeFetchError('url', 'Not a valid URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SafeFetchError('scheme', `${url.protocol} addresses are not fetched`)
  }
  if (url.username || url.password) throw new SafeFetchError('url', 'URLs with credentials are not fetched')
  // An IP literal is dialled without any lookup, so it is checked here; names are checked at connect time.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  if (isIP(host) !== 0 && !trusted.has(url.origin)) assertAllowed(host, [host], allowLoopback)
  return url
}

/** A `net` lookup that resolves every address, refuses the host if any is refused, and answers only checked ones. */
function guardedLookup(resolve: Resolver, allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family
    resolveChecked(resolve, hostname, allowLoopback, family)
      .then((addresses) => {
        const first = addresses[0]
        if (!first) throw new SafeFetchError('network', `${hostname} has no IPv${family} address`)
        if (options.all) callback(null, addresses)
        else callback(null, first.address, first.family)
      })
      .catch((err: NodeJS.ErrnoException) => callback(err, ''))
  }
}

/** A `net` lookup through the same resolver, without the address check: for trusted origins only. */
function plainLookup(resolve: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family
    resolve(hostname)
      .then((all) => {
        const wanted = (family === 4 || family === 6 ? all.filter((entry) => entry.family === family) : all).map(
          (entry) => ({ address: entry.address, family: entry.family }),
        )
        const first = wanted[0]
        if (!first) throw new SafeFetchError('network', `${hostname} has no address`)
        if (options.all) callback(null, wanted)
        else callback(null, first.address, first.family)
      })
      .catch((err: NodeJS.ErrnoException) => callback(err, ''))
  }
}

async function resolveChecked(
  resolve: Resolver,
  hostname: string,
  allowLoopback: boolean,
  family: number | undefined,
): Promise<{ address: string; family: number }[]> {
  const all = await resolve(hostname)
  const addresses = all.map((entry) => entry.address)
  // Every address is checked, not only those of the family asked for: any refused one refuses the host.
  assertAllowed(hostname, addresses, allowLoopback)
  const wanted = family === 4 || family === 6 ? all.filter((entry) => entry.family === family) : all
  return wanted.map((entry) => ({ address: entry.address, family: entry.family }))
}

interface HopRequest {
  method: string
  headers: Record<string, string>
  body: string | Uint8Array | undefined
}

/** The request for the next hop, changed the way browsers change it. */
function redirected(request: HopRequest, status: number, from: URL, to: URL): HopRequest {
  const headers = { ...request.headers }
  // Credentials were meant for the first origin only.
  if (from.origin !== to.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name]
  const becomesGet =
    status === 303 ? request.method !== 'HEAD' : (status === 301 || status === 302) && request.method === 'POST'
  if (!becomesGet) return { ...request, headers }
  for (const name of BODY_HEADERS) delete headers[name]
  return { method: 'GET', headers, body: undefined }
}

/** A response's headers as fetch gives them (undici's `request` answers a plain object). */
function headersOf(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const one of value) headers.append(name, one)
    else if (value !== undefined) headers.append(name, value)
  }
  return headers
}

const DECODERS: Readonly<Record<string, () => NodeJS.ReadWriteStream>> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
}

/**
 * The body with its Content-Encoding undone, as fetch undoes it: the codings in the reverse of the
 * order they were applied (at most two); a coding it does not know leaves the body as it came.
 */
function decoded(body: Readable, contentEncoding: string | null): Readable {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity')
    .reverse()
  if (codings.length === 0 || codings.length > 2 || !codings.every((coding) => coding in DECODERS)) return body
  const decoders = codings.map((coding) => DECODERS[coding]!())
  // A failure anywhere (the body cut, bad compressed bytes) reaches the reader through the last stream.
  return pipeline([body, ...decoders], () => {}) as unknown as Readable
}

/** Reads at most `maxBytes`; past that it stops and destroys the stream so the rest is never downloaded. */
async function readCapped(stream: Readable, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = []
  let size = 0
  // Leaving the loop early destroys the stream, and with it the connection.
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    chunks.push(chunk)
    size += chunk.byteLength
    if (size > maxBytes) return { body: Buffer.concat(chunks, size).subarray(0, maxBytes), truncated: true }
  }
  return { body: Buffer.concat(chunks, size), truncated: false }
}

function toSafeFetchError(err: unknown, signal: AbortSignal): SafeFetchError {
  // undici wraps what the connection threw (our lookup's refusal included) in `cause`, sometimes twice.
  for (let cause = err, depth = 0; cause instanceof Error && depth < 4; cause = cause.cause, depth++) {
    if (cause instanceof SafeFetchError) return cause
  }
  if (signal.aborted) return new SafeFetchError('timeout', 'The fetch timed out', { cause: err })
  const message = err instanceof Error ? err.message : String(err)
  return new SafeFetchError('network', `The fetch failed: ${message}`, { cause: err })
}
