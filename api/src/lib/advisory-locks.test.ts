import { expect, test } from 'vitest'
import { ADVISORY_LOCKS } from './advisory-locks.ts'

test('no two advisory locks share a key', () => {
  const keys = Object.values(ADVISORY_LOCKS)
  expect(new Set(keys).size).toBe(keys.length)
})
