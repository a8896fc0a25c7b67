import { act, renderHook, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { expect, test, vi } from 'vitest'
import { ApiError, createApiClient } from '../session/api-client.ts'
import { createSession } from '../session/session.ts'
import { SessionProvider } from '../session/session-context.tsx'
import { deferred } from '../test/deferred.ts'
import { fakeFetch } from '../test/fake-fetch.ts'
import { alice, makeBuble } from '../test/fixtures.ts'
import { testDeviceOpener } from '../test/test-device.ts'
import { bubleChange } from './bubles.ts'
import { DataProvider, DeviceOpenerContext } from './data-context.tsx'
import { type QueryOptions, useOnlineCall, useOnlineQuery } from './online.ts'

const FALLBACK = 'Failed to load the thing'

/** Renders the query hook over `load`; the key and options can change between renders. */
function renderQuery<T>(load: (signal: AbortSignal) => Promise<T>, options: QueryOptions = { failure: FALLBACK }) {
  return renderHook(({ key, opts }: { key: string | null; opts: QueryOptions }) => useOnlineQuery(key, load, opts), {
    initialProps: { key: 'one' as string | null, opts: options },
  })
}

test('a query is loading, then ready with the answer', async () => {
  const answer = deferred<string>()
  const { result } = renderQuery(() => answer.promise)
  expect(result.current.status).toBe('loading')
  expect(result.current.data).toBeUndefined()
  await act(async () => answer.resolve('the answer'))
  expect(result.current).toMatchObject({ status: 'ready', data: 'the answer' })
  expect(result.current.message).toBeUndefined()
})

test.each([
  ['the server message', new ApiError(400, 'VALIDATION_ERROR', 'Location is required'), 'Location is required'],
  ['the fallback when the server said nothing', new ApiError(500, 'INTERNAL_ERROR', ''), FALLBACK],
  ['the fallback for an unreadable answer', new Error('Unexpected token'), FALLBACK],
])('a failed query shows %s', async (_case, err, message) => {
  const { result } = renderQuery(() => Promise.reject(err))
  await waitFor(() => expect(result.current.status).toBe('failed'))
  expect(result.current.message).toBe(message)
})

test('a failure function chooses the text; null shows nothing and leaves the query loading', async () => {
  const { result, rerender } = renderQuery(() => Promise.reject(new ApiError(404, 'NOT_FOUND', 'No such thing')), {
    failure: (err) => (err instanceof ApiError && err.status === 404 ? 'Gone' : null),
  })
  await waitFor(() => expect(result.current).toMatchObject({ status: 'failed', message: 'Gone' }))
  rerender({ key: 'two', opts: { failure: () => null } })
  await act(async () => {})
  expect(result.current.status).toBe('loading')
})

test('going away aborts the load, and its late answer is dropped', async () => {
  const answer = deferred<string>()
  let signal: AbortSignal | undefined
  const { result, unmount } = renderQuery((given) => {
    signal = given
    return answer.promise
  })
  unmount()
  expect(signal?.aborted).toBe(true)
  await act(async () => answer.resolve('too late'))
  expect(result.current.status).toBe('loading')
})

test('a new key aborts the load before it and asks again', async () => {
  const signals: AbortSignal[] = []
  const load = vi.fn((signal: AbortSignal) => {
    signals.push(signal)
    return new Promise<string>(() => {})
  })
  const { rerender } = renderQuery(load)
  rerender({ key: 'two', opts: { failure: FALLBACK } })
  expect(load).toHaveBeenCalledTimes(2)
  expect(signals.map((signal) => signal.aborted)).toEqual([true, false])
})

test('a null key asks nothing and stays loading', async () => {
  const load = vi.fn(() => Promise.resolve('never'))
  const { result, rerender } = renderQuery(load)
  await waitFor(() => expect(result.current.status).toBe('ready'))
  rerender({ key: null, opts: { failure: FALLBACK } })
  expect(result.current.status).toBe('loading')
  expect(load).toHaveBeenCalledTimes(1)
})

test('reload asks again; the last answer stays on screen meanwhile only when the query keeps it', async () => {
  for (const keepData of [true, false]) {
    let round = 0
    const next = deferred<string>()
    const { result } = renderQuery(() => (++round === 1 ? Promise.resolve('first') : next.promise), {
      failure: FALLBACK,
      keepData,
    })
    await waitFor(() => expect(result.current.data).toBe('first'))
    act(() => result.current.reload())
    expect(result.current).toMatchObject({ status: 'loading', data: keepData ? 'first' : undefined })
    await act(async () => next.resolve('second'))
    expect(result.current).toMatchObject({ status: 'ready', data: 'second' })
  }
})

test('update changes a ready answer on screen', async () => {
  const { result } = renderQuery(() => Promise.resolve({ name: 'Alice' }))
  await waitFor(() => expect(result.current.status).toBe('ready'))
  act(() => result.current.update((data) => ({ ...data, name: 'Alicia' })))
  expect(result.current.data).toEqual({ name: 'Alicia' })
})

test('retryOnce tries a lost answer or a 5xx once more, a refusal never', async () => {
  const lost = vi.fn().mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValueOnce('second try')
  const first = renderQuery(lost, { failure: FALLBACK, retryOnce: true })
  await waitFor(() => expect(first.result.current.data).toBe('second try'))

  const refused = vi.fn().mockRejectedValue(new ApiError(403, 'FORBIDDEN', 'Admins only'))
  const second = renderQuery(refused, { failure: FALLBACK, retryOnce: true })
  await waitFor(() => expect(second.result.current.message).toBe('Admins only'))
  expect(refused).toHaveBeenCalledTimes(1)
})

test('offline, a query with an offline text asks nothing and shows it; no answer at all shows it too', async () => {
  const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)
  const load = vi.fn(() => Promise.reject(new TypeError('Failed to fetch')))
  const { result } = renderQuery(load, { failure: FALLBACK, offline: 'You are offline' })
  expect(result.current).toMatchObject({ status: 'failed', message: 'You are offline' })
  expect(load).not.toHaveBeenCalled()

  online.mockReturnValue(true)
  act(() => window.dispatchEvent(new Event('online')))
  expect(load).toHaveBeenCalledTimes(1)
  await waitFor(() => expect(result.current).toMatchObject({ status: 'failed', message: 'You are offline' }))
})

