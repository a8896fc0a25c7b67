import { describe, expect, test } from 'vitest'
import { MAX_PUSH_BATCH, PushBody } from './protocol.ts'

const mutation = (overrides: Record<string, unknown> = {}) => ({
  id: '0192b3c4-d5e6-7f80-9123-456789abcdef',
  name: 'item.create',
  args: { content: 'hi' },
  createdAt: '2026-11-23T10:00:00.000Z',
  ...overrides,
})

describe('push batches', () => {
  test('a batch of one well-formed mutation passes', () => {
    expect(PushBody.safeParse({ clientId: 'device-1', mutations: [mutation()] }).success).toBe(true)
  })

  test.each([
    ['no mutations', { clientId: 'd', mutations: [] }],
    [
      'more than 100 mutations',
      { clientId: 'd', mutations: Array.from({ length: MAX_PUSH_BATCH + 1 }, () => mutation()) },
    ],
    ['a mutation id that is not a UUID', { clientId: 'd', mutations: [mutation({ id: 'nope' })] }],
    ['args that are not an object', { clientId: 'd', mutations: [mutation({ args: 'x' })] }],
    ['a missing createdAt', { clientId: 'd', mutations: [mutation({ createdAt: undefined })] }],
    ['no clientId', { mutations: [mutation()] }],
  ])('a batch with %s is refused', (_what, body) => {
    expect(PushBody.safeParse(body).success).toBe(false)
  })
})
