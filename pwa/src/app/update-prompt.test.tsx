import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { expect, test, vi } from 'vitest'

// A stand-in for workbox-window's Workbox: the test plays the browser's part by firing its events.
const workbox = vi.hoisted(() => {
  const listeners = new Map<string, () => void>()
  return {
    listeners,
    register: vi.fn(async () => undefined),
    messageSkipWaiting: vi.fn(() => listeners.get('controlling')?.()),
  }
})
vi.mock('workbox-window', () => ({
  Workbox: class {
    addEventListener(type: string, listener: () => void) {
      workbox.listeners.set(type, listener)
    }
    register = workbox.register
    messageSkipWaiting = workbox.messageSkipWaiting
  },
}))

test('a waiting service worker shows the update prompt; Reload activates it and reloads once it controls', async () => {
  const addEventListener = vi.fn()
  Object.defineProperty(navigator, 'serviceWorker', { value: { addEventListener }, configurable: true })
  const reload = vi.fn()
  vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload })
  const { registerServiceWorker } = await import('./service-worker.ts')
  const { UpdatePrompt } = await import('./update-prompt.tsx')

  await registerServiceWorker()
  expect(workbox.register).toHaveBeenCalledTimes(1)
  // The page answers the worker's "where are you?" (a push checks whether its buble is on screen).
  expect(addEventListener).toHaveBeenCalledWith('message', expect.any(Function))
  render(<UpdatePrompt />)
  expect(screen.queryByText('A new version of Buble is ready')).toBeNull()

  act(() => workbox.listeners.get('waiting')?.())
  expect(screen.getByRole('status')).toHaveTextContent('A new version of Buble is ready')

  await userEvent.click(screen.getByRole('button', { name: 'Reload' }))
  expect(workbox.messageSkipWaiting).toHaveBeenCalledTimes(1)
  expect(reload).toHaveBeenCalledTimes(1)
})
