import { describe, expect, test } from 'vitest'
import { deviceLabel, SessionIdParam } from './sessions.ts'

describe('deviceLabel', () => {
  test.each([
    ['Chrome', 'Android', 'Chrome on Android'],
    ['Safari', 'iPhone', 'Safari on iPhone'],
    ['Firefox', null, 'Firefox'],
    [null, 'Windows', 'Windows'],
    [null, null, 'Unknown device'],
  ] as const)('%s and %s → %s', (browser, device, label) => {
    expect(deviceLabel({ browser, device })).toBe(label)
  })
})

describe('SessionIdParam', () => {
  test.each([
    ['0190a5b2-0000-7000-8000-000000000001', true],
    ['not-an-id', false],
    ['', false],
  ])('%s → %s', (id, ok) => {
    expect(SessionIdParam.safeParse({ id }).success).toBe(ok)
  })
})
