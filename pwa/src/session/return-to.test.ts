import { afterEach, expect, test } from 'vitest'
import { landAfterSignIn, rememberReturn, signedInLanding, takeReturn } from './return-to.ts'

afterEach(() => sessionStorage.clear())

test('a join page is remembered once: reading it forgets it', () => {
  rememberReturn('/join/K7M2PQ9XRT', 1_000)
  expect(takeReturn(2_000)).toBe('/join/K7M2PQ9XRT')
  expect(takeReturn(3_000)).toBeNull()
})

test('only a join page can be remembered: nothing else can be planted as a landing', () => {
  for (const path of ['/admin', 'https://evil.example/join/X', '//evil.example', '/join/../admin', '/join/'])
    rememberReturn(path, 1_000)
  expect(takeReturn(2_000)).toBeNull()
  sessionStorage.setItem('buble.return-to', JSON.stringify({ path: '/profile', at: 1_000 }))
  expect(takeReturn(2_000)).toBeNull()
})

test('a remembered join page is forgotten after an hour', () => {
  rememberReturn('/join/K7M2PQ9XRT', 0)
  expect(takeReturn(60 * 60 * 1000 + 1)).toBeNull()
})

test('the landing of a sign-in holds for a few seconds, then the dashboard again', () => {
  expect(landAfterSignIn('/bubles/garden-club', 10_000)).toBe('/bubles/garden-club')
  expect(signedInLanding(12_000)).toBe('/bubles/garden-club')
  expect(signedInLanding(16_000)).toBe('/dashboard')
})
