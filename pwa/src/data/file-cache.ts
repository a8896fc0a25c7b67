/**
 * The device's copies of uploaded files: the service worker keeps each buble's files it served in
 * one cache per user and buble (the replica's bubleFilesCache), so an image seen once shows offline,
 * and a buble lost from the device, or a user signing out, takes the files with it.
 */

import { localDbName } from '@buble/sync/client/local-db'
import { bubleFilesCache } from '@buble/sync/client/replica'

const SECURE_FILES = '/api/uploads/secure/'
/** Says which buble a file belongs to (its key does not); the server ignores it. */
export const BUBLE_HEADER = 'X-Buble-Id'

/** The caches the service worker and the page share (the browser's `caches`), as far as used here. */
export interface FileCaches {
  open(name: string): Promise<Pick<Cache, 'match' | 'put'>>
  keys(): Promise<string[]>
  delete(name: string): Promise<boolean>
}

/** The headers saying which buble a file belongs to, so that the service worker may keep it (none for an avatar). */
export const fileHeadersOf = (bubleId: string | null | undefined): Record<string, string> | undefined =>
  bubleId ? { [BUBLE_HEADER]: bubleId } : undefined

/**
 * The user a Bearer token names (its `sub`, unverified): it only picks whose cache to read; every
 * request that reaches the server is checked there.
 */
export function userOfBearer(authorization: string | null): string | null {
  const token = authorization?.match(/^Bearer (.+)$/)?.[1]
  const payload = token?.split('.')[1]
  if (!payload) return null
  try {
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: unknown }
    return typeof claims.sub === 'string' && claims.sub ? claims.sub : null
  } catch {
    return null
  }
}

/**
 * The cache a request's file belongs in, or null when it is not one to keep: a whole-file GET of a
 * secure upload that names its buble, made by a signed-in user. A range (a video seeking) goes to
 * the network.
 */
export function fileCacheOf(request: Request): string | null {
  if (request.method !== 'GET' || request.headers.has('range')) return null
  const bubleId = request.headers.get(BUBLE_HEADER)
  if (!new URL(request.url).pathname.startsWith(SECURE_FILES) || !bubleId) return null
  const userId = userOfBearer(request.headers.get('authorization'))
  return userId ? bubleFilesCache(localDbName(userId), bubleId) : null
}

/** What serving a file needs from the service worker. */
export interface FileServing {
  caches: FileCaches
  fetch(request: Request): Promise<Response>
  /** Keeps the worker alive while the copy is stored, after the answer went to the page. */
  waitUntil(work: Promise<unknown>): void
}

/**
 * A file from its cache, else from the network, keeping a whole (200) answer: files never change
 * under one key (kept by its URL without any query). An error, a range (206) or a redirect is passed
 * on, never kept.
 */
export async function cacheFirst(request: Request, cacheName: string, serving: FileServing): Promise<Response> {
  const url = new URL(request.url)
  const key = `${url.origin}${url.pathname}`
  const cache = await serving.caches.open(cacheName)
  const kept = await cache.match(key)
  if (kept) return kept
  const answer = await serving.fetch(request)
  if (answer.status === 200 && !answer.redirected)
    serving.waitUntil(
      cache.put(key, answer.clone()).catch((err: unknown) => console.warn('Could not keep a file for offline', err)),
    )
  return answer
}

/** Deletes every cached file of a user (an explicit sign-out: the device keeps nothing of them). */
export async function forgetUserFiles(caches: FileCaches, userId: string): Promise<void> {
  const prefix = bubleFilesCache(localDbName(userId), '')
  for (const name of await caches.keys()) if (name.startsWith(prefix)) await caches.delete(name)
}
