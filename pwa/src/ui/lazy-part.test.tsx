import { act, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { expect, test, vi } from 'vitest'
import { deferred } from '../test/deferred.ts'
import { lazyPart } from './lazy-part.ts'
import { PART_TEXTS } from './part-boundary.tsx'

function Counter({ label }: { label: string }) {
  const [count, setCount] = useState(0)
  return (
    <button type="button" onClick={() => setCount(count + 1)}>
      {label} {count}
    </button>
  )
}

test('a part whose code is not here yet shows its fallback, then the component with its props', async () => {
  const module = deferred<{ Counter: typeof Counter }>()
  const Part = lazyPart(() => module.promise, 'Counter', { fallback: <p>Loading the counter</p> })
  render(<Part label="Clicks" />)
  expect(screen.getByText('Loading the counter')).toBeInTheDocument()
  await act(async () => module.resolve({ Counter }))
  expect(await screen.findByRole('button', { name: 'Clicks 0' })).toBeInTheDocument()
})

test('a preloaded part renders at once, without its fallback, and loads its code once', async () => {
  const load = vi.fn(async () => ({ Counter }))
  const Part = lazyPart(load, 'Counter', { fallback: <p>Loading the counter</p> })
  await Part.preload()
  render(<Part label="Taps" />)
  expect(screen.getByRole('button', { name: 'Taps 0' })).toBeInTheDocument()
  expect(screen.queryByText('Loading the counter')).toBeNull()
  await Part.preload()
  expect(load).toHaveBeenCalledTimes(1)
})

test('a part keeps its state when the page around it renders again after the code arrived', async () => {
  const module = deferred<{ Counter: typeof Counter }>()
  const Part = lazyPart(() => module.promise, 'Counter', { fallback: null })
  function Page() {
    const [renders, setRenders] = useState(0)
    return (
      <>
        <button type="button" onClick={() => setRenders(renders + 1)}>
          Render again
        </button>
        <Part label="Kept" />
      </>
    )
  }
  render(<Page />)
  await act(async () => module.resolve({ Counter }))
  act(() => screen.getByRole('button', { name: 'Kept 0' }).click())
  act(() => screen.getByRole('button', { name: 'Render again' }).click())
  expect(screen.getByRole('button', { name: 'Kept 1' })).toBeInTheDocument()
})

test('a load that failed (offline, not cached yet) is tried again on the next preload', async () => {
  const load = vi
    .fn<() => Promise<{ Counter: typeof Counter }>>()
    .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
    .mockResolvedValueOnce({ Counter })
  const Part = lazyPart(load, 'Counter')
  await expect(Part.preload()).rejects.toThrow('Failed to fetch')
  await Part.preload()
  expect(load).toHaveBeenCalledTimes(2)
})

test('a part whose code fails to load says so in its place, and "Try again" loads it', async () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  const error = vi.spyOn(console, 'error').mockImplementation(() => {})
  const load = vi
    .fn<() => Promise<{ Counter: typeof Counter }>>()
    .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
    .mockResolvedValueOnce({ Counter })
  const Part = lazyPart(load, 'Counter', { fallback: <p>Loading the counter</p> })
  render(
    <>
      <h1>The page around it</h1>
      <Part label="Back" />
    </>,
  )
  expect(await screen.findByRole('alert')).toHaveTextContent(PART_TEXTS.failed)
  expect(screen.getByRole('heading', { name: 'The page around it' })).toBeInTheDocument()
  act(() => screen.getByRole('button', { name: PART_TEXTS.retry }).click())
  expect(await screen.findByRole('button', { name: 'Back 0' })).toBeInTheDocument()
  expect(screen.queryByRole('alert')).toBeNull()
  expect(load).toHaveBeenCalledTimes(2)
  warn.mockRestore()
  error.mockRestore()
})

test('offline, a part that fails says it will load once online', async () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  const error = vi.spyOn(console, 'error').mockImplementation(() => {})
  const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)
  const never = (): Promise<{ Counter: typeof Counter }> => Promise.reject(new TypeError('Failed to fetch'))
  const Part = lazyPart(never, 'Counter', { fallback: null })
  render(<Part label="Never" />)
  expect(await screen.findByRole('alert')).toHaveTextContent(PART_TEXTS.offline)
  onLine.mockRestore()
  warn.mockRestore()
  error.mockRestore()
})

test('a part that throws while rendering is contained, the rest of the page stays', async () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  const error = vi.spyOn(console, 'error').mockImplementation(() => {})
  function Broken(): never {
    throw new Error('bad row')
  }
  const Part = lazyPart(async () => ({ Broken }), 'Broken')
  await Part.preload()
  render(
    <>
      <p>Still here</p>
      <Part />
    </>,
  )
  expect(screen.getByRole('alert')).toHaveTextContent(PART_TEXTS.failed)
  expect(screen.getByText('Still here')).toBeInTheDocument()
  expect(warn).toHaveBeenCalledWith('A part of the screen failed', expect.any(Error))
  warn.mockRestore()
  error.mockRestore()
})