/** The write helper over a signed-in device (fake-indexeddb), as the app's screens have it. */
async function renderCall(offlineText: string) {
  const session = createSession({ storage: localStorage, fetch: fakeFetch({}).fetch })
  session.signIn({ access_token: 'token-1', user: alice })
  const api = createApiClient({ session, fetch: fakeFetch({}).fetch, redirectToLogin: () => {} })
  const device = testDeviceOpener()
  const wrapper = ({ children }: { children: ReactNode }) => (
    <SessionProvider services={{ session, api, redirectToLogin: () => {} }}>
      <DeviceOpenerContext value={device.open}>
        <DataProvider>{children}</DataProvider>
      </DeviceOpenerContext>
    </SessionProvider>
  )
  const view = renderHook(() => useOnlineCall(offlineText), { wrapper })
  await waitFor(() => expect(view.result.current).not.toBeNull())
  return { ...view, device: device.handle }
}

test('a write that concerns synced rows stores those its answer carries on the device', async () => {
  const { result, device } = await renderCall('You are offline')
  const renamed = makeBuble({ name: 'Renamed' })
  let outcome: unknown
  await act(async () => {
    outcome = await result.current.run(() => Promise.resolve(renamed), FALLBACK, {
      synced: (buble) => [bubleChange(buble)],
    })
  })
  expect(outcome).toEqual({ ok: true, value: renamed })
  expect(await device.current()?.db.bubles.get(renamed.id)).toMatchObject({ name: 'Renamed' })
  expect(result.current).toMatchObject({ busy: false, error: null })
})

test('a failed write shows the server message, else the fallback; no answer at all is the offline text', async () => {
  const { result } = await renderCall('You are offline')
  for (const [err, shown] of [
    [new ApiError(409, 'CONFLICT', 'Name taken'), 'Name taken'],
    [new ApiError(500, 'INTERNAL_ERROR', ''), FALLBACK],
    [new TypeError('Failed to fetch'), 'You are offline'],
  ] as const) {
    await act(async () => {
      expect(await result.current.run(() => Promise.reject(err), FALLBACK)).toEqual({ ok: false })
    })
    expect(result.current.error).toBe(shown)
  }
})

test('offline, a write is not attempted and says so', async () => {
  const { result } = await renderCall('You are offline')
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)
  const call = vi.fn(() => Promise.resolve('done'))
  await act(async () => {
    await result.current.run(call, FALLBACK)
  })
  expect(call).not.toHaveBeenCalled()
  expect(result.current.error).toBe('You are offline')
})
