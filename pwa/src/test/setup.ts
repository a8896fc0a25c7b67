import '@testing-library/jest-dom/vitest'
import { cleanup } from '@testing-library/react'
import { afterEach, beforeAll, vi } from 'vitest'
import { preloadEveryPart } from '../ui/lazy-part.ts'

// The lazy parts the test file's modules declare, loaded first: they render at once, as on a device that
// has every chunk cached (ui/lazy-part.ts).
beforeAll(() => preloadEveryPart())

afterEach(() => {
  cleanup()
  localStorage.clear()
  vi.useRealTimers()
  vi.restoreAllMocks()
})
