import { localDbName } from '@buble/sync/client/local-db'
import { bubleFilesCache } from '@buble/sync/client/replica'
import { describe, expect, test, vi } from 'vitest'
import {
  BUBLE_HEADER,
  cacheFirst,
  type FileCaches,
  fileCacheOf,
  fileHeadersOf,
  forgetUserFiles,
  userOfBearer,
} from './file-cache.ts'

const ORIGIN = 'https://buble.example'
const U1 = '0192b3c4-0000-7000-8000-0000000000a1'
const U2 = '0192b3c4-0000-7000-8000-0000000000a2'
const B1 = '0192b3c4-0000-7000-8000-0000000000b1'
const B2 = '0192b3c4-0000-7000-8000-0000000000b2'
const FILE = '/api/uploads/secure/abc123.jpg'

/** An unsigned token naming `sub` (only the payload is read on the device). */
const tokenOf = (sub: string) => {
  const payload = btoa(JSON.stringify({ sub, tv: 1, exp: 2_000_000_000 }))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
  return `eyJhbGciOiJIUzI1NiJ9.${payload}.signature`
}

/** A request for a file, as the page makes it: of a buble (null: an avatar), by a user (null: signed out). */
const fileRequest = (
  path: string,
  buble: string | null = B1,
  user: string | null = U1,
  headers: Record<string, string> = {},
) =>
  new Request(`${ORIGIN}${path}`, {
    headers: {
      ...(user ? { Authorization: `Bearer ${tokenOf(user)}` } : {}),
      ...fileHeadersOf(buble),
      ...headers,
    },
  })

/** Cache Storage in memory: each cache a map of URL to body text and status. */
function fakeCaches(names: string[] = []) {
  const stores = new Map<string, Map<string, { body: string; status: number }>>(names.map((name) => [name, new Map()]))
  const caches: FileCaches = {
    async open(name) {
      if (!stores.has(name)) stores.set(name, new Map())
      const store = stores.get(name)!
      return {
        match: async (key: RequestInfo | URL) => {
          const kept = store.get(String(key))
          return kept ? new Response(kept.body, { status: kept.status }) : undefined
        },
        put: async (key: RequestInfo | URL, answer: Response) => {
          store.set(String(key), { body: await answer.text(), status: answer.status })
        },
      }
    },
    keys: async () => [...stores.keys()],
    delete: async (name) => stores.delete(name),
  }
  return { caches, stores }
}

function serving(caches: FileCaches, answer: () => Response) {
  const work: Promise<unknown>[] = []
  const fetch = vi.fn(async (_request: Request) => answer())
  return { fetch, work, serving: { caches, fetch, waitUntil: (p: Promise<unknown>) => work.push(p) } }
}

describe('fileHeadersOf', () => {
  test('names the buble of a file, and nothing for a file of no buble', () => {
    expect(fileHeadersOf(B1)).toEqual({ [BUBLE_HEADER]: B1 })
    expect(fileHeadersOf(null)).toBeUndefined()
    expect(fileHeadersOf(undefined)).toBeUndefined()
  })
})

describe('userOfBearer', () => {
  test('reads the user a token names; anything else names nobody', () => {
    expect(userOfBearer(`Bearer ${tokenOf(U1)}`)).toBe(U1)
    expect(userOfBearer(null)).toBeNull()
    expect(userOfBearer('Bearer not-a-token')).toBeNull()
    expect(userOfBearer('Bearer a.%%%.c')).toBeNull()
    expect(userOfBearer(`Basic ${tokenOf(U1)}`)).toBeNull()
  })
})

describe('fileCacheOf', () => {
  test('a signed-in GET of a buble’s file goes to that user’s cache of that buble', () => {
    expect(fileCacheOf(fileRequest(FILE))).toBe(bubleFilesCache(localDbName(U1), B1))
    expect(fileCacheOf(fileRequest(FILE, B2, U2))).toBe(bubleFilesCache(localDbName(U2), B2))
  })

  test.each([
    ['a file naming no buble (an avatar)', fileRequest(FILE, null)],
    ['a file asked for without a token', fileRequest(FILE, B1, null)],
    ['a range (a video seeking)', fileRequest(FILE, B1, U1, { Range: 'bytes=0-99' })],
    ['another API call', fileRequest('/api/bubles')],
    ['a write', new Request(`${ORIGIN}${FILE}`, { method: 'POST', body: 'x', headers: { ...fileHeadersOf(B1) } })],
  ])('%s is not kept', (_what, request) => {
    expect(fileCacheOf(request)).toBeNull()
  })
})

describe('cacheFirst', () => {
  const cacheName = bubleFilesCache(localDbName(U1), B1)

  test('keeps a whole answer once and serves it from then on without the network', async () => {
    const { caches, stores } = fakeCaches()
    const first = serving(caches, () => new Response('image bytes', { status: 200 }))
    const answer = await cacheFirst(fileRequest(`${FILE}?v=2`), cacheName, first.serving)
    expect(await answer.text()).toBe('image bytes')
    await Promise.all(first.work)
    // Kept without the query: the key alone names the file.
    expect([...stores.get(cacheName)!.keys()]).toEqual([`${ORIGIN}${FILE}`])

    const offline = serving(caches, () => {
      throw new TypeError('Failed to fetch')
    })
    const again = await cacheFirst(fileRequest(`${FILE}?v=2`), cacheName, offline.serving)
    expect(await again.text()).toBe('image bytes')
    expect(offline.fetch).not.toHaveBeenCalled()
  })

  test.each([
    ['a refusal (404)', 404],
    ['a server error (500)', 500],
    ['a range (206)', 206],
  ])('%s is passed on and never kept', async (_what, status) => {
    const { caches, stores } = fakeCaches()
    const failing = serving(caches, () => new Response('nope', { status }))
    const answer = await cacheFirst(fileRequest(`${FILE}?v=2`), cacheName, failing.serving)
    expect(answer.status).toBe(status)
    await Promise.all(failing.work)
    expect(stores.get(cacheName)?.size ?? 0).toBe(0)
    // The next request asks the network again.
    await cacheFirst(fileRequest(`${FILE}?v=2`), cacheName, failing.serving)
    expect(failing.fetch).toHaveBeenCalledTimes(2)
  })

  test('a network failure is the page’s failure, not a kept answer', async () => {
    const { caches, stores } = fakeCaches()
    const offline = serving(caches, () => {
      throw new TypeError('Failed to fetch')
    })
    await expect(cacheFirst(fileRequest(`${FILE}?v=2`), cacheName, offline.serving)).rejects.toThrow('Failed to fetch')
    expect(stores.get(cacheName)?.size ?? 0).toBe(0)
  })
})

describe('forgetUserFiles', () => {
  test('deletes every buble cache of the user, and nobody else’s', async () => {
    const mine = [bubleFilesCache(localDbName(U1), B1), bubleFilesCache(localDbName(U1), B2)]
    const theirs = bubleFilesCache(localDbName(U2), B1)
    const { caches, stores } = fakeCaches([...mine, theirs, 'workbox-precache-v2'])
    await forgetUserFiles(caches, U1)
    expect([...stores.keys()]).toEqual([theirs, 'workbox-precache-v2'])
  })
})
