/**
 * How the weather and the events finder ask their providers: through the one guarded fetch, JSON
 * only, and every way a provider can let us down (no answer in time, an error status, an answer
 * that is not JSON) as one 502 whose message says which.
 */

import type { Config } from '../config.ts'
import { AppError } from './errors.ts'
import type { Logger } from './log.ts'
import { createSafeFetch, type SafeFetch, SafeFetchError } from './safe-fetch.ts'

/**
 * The guarded fetch of the providers (CONTRACT §6: 5 s unless tests shorten it). Their base URLs are
 * the operator's configuration, not user input (CONTRACT §7): a mirror, a proxy or a stub on the local
 * network or on 127.0.0.1 is reached, with the same timeout, size cap and redirect limit; a redirect
 * elsewhere is checked like any address.
 */
export function createProviderFetch(
  { weather, ticketmaster }: Pick<Config, 'weather' | 'ticketmaster'>,
  timeoutMs = 5000,
) {
  return createSafeFetch({ timeoutMs, trustedOrigins: [weather.baseUrl, weather.geocodingUrl, ticketmaster.baseUrl] })
}

/** GETs a provider's JSON answer; throws a 502 AppError when there is none to use. */
export type ProviderJson = (url: URL) => Promise<unknown>

export const providerFailed = (service: string) =>
  new AppError('BAD_GATEWAY', `${service} sent an answer that could not be read. Try again later.`)

export function providerJson(safeFetch: SafeFetch, log: Logger, service: string): ProviderJson {
  return async (url) => {
    let status: number
    let body: Buffer
    try {
      ;({ status, body } = await safeFetch(url.href, { accept: 'application/json' }))
    } catch (err) {
      if (!(err instanceof SafeFetchError)) throw err
      // The address carries the API key: only the host and the reason are logged.
      log.warn('provider fetch failed', { host: url.host, reason: err.reason })
      const timedOut = err.reason === 'timeout'
      throw new AppError(
        'BAD_GATEWAY',
        timedOut
          ? `${service} did not answer in time. Try again later.`
          : `${service} could not be reached. Try again later.`,
      )
    }
    if (status < 200 || status > 299) {
      log.warn('provider answered an error', { host: url.host, status })
      throw new AppError('BAD_GATEWAY', `${service} is not available right now. Try again later.`)
    }
    try {
      return JSON.parse(body.toString('utf8'))
    } catch {
      log.warn('provider answered something that is not JSON', { host: url.host })
      throw providerFailed(service)
    }
  }
}

/** A documented path and query appended to a configured base, keeping any path prefix the base has. */
export function providerUrl(base: string, path: string, query: Record<string, string>): URL {
  const url = new URL(`${base.replace(/\/+$/, '')}${path}`)
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value)
  return url
}
