import { expect, test } from 'vitest'
import { distanceFromBottom, isNearBottom, isNearTop, scrollTopKeeping } from './scroll-anchor.ts'

test('a page loaded above keeps the view the same distance from the bottom', () => {
  // 2,000px of messages, the view 300px from the top; a page of 1,500px arrives above.
  const fromBottom = distanceFromBottom({ scrollHeight: 2000, scrollTop: 300 })
  expect(fromBottom).toBe(1700)
  expect(scrollTopKeeping(fromBottom, 3500)).toBe(1800)
  // Content that shrank never scrolls above the top.
  expect(scrollTopKeeping(fromBottom, 1000)).toBe(0)
})

test('near the bottom follows new messages; near the top asks for older ones', () => {
  expect(isNearBottom({ scrollHeight: 2000, scrollTop: 1700, clientHeight: 300 })).toBe(true)
  expect(isNearBottom({ scrollHeight: 2000, scrollTop: 1660, clientHeight: 300 })).toBe(true)
  expect(isNearBottom({ scrollHeight: 2000, scrollTop: 1000, clientHeight: 300 })).toBe(false)
  expect(isNearTop({ scrollTop: 10 })).toBe(true)
  expect(isNearTop({ scrollTop: 500 })).toBe(false)
})
