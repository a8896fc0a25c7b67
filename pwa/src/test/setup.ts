import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterEach, beforeAll, vi } from 'vitest'
import { preloadEveryPart } from '../ui/lazy-part.ts'

// Event times show on the viewer's own clock: tests read as a viewer in Stockholm (spec part 2 §9's
// zone) unless one sets another, which is undone after it.
const VIEWER_ZONE = 'Europe/Stockholm'
process.env.TZ = VIEWER_ZONE

// findBy… and waitFor wait up to 5 s, not Testing Library's 1 s: a file's first render (lazy parts, Dexie,
// the first sync) has taken 1.3–1.4 s when CI ran two files at a time beside the API's tests, and failed
// there though nothing was wrong. A screen that never comes still fails, after 5 s.
configure({ asyncUtilTimeout: 5_000 })

// The lazy parts the test file's modules declare, loaded first: they render at once, as on a device that
// has every chunk cached (ui/lazy-part.ts).
beforeAll(() => preloadEveryPart())

afterEach(() => {
  process.env.TZ = VIEWER_ZONE
  cleanup()
  localStorage.clear()
  vi.useRealTimers()
  vi.restoreAllMocks()
})
